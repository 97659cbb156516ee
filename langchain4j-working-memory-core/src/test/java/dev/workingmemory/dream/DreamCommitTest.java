package dev.workingmemory.dream;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A commit or a rollback that stops at each of its store writes (as a crash would) is finished when the user is loaded
 * again: the old state with every note, or the new state without the consumed ones.
 */
class DreamCommitTest {

    private static final Set<String> WRITES = Set.of("putDocument", "deleteDocument", "removeNotes", "appendNote");
    private static final List<String> FACTS = List.of("User's name is Douglas", "Deadline is March 20th",
            "Prefers tabs over spaces");

    /** {@code delegate}, whose {@code failAt}-th write (counted from when {@code writes} is reset to 0) throws. */
    private static WorkingMemoryStore failingAt(WorkingMemoryStore delegate, int failAt, AtomicInteger writes) {
        return (WorkingMemoryStore) Proxy.newProxyInstance(WorkingMemoryStore.class.getClassLoader(),
                new Class<?>[]{WorkingMemoryStore.class}, (proxy, method, args) -> {
                    if (WRITES.contains(method.getName()) && writes.incrementAndGet() == failAt) {
                        throw new WorkingMemoryStoreException("crash before write " + failAt + " (test)");
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static WorkingMemoryProvider provider(WorkingMemoryStore store) {
        return WorkingMemoryProvider.builder().store(store).dreams(DreamConfig.builder().scheduled(false).build())
                .build();
    }

    /** Writes of a commit: the pending record, MEMORY.md, the notes removed, the record committed. */
    @ParameterizedTest(name = "crash before write {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void should_finish_or_forget_a_commit_stopped_at_any_write(int failAt) {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        AtomicInteger writes = new AtomicInteger(-1_000_000);
        try (WorkingMemoryProvider crashing = provider(failingAt(store, failAt, writes))) {
            FACTS.forEach(fact -> crashing.memory("u").notes().note(fact, 0.8, null));
            writes.set(0);

            DreamReport report = crashing.dream("u");

            assertThat(report.committed()).isFalse();
            assertThat(report.reason()).contains("crash before write " + failAt);
        }

        try (WorkingMemoryProvider restarted = provider(store)) {
            List<Note> pending = restarted.memory("u").notes().notes();
            List<DreamRecord> history = restarted.dreamEngine().history("u");
            if (failAt == 1) { // nothing was written: the old state (none) with every note
                assertThat(restarted.dreamEngine().state("u")).isEmpty();
                assertThat(pending).extracting(Note::text).containsExactlyElementsOf(FACTS);
                assertThat(history).isEmpty();
            } else { // the record was written: the commit is finished
                assertThat(restarted.dreamEngine().state("u")).contains(history.get(0).state());
                assertThat(pending).isEmpty();
                assertThat(history).singleElement().satisfies(record -> assertThat(record.consumedNotes()).hasSize(3));
                assertThat(restarted.memory("u").render()).contains("<state", FACTS.get(0));
            }
        }
    }

    /** Writes of a rollback: the record marked, three notes given back, MEMORY.md removed, the record dropped. */
    @ParameterizedTest(name = "crash before write {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void should_finish_or_forget_a_rollback_stopped_at_any_write(int failAt) {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        AtomicInteger writes = new AtomicInteger(-1_000_000);
        try (WorkingMemoryProvider crashing = provider(failingAt(store, failAt, writes))) {
            FACTS.forEach(fact -> crashing.memory("u").notes().note(fact, 0.8, null));
            assertThat(crashing.dream("u").committed()).isTrue();
            writes.set(0);

            assertThatThrownBy(() -> crashing.rollbackDream("u")).isInstanceOf(WorkingMemoryStoreException.class);
        }

        try (WorkingMemoryProvider restarted = provider(store)) {
            List<Note> pending = restarted.memory("u").notes().notes();
            if (failAt == 1) { // not begun: the dream stays
                assertThat(restarted.dreamEngine().history("u")).hasSize(1);
                assertThat(pending).isEmpty();
            } else { // begun: finished, each note given back once
                assertThat(restarted.dreamEngine().history("u")).isEmpty();
                assertThat(restarted.dreamEngine().state("u")).isEmpty();
                assertThat(pending).extracting(Note::text).containsExactlyInAnyOrderElementsOf(FACTS);
            }
        }
    }
}
