package dev.workingmemory.jdbc;

import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.testing.GatedEmbeddingModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, point 5 for the JDBC crystal store: {@code add} writes its rows and returns, whatever the embedder
 * behind it is doing; with thousands of rows waiting for vectors, nothing is lost once it catches up.
 */
class JdbcCrystalBacklogTest extends DatabaseTest {

    private JdbcCrystalStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private static Crystal crystal(int i) {
        return new Crystal("c" + i, "alice", CrystalKind.TURN, Instant.parse("2026-03-12T14:30:00Z").plusSeconds(i),
                0.5, List.of(), "Turn " + i + " mentions token" + i + "x", null);
    }

    @Test
    void should_not_make_add_wait_for_an_embedder_that_is_stuck_and_lose_nothing() throws Exception {
        GatedEmbeddingModel model = new GatedEmbeddingModel();
        store = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingStore(new InMemoryEmbeddingStore<>()).embeddingModel(model).build();

        // on another thread with a timeout: an add that waited for the stuck embedder would never return
        CompletableFuture.runAsync(() -> IntStream.range(0, 2_000).forEach(i -> store.add(List.of(crystal(i)))))
                .get(120, TimeUnit.SECONDS);

        assertThat(store.count("alice")).isEqualTo(2_000);
        model.open();
        assertThat(store.search(new CrystalQuery("alice", "token1999x", 1))).extracting(hit -> hit.crystal().id())
                .containsExactly("c1999");
    }
}
