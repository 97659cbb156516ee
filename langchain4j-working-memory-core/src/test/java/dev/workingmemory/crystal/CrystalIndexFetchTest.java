package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link CrystalIndex#fetch}: the crystals of a search's keys, wherever their segments are. */
class CrystalIndexFetchTest extends InMemoryIndexTest {

    private long seq = 1;

    private void put(String id, String scope, String text) throws IOException {
        index.put(new Stored(seq++, note(id, scope, text)));
    }

    private int segments() throws IOException {
        IndexSearcher searcher = index.searchers().acquire();
        try {
            return searcher.getIndexReader().leaves().size();
        } finally {
            index.searchers().release(searcher);
        }
    }

    @Test
    void should_fetch_each_key_of_the_scope_from_whichever_segment_holds_it() throws IOException {
        List<Long> keys = new ArrayList<>();
        for (int segment = 0; segment < 3; segment++) { // a refresh after each batch: one segment per batch
            for (int i = 0; i < 5 + 10 * segment; i++) {
                String id = "a-" + segment + "-" + i;
                put(id, "alice", "note " + segment + " " + i);
                keys.add(key(id));
            }
            put("b-" + segment, "bob", "bob's note " + segment);
            index.refresh();
        }
        assertThat(segments()).isGreaterThanOrEqualTo(2);
        keys.add(key("b-1")); // another scope's key
        keys.add(key("nowhere"));

        Map<Long, Crystal> fetched = index.fetch("alice", keys);

        assertThat(fetched).hasSize(45);
        fetched.forEach((key, crystal) -> {
            assertThat(crystal.scope()).isEqualTo("alice");
            assertThat(key(crystal.id())).as(crystal.id()).isEqualTo(key);
        });
        assertThat(index.fetch("bob", keys)).hasSize(1).containsKey(key("b-1"));
    }

    @Test
    void should_fetch_the_current_text_of_a_crystal_replaced_in_a_later_segment() throws IOException {
        for (int i = 0; i < 20; i++) {
            put("a-" + i, "alice", "first text " + i);
        }
        index.refresh();
        put("a-3", "alice", "second text");
        put("a-20", "alice", "a new one");
        index.refresh();

        Map<Long, Crystal> fetched = index.fetch("alice", List.of(key("a-3"), key("a-4"), key("a-20")));

        assertThat(fetched).hasSize(3);
        assertThat(fetched.get(key("a-3")).text()).isEqualTo("second text");
        assertThat(fetched.get(key("a-4")).text()).isEqualTo("first text 4");
        assertThat(fetched.get(key("a-20")).text()).isEqualTo("a new one");
    }

    @Test
    void should_read_back_the_key_a_key_term_spells() {
        for (long key : new long[] {Long.MIN_VALUE, -1, 0, 1, 255, 256, Long.MAX_VALUE, key("a-1"), key("b-0")}) {
            assertThat(CrystalIndex.keyOf(CrystalIndex.keyTerm(key))).isEqualTo(key);
        }
    }
}
