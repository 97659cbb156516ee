package dev.workingmemory.benchmarks;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.jdbc.JdbcCrystalStore;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus of {@link CrystalSearchBenchmark} in PostgreSQL: {@code scopes} users with {@code perScope} crystals
 * each, their vectors stored by the {@link JdbcCrystalStore}'s own embedder (from the cached MiniLM vectors of
 * {@link CrystalCorpus}), in a schema named after the shape, reused by later runs.
 */
final class JdbcCorpus {

    private JdbcCorpus() {
    }

    /** The schema of a corpus of this shape. */
    static String schema(int scopes, int perScope, int distinctTexts) {
        return "crystal_bench_" + scopes + "x" + perScope + "_" + distinctTexts;
    }

    /** The model that embeds the corpus texts from the cached vectors and anything else (queries) with MiniLM. */
    static EmbeddingModel model(EmbeddingModel miniLm, int distinctTexts) throws IOException {
        Path cache = Path.of(System.getProperty("java.io.tmpdir"), "working-memory-crystal-bench");
        return CrystalCorpus.precomputed(CrystalCorpus.embeddings(cache.resolve("minilm-" + distinctTexts + ".bin"),
                distinctTexts, miniLm), miniLm);
    }

    /** Adds what the schema lacks of the corpus and waits until every crystal has its vector. */
    static void populate(BenchDatabase database, int scopes, int perScope, int distinctTexts, EmbeddingModel model)
            throws SQLException, InterruptedException {
        try (JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(model).build()) {
            for (int u = 0; u < scopes; u++) {
                String user = "user-" + u;
                if (store.count(user) == perScope) {
                    continue;
                }
                long start = System.nanoTime();
                for (int from = 0; from < perScope; from += 1_000) {
                    List<Crystal> crystals = new ArrayList<>(1_000);
                    for (int k = from; k < Math.min(perScope, from + 1_000); k++) {
                        crystals.add(CrystalCorpus.crystal(user, k, (u * perScope + k) % distinctTexts));
                    }
                    store.add(crystals);
                }
                System.err.printf("%s: %,d crystals written in %d s%n", user, perScope,
                        (System.nanoTime() - start) / 1_000_000_000);
            }
            long start = System.nanoTime();
            long waiting;
            while ((waiting = database.queryLong("SELECT count(*) FROM wm_crystal WHERE embedded_revision <> revision"))
                    > 0) {
                System.err.printf("  %,d crystals wait for their vectors after %d s%n", waiting,
                        (System.nanoTime() - start) / 1_000_000_000);
                Thread.sleep(10_000);
            }
        }
    }
}
