package dev.workingmemory.jdbc;

import dev.workingmemory.store.StoredDocument;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What the PostgreSQL store promises beyond the store contract. */
class JdbcWorkingMemoryStoreTest extends DatabaseTest {

    private JdbcWorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new JdbcWorkingMemoryStore(database.dataSource());
    }

    @Test
    void should_never_give_a_notes_version_twice_also_across_deletes_and_instances() {
        JdbcWorkingMemoryStore other = new JdbcWorkingMemoryStore(database.dataSource());
        Set<Long> seen = new HashSet<>();
        for (int round = 0; round < 3; round++) {
            store.appendNote("k", "- a");
            assertThat(seen.add(store.notesVersion("k"))).isTrue();
            other.appendNote("k", "- b");
            assertThat(seen.add(store.notesVersion("k"))).isTrue();
            other.removeNotes("k", List.of("- a"));
            assertThat(seen.add(store.notesVersion("k"))).isTrue();
            store.delete("k");
            assertThat(store.notesVersion("k")).isZero();
        }
    }

    @Test
    void should_keep_text_that_postgresql_text_columns_refuse() {
        String text = "NUL \u0000 and an unpaired surrogate \uD800 and 😀";

        store.save("k", 0, text);
        store.appendNote("k", text);
        store.putDocument("k", "doc.txt", text);

        assertThat(store.load("k").orElseThrow().document()).isEqualTo(text);
        assertThat(store.notes("k")).containsExactly(text);
        assertThat(store.getDocument("k", "doc.txt")).contains(text);
        assertThat(store.documents("k")).containsExactly(new StoredDocument("doc.txt", text.getBytes(
                java.nio.charset.StandardCharsets.UTF_8).length + 2)); // the surrogate takes 3 bytes, not '?'
    }

    @Test
    void should_let_a_lease_expire_in_the_database_clock_for_every_instance() throws InterruptedException {
        JdbcWorkingMemoryStore other = new JdbcWorkingMemoryStore(database.dataSource());

        assertThat(store.acquireLease("k", "dream", "instance-a", Duration.ofMillis(300))).isTrue();
        assertThat(other.acquireLease("k", "dream", "instance-b", Duration.ofMinutes(1))).isFalse();
        Thread.sleep(400);

        assertThat(other.acquireLease("k", "dream", "instance-b", Duration.ofMinutes(1))).isTrue();
        assertThat(store.acquireLease("k", "dream", "instance-a", Duration.ofMinutes(1))).isFalse();
    }

    @Test
    void should_not_list_a_key_that_only_holds_a_lease() {
        store.acquireLease("leased", "dream", "a", Duration.ofMinutes(1));
        store.appendNote("noted", "- a");

        assertThat(store.keys()).containsExactly("noted");
    }
}
