package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The dream log: what each dream that reached a synthesis did, committed or not, kept beside the records. */
class DreamLogTest {

    private static WorkingMemoryProvider provider(WorkingMemoryStore store, ScriptedChatModel model) {
        return WorkingMemoryProvider.builder().store(store).dreamModel(model)
                .dreams(DreamConfig.builder().scheduled(false).build()).build();
    }

    @Test
    void should_log_committed_and_rejected_dreams_with_their_guards_and_mark_a_rollback() {
        AtomicReference<String> answer = new AtomicReference<>(States.full(8).render());
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from(answer.get()));
        WorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (WorkingMemoryProvider memories = provider(store, model)) {
            memories.memory("u").notes().note("User's name is Douglas", 0.8, null);
            DreamReport committed = memories.dream("u");
            memories.memory("u").notes().note("Deadline is March 20th", 0.8, null);
            answer.set("lol");
            DreamReport rejected = memories.dream("u");
            DreamReport skipped = memories.dream("nobody");

            List<DreamLogEntry> log = memories.dreamLog("u");

            assertThat(committed.committed()).isTrue();
            assertThat(rejected.failedGuard()).contains(DreamGuard.MISSING_SECTION);
            assertThat(skipped.committed()).isFalse();
            assertThat(memories.dreamLog("nobody")).isEmpty();
            assertThat(log).extracting(DreamLogEntry::report).containsExactly(committed, rejected);
            DreamRecord record = memories.dreamHistory("u").get(0);
            assertThat(log.get(0).wrote(record)).isTrue();
            assertThat(log.get(0).recordId()).isEqualTo(record.id());
            assertThat(log.get(1).recordId()).isZero();
            assertThat(log.get(0).report().pointersChecked()).isTrue();
            assertThat(log.get(0).report().pointerOutcomes()).hasSize(committed.pointersKept()
                    + committed.pointersRepaired() + committed.pointersDropped()).isNotEmpty();
            assertThat(log).allMatch(entry -> entry.rolledBack().isEmpty());

            assertThat(memories.rollbackDream("u")).isTrue();

            assertThat(memories.dreamLog("u").get(0).rolledBack()).isPresent();
            assertThat(memories.dreamLog("u").get(1).rolledBack()).isEmpty();
        }
        try (WorkingMemoryProvider again = provider(store, model)) {
            assertThat(again.dreamLog("u")).hasSize(2);
            assertThat(again.dreamLog("u").get(1).report().guardChecks())
                    .last().satisfies(check -> assertThat(check.passed()).isFalse());
        }
    }

    @Test
    void should_keep_the_last_twenty_dreams_and_start_again_after_an_unreadable_log() {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("lol"));
        WorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (WorkingMemoryProvider memories = provider(store, model)) {
            memories.memory("u").notes().note("User's name is Douglas", 0.8, null);
            for (int i = 0; i < DreamLog.KEPT + 3; i++) {
                memories.dream("u");
            }
            assertThat(memories.dreamLog("u")).hasSize(DreamLog.KEPT);

            store.putDocument(MemoryKey.of("u").resourceStoreKey(), DreamLog.DOCUMENT, "{not json");
            assertThat(memories.dreamLog("u")).isEmpty();
            memories.dream("u");

            assertThat(memories.dreamLog("u")).hasSize(1);
        }
    }
}
