package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes become visible to reads lazily (one refresh before the next read, however many batches came before it),
 * while the writer's own lookup of what is indexed sees every put at once.
 */
class CrystalIndexVisibilityTest extends InMemoryIndexTest {

    private static Stored crystal(long seq, String id, String scope) {
        return new Stored(seq, note(id, scope, "a note about kayaking " + id));
    }

    @Test
    void should_show_the_batches_written_to_the_next_read() throws IOException {
        for (int batch = 0; batch < 5; batch++) {
            index.put(crystal(batch + 1, "n-" + batch, "alice"));
            index.written();
        }

        assertThat(index.count("alice")).isEqualTo(5);
        assertThat(index.keywordSearch("alice", Set.of(), "kayaking", 0.5, 10, 10).top()).hasSize(5);
        assertThat(index.unshownCount()).isZero();
    }

    @Test
    void should_tell_the_writer_what_is_indexed_before_any_refresh() throws IOException {
        index.put(crystal(1, "shown", "alice"));
        index.written();
        index.refreshIfWritten();
        index.put(crystal(2, "unshown", "alice"));
        index.put(crystal(3, "shown", "alice")); // a newer add of a shown id
        index.written();

        assertThat(index.indexed(List.of("shown", "unshown", "absent")))
                .containsOnlyKeys("shown", "unshown")
                .hasEntrySatisfying("shown", indexed -> assertThat(indexed.seq()).isEqualTo(3))
                .hasEntrySatisfying("unshown", indexed -> assertThat(indexed.scope()).isEqualTo("alice"));
        assertThat(index.unshownCount()).isEqualTo(2);
    }

    @Test
    void should_forget_what_a_delete_removed_before_any_refresh() throws IOException {
        index.put(crystal(1, "a", "alice"));
        index.put(crystal(2, "b", "alice"));
        index.put(crystal(3, "c", "bob"));
        index.written();

        index.delete("alice", List.of("a", "c")); // c is bob's: not deleted here
        assertThat(index.indexed(List.of("a", "b", "c"))).containsOnlyKeys("b", "c");
        index.deleteScope("bob");
        assertThat(index.indexed(List.of("a", "b", "c"))).containsOnlyKeys("b");

        index.refresh();
        assertThat(index.unshownCount()).isZero();
        assertThat(index.indexed(List.of("a", "b", "c"))).containsOnlyKeys("b");
        assertThat(index.count("alice")).isEqualTo(1);
        assertThat(index.count("bob")).isZero();
    }
}
