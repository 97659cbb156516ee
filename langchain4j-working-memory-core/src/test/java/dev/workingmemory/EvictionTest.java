package dev.workingmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Layers see the messages that leave the window, with the time they were added. */
class EvictionTest {

    /** Records what left the window. */
    static final class Recorder implements MemoryLayer {
        final List<EvictedMessage> evicted = new ArrayList<>();

        @Override
        public void onEvicted(List<EvictedMessage> messages) {
            evicted.addAll(messages);
        }

        @Override
        public String name() {
            return "recorder";
        }

        @Override
        public LayerScope scope() {
            return LayerScope.THREAD;
        }

        @Override
        public int order() {
            return 99;
        }

        @Override
        public int priority() {
            return 1;
        }

        @Override
        public LayerBudget budget() {
            return LayerBudget.of(0, 10);
        }

        @Override
        public String render(int maxChars) {
            return "";
        }

        @Override
        public JsonNode snapshot() {
            return JsonNodeFactory.instance.nullNode();
        }

        @Override
        public void restore(JsonNode snapshot) {
        }
    }

    private static final class SteppingClock extends Clock {
        Instant now = Instant.parse("2023-05-08T13:56:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void should_hand_whole_evicted_turns_to_layers_with_the_time_they_were_added() {
        SteppingClock clock = new SteppingClock();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(4).clock(clock)
                .layer(context -> new Recorder()).build();
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("first question"));
        chat.add(AiMessage.from("first answer"));
        clock.now = Instant.parse("2023-05-25T10:00:00Z");
        chat.add(UserMessage.from("second question"));
        chat.add(AiMessage.from("second answer"));
        chat.add(UserMessage.from("third question"));

        Recorder recorder = memories.memory("alice").layer(Recorder.class).orElseThrow();
        assertThat(recorder.evicted).extracting(EvictedMessage::message)
                .containsExactly(UserMessage.from("first question"), AiMessage.from("first answer"));
        assertThat(recorder.evicted).extracting(EvictedMessage::added)
                .containsOnly(Instant.parse("2023-05-08T13:56:00Z"));
        assertThat(chat.messages()).hasSize(3);
    }

    @Test
    void should_not_hand_over_messages_cleared_or_replaced_by_the_application() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(4)
                .chatMemoryStore(new InMemoryChatMemoryStore()).layer(context -> new Recorder()).build();
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("q"));
        chat.add(AiMessage.from("a"));

        chat.set(List.<ChatMessage>of(UserMessage.from("rewritten")));
        chat.clear();

        assertThat(memories.memory("alice").layer(Recorder.class).orElseThrow().evicted).isEmpty();
    }
}
