package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.testing.HashingEmbeddingModel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The crystal store on a DataSource whose driver rewrites batched inserts into multi-row ones
 * ({@code reWriteBatchedInserts=true}, a common pgjdbc setting): a crystal added twice in one batch (adding an id
 * again replaces it) made PostgreSQL refuse the batch's {@code INSERT … ON CONFLICT DO UPDATE} every time, and the
 * writer retried it for ever with every other user's crystals queued behind it.
 */
class RewrittenBatchesTest extends DatabaseTest {

    private static Crystal crystal(String id, String scope, String text) {
        return new Crystal(id, scope, CrystalKind.NOTE, Instant.parse("2026-03-12T14:30:00Z"), 0.5, List.of(), text, null);
    }

    @Test
    void should_write_other_users_crystals_after_one_added_twice_in_a_batch_the_driver_rewrites() {
        String url = database.url() + (database.url().contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
        try (HikariDataSource rewriting = TestDatabase.pool(url, database.schema(), Duration.ofSeconds(10));
             JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(rewriting)
                     .embeddingModel(new HashingEmbeddingModel()).readYourWritesTimeout(Duration.ofSeconds(10)).build()) {
            store.add(List.of(crystal("m-1", "mallory", "First version"), crystal("m-1", "mallory", "Second version")));
            store.add(List.of(crystal("a-1", "alice", "Alice's plan for the launch")));

            assertThat(store.count("alice")).isEqualTo(1);
            assertThat(store.count("mallory")).isEqualTo(1);
            assertThat(store.pendingCount()).isZero();
            assertThat(store.get("m-1")).map(Crystal::text).contains("Second version");
        }
    }
}
