package dev.workingmemory.internal;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.MessageLog;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.SettableClock;
import dev.workingmemory.testing.TestStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The window kept in a store's message log, seen by several instances ({@link LoggedConversation}).
 */
class LoggedConversationTest {

    private static final MemoryKey KEY = MemoryKey.of("ann");
    private static final String LOG = KEY.threadStoreKey();

    private final WorkingMemoryStore store = new InMemoryWorkingMemoryStore();
    private final SettableClock clock = new SettableClock("2026-03-12T14:30:00Z");

    /** An instance's conversation, its window of {@code maxMessages}, recording what it evicts. */
    private final class Instance {
        final Conversation conversation;
        final List<EvictedMessage> evicted = new ArrayList<>();

        Instance(WorkingMemoryStore store, int maxMessages, Duration storeCheckInterval) {
            MessageWindow window = MessageWindow.ofMessages(maxMessages);
            window.onEviction(clock, (messages, remaining) -> evicted.addAll(messages));
            conversation = LoggedConversation.in(store, clock, new StoreCheck(storeCheckInterval), WorkingMemoryListener.NONE)
                    .open("ann", KEY, window);
            conversation.load();
        }

        List<ChatMessage> messages() {
            conversation.refresh();
            List<ChatMessage> all = new ArrayList<>(conversation.window().all());
            return all;
        }

        void turn(int n) {
            conversation.add(UserMessage.from("question " + n));
            clock.advance(Duration.ofSeconds(1));
            conversation.add(AiMessage.from("answer " + n));
            clock.advance(Duration.ofSeconds(1));
        }
    }

    private Instance instance(int maxMessages) {
        return new Instance(store, maxMessages, Duration.ZERO);
    }

    @Test
    void should_take_in_what_another_instance_added_and_evict_the_same_messages_with_the_same_times() {
        Instance a = instance(4);
        Instance b = instance(4);

        a.turn(0);
        b.turn(1);
        a.turn(2);

        assertThat(b.messages()).containsExactly(UserMessage.from("question 1"), AiMessage.from("answer 1"),
                UserMessage.from("question 2"), AiMessage.from("answer 2"));
        assertThat(a.messages()).isEqualTo(b.messages());
        assertThat(b.evicted).isEqualTo(a.evicted).extracting(EvictedMessage::message)
                .containsExactly(UserMessage.from("question 0"), AiMessage.from("answer 0"));
        assertThat(a.evicted.get(0).added()).isEqualTo(Instant.parse("2026-03-12T14:30:00Z"));
    }

    @Test
    void should_append_after_what_another_instance_appended_since_it_last_looked() {
        Instance a = instance(10);
        Instance b = new Instance(store, 10, Duration.ofHours(1)); // never looks before it writes

        a.turn(0);
        b.conversation.add(UserMessage.from("question 1"));

        assertThat(b.conversation.window().all()).containsExactly(UserMessage.from("question 0"),
                AiMessage.from("answer 0"), UserMessage.from("question 1"));
        assertThat(a.messages()).isEqualTo(b.conversation.window().all());
        assertThat(store.messagesVersion(LOG)).isEqualTo(3);
    }

    @Test
    void should_replay_an_eviction_under_pressure_clear_and_set_in_every_instance() {
        Instance a = instance(20);
        Instance b = instance(20);
        for (int n = 0; n < 3; n++) {
            a.turn(n);
        }

        assertThat(a.conversation.evictOldestTurn()).isTrue();
        assertThat(b.messages()).isEqualTo(a.messages()).startsWith(UserMessage.from("question 1"));
        assertThat(b.evicted).extracting(EvictedMessage::message)
                .containsExactly(UserMessage.from("question 0"), AiMessage.from("answer 0"));

        b.conversation.replace(List.of(SystemMessage.from("Be brief."), UserMessage.from("only this")));
        assertThat(a.messages()).containsExactly(SystemMessage.from("Be brief."), UserMessage.from("only this"));

        a.conversation.clear();
        assertThat(b.messages()).isEmpty();
        assertThat(store.messages(LOG, 0).entries()).as("nothing up to the clear is kept").isEmpty();
        assertThat(store.messagesVersion(LOG)).as("3 turns, an eviction, a set of 3, a clear").isEqualTo(11);
    }

    @Test
    void should_keep_the_log_bounded_and_load_the_same_window_from_it() {
        Instance a = instance(6);
        a.conversation.add(SystemMessage.from("You are a locker assistant."));
        for (int n = 0; n < 500; n++) {
            a.turn(n);
        }

        MessageLog log = store.messages(LOG, 0);
        assertThat(log.entries()).hasSizeLessThanOrEqualTo(6 + LoggedConversation.TRIM_AT + 2);
        assertThat(log.lastSeq()).isGreaterThan(1_000);
        Instance loaded = instance(6);
        assertThat(loaded.messages()).isEqualTo(a.messages()).startsWith(SystemMessage.from("You are a locker assistant."));
        assertThat(loaded.evicted).as("the retained margin leaves the window again")
                .hasSizeBetween(LoggedConversation.RETAINED, LoggedConversation.TRIM_AT)
                .isEqualTo(a.evicted.subList(a.evicted.size() - loaded.evicted.size(), a.evicted.size()));
    }

    @Test
    void should_keep_the_log_bounded_in_one_endless_turn_of_tool_calls() {
        Instance a = instance(6);
        a.conversation.add(UserMessage.from("fix every test"));
        for (int n = 0; n < 400; n++) {
            dev.langchain4j.agent.tool.ToolExecutionRequest call = dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
                    .id("call-" + n).name("runTests").arguments("{}").build();
            a.conversation.add(AiMessage.from(call));
            a.conversation.add(ToolExecutionResultMessage.from(call, "1 failure"));
        }

        assertThat(store.messages(LOG, 0).entries()).hasSizeLessThan(LoggedConversation.MAX_EVICTED + 8);
        assertThat(instance(6).messages()).isEqualTo(a.messages());
    }

    @Test
    void should_read_the_whole_log_again_when_what_it_missed_was_trimmed() {
        Instance a = instance(4);
        Instance b = instance(4);
        b.turn(0);
        for (int n = 1; n < 100; n++) {
            a.turn(n);
        }

        assertThat(b.messages()).isEqualTo(a.messages()).containsExactly(UserMessage.from("question 98"),
                AiMessage.from("answer 98"), UserMessage.from("question 99"), AiMessage.from("answer 99"));
    }

    @Test
    void should_refuse_to_go_on_from_a_log_deleted_elsewhere_which_a_new_load_starts_again() {
        Instance a = instance(10);
        a.turn(0);
        a.turn(1);

        store.delete(LOG);
        store.appendMessages(LOG, 0, List.of(new dev.workingmemory.store.MessageLogEntry.Added(
                UserMessage.from("a new start"), Instant.parse("2026-03-13T09:00:00Z"))));

        // the window, and what the memory derived from it, hold the deleted turns: its provider loads it again
        assertThatThrownBy(a::messages).isInstanceOf(MemoryForgottenException.class);
        assertThat(instance(10).messages()).containsExactly(UserMessage.from("a new start"));
    }

    @Test
    void should_serve_the_window_it_holds_when_the_store_cannot_be_read() {
        TestStore failing = new TestStore();
        Instance a = new Instance(failing, 10, Duration.ZERO);
        a.turn(0);

        failing.failingMessages = true;
        a.conversation.refresh(); // the version check fails: logged, the window held is served

        assertThat(a.conversation.window().all()).containsExactly(UserMessage.from("question 0"), AiMessage.from("answer 0"));
    }
}
