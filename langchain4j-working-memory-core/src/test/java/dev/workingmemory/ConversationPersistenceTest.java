package dev.workingmemory;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.ChildJvm;
import dev.workingmemory.testing.ConversationProcess;
import dev.workingmemory.testing.NumberedTurns;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conversation is kept by the {@link WorkingMemoryStore}: a restart continues it, several providers (application
 * instances) on one store add to one conversation without erasing each other's turns, and every turn that leaves the
 * window becomes one past turn, whichever instance evicts it (issue 24).
 */
class ConversationPersistenceTest {

    /** Two turns fit the window; with a tool call a turn takes four messages. */
    private static final int WINDOW = 8;
    private static final int TURNS = 50;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    interface Assistant {
        String chat(@dev.langchain4j.service.MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    @Test
    void should_continue_the_conversation_after_a_restart_and_find_its_first_turn_once_it_left_the_window() {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Noted."));
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(6).build();
        Assistant before = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(first).build();
        before.chat("ann", "My locker code is 7319-QUARTZ.");
        before.chat("ann", "I parked on level 3.");
        before.chat("ann", "My train leaves at 9.");
        first.close();

        WorkingMemoryProvider second = opened(WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(6).build());

        assertThat(second.get("ann").messages()).containsExactly(
                UserMessage.from("My locker code is 7319-QUARTZ."), AiMessage.from("Noted."),
                UserMessage.from("I parked on level 3."), AiMessage.from("Noted."),
                UserMessage.from("My train leaves at 9."), AiMessage.from("Noted."));
        Assistant after = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(second).build();
        after.chat("ann", "The weather is fine.");
        assertThat(model.requests().get(model.requests().size() - 1).messages()).as("what the model was sent")
                .startsWith(UserMessage.from("My locker code is 7319-QUARTZ."), AiMessage.from("Noted."))
                .endsWith(UserMessage.from("The weather is fine."));
        after.chat("ann", "Lunch was good.");
        after.chat("ann", "See you tomorrow.");

        assertThat(second.get("ann").messages()).doesNotContain(UserMessage.from("My locker code is 7319-QUARTZ."));
        assertThat(second.memory("ann").search("locker code", 5)).extracting(MemoryHit::text)
                .anyMatch(hit -> hit.contains("user: My locker code is 7319-QUARTZ.") && hit.contains("assistant: Noted."));
    }

    enum Stores {
        /** One in-memory store and one crystal store shared by the providers. */
        IN_MEMORY,
        /** A file store instance per provider on one root (their crystals share the root's .crystals). */
        FILE
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void should_keep_every_turn_once_and_in_order_when_two_providers_take_turns(Stores stores) {
        InMemoryWorkingMemoryStore shared = new InMemoryWorkingMemoryStore();
        CrystalStore crystals = stores == Stores.FILE ? null
                : opened(EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm()).build());
        Supplier<WorkingMemoryProvider> instance = () -> {
            WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().maxMessages(WINDOW);
            if (stores == Stores.FILE) {
                builder.store(new FileWorkingMemoryStore(dir));
            } else {
                builder.store(shared).crystalStore(crystals);
            }
            return opened(builder.build());
        };
        WorkingMemoryProvider a = instance.get();
        WorkingMemoryProvider b = instance.get();
        NumberedTurns.Assistant onA = NumberedTurns.assistant(a);
        NumberedTurns.Assistant onB = NumberedTurns.assistant(b);

        for (int n = 0; n < TURNS; n++) {
            assertThat(NumberedTurns.take(n % 2 == 0 ? onA : onB, "ann", n)).startsWith("Answer " + n + ":");
        }
        List<Integer> windowOfA = NumberedTurns.turnsIn(a.get("ann").messages());
        assertThat(windowOfA).as("A took in B's last turn").endsWith(TURNS - 1);

        NumberedTurns.assertEveryTurnOnceInOrder(instance.get(), "ann", TURNS);
    }

    @Test
    void should_keep_every_turn_once_and_in_order_when_a_second_jvm_takes_every_other_turn() throws Exception {
        WorkingMemoryProvider a = opened(WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(WINDOW).build());
        NumberedTurns.Assistant onA = NumberedTurns.assistant(a);
        try (ChildJvm b = ChildJvm.start(ConversationProcess.class, dir.toString(), String.valueOf(WINDOW), "ann")) {
            NumberedTurns.takeTurnsAbout(onA, b, "ann", TURNS, CHILD_TIMEOUT);
        }
        a.close();

        NumberedTurns.assertEveryTurnOnceInOrder(opened(WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir)).maxMessages(WINDOW).build()), "ann", TURNS);
    }

    @Test
    void should_keep_the_turn_that_returned_right_before_the_jvm_was_killed() throws Exception {
        try (ChildJvm child = ChildJvm.start(ConversationProcess.class, dir.toString(), String.valueOf(WINDOW), "ann")) {
            child.awaitLine("ready"::equals, CHILD_TIMEOUT);
            for (int n = 0; n < 4; n++) {
                child.send("turn " + n);
            }
            child.awaitLine("took 3"::equals, CHILD_TIMEOUT);
            child.kill();
        }

        WorkingMemoryProvider restarted = opened(WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(WINDOW).build());
        List<ChatMessage> messages = restarted.get("ann").messages();

        assertThat(NumberedTurns.turnsIn(messages)).containsExactly(1, 2, 3);
        assertThat(messages.get(messages.size() - 1)).isEqualTo(AiMessage.from("Answer 3: the locker is checked."));
        NumberedTurns.take(NumberedTurns.assistant(restarted), "ann", 4);
        assertThat(NumberedTurns.turnsIn(restarted.get("ann").messages())).containsExactly(2, 3, 4);
    }
}
