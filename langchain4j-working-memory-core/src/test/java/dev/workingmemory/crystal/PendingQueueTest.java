package dev.workingmemory.crystal;

import dev.workingmemory.crystal.PendingQueue.Batch;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

class PendingQueueTest {

    private static final Duration NO_WAIT = Duration.ZERO;

    @Test
    void should_not_hold_a_scope_back_on_close_for_a_crystal_indexed_before_it_was_recorded() throws Exception {
        PendingQueue queue = new PendingQueue(100, 1, true);
        queue.add(List.of(note("a", "alice", "indexed, not yet recorded")));
        Batch batch = (Batch) queue.take(10, NO_WAIT);
        queue.finished(batch.items());

        // a periodic commit must not mark alice as held entirely: her records lack the crystal
        assertThat(queue.scopesBehind()).containsExactly("alice");
        // close records every unrecorded crystal before its commit: alice's records and index then agree
        assertThat(queue.close()).extracting(pending -> pending.crystal.id()).containsExactly("a");
        assertThat(queue.scopesBehindOnClose()).isEmpty();
    }

    @Test
    void should_hold_a_scope_back_on_close_while_its_crystal_is_not_indexed() throws Exception {
        PendingQueue queue = new PendingQueue(100, 1, true);
        queue.add(List.of(note("a", "alice", "waiting in memory")));
        queue.add(List.of(note("b", "bob", "being indexed")));
        queue.take(1, NO_WAIT); // alice's, taken and never finished
        queue.close();

        assertThat(queue.scopesBehindOnClose()).containsExactlyInAnyOrder("alice", "bob");
    }
}
