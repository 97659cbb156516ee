package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.testing.HashingEmbeddingModel;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's first search on an instance does not wait for another user's scope to load: the loads were serialized by
 * locks shared by hash stripes, so a user with a large history, whose id hashed with another's (any id can be made
 * to), held that user's searches for the whole of each of its loads.
 */
class ScopeLoadIsolationTest extends DatabaseTest {

    private static final String ALICE = "alice";
    /** The same {@link String#hashCode()} as alice's: 'a','l' made 'b','M' (+1 and -31). */
    private static final String MALLORY = "bMice";

    @Test
    void should_search_a_scope_while_another_large_scope_with_the_same_hash_loads() throws Exception {
        assertThat(MALLORY.hashCode()).isEqualTo(ALICE.hashCode());
        HashingEmbeddingModel model = new HashingEmbeddingModel();
        try (JdbcCrystalStore first = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(model).build()) {
            Instant now = Instant.parse("2026-03-12T14:30:00Z");
            for (int part = 0; part < 4; part++) {
                List<Crystal> crystals = new ArrayList<>();
                for (int i = 0; i < 5_000; i++) {
                    crystals.add(new Crystal("m-" + part + "-" + i, MALLORY, CrystalKind.TOOL_OUTPUT, now, 0.3,
                            List.of(Crystal.KEYWORDS_ONLY), "Row " + i + " of an export about apples and oranges, "
                            + "with more words to index ".repeat(10), null));
                }
                first.add(crystals);
            }
            first.add(List.of(new Crystal("a-1", ALICE, CrystalKind.NOTE, now, 0.8, List.of(),
                    "Alice's plan for the launch", null)));
            assertThat(first.count(MALLORY)).isEqualTo(20_000);
        }

        // a cold instance: both scopes are loaded by their first search
        try (JdbcCrystalStore instance = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(model).build()) {
            AtomicReference<Thread> loader = new AtomicReference<>();
            CompletableFuture<Void> mallorysSearch = CompletableFuture.runAsync(() -> {
                loader.set(Thread.currentThread());
                instance.search(new CrystalQuery(MALLORY, "apples", 5));
            });
            while (!loadingAScope(loader.get()) && !mallorysSearch.isDone()) {
                Thread.sleep(1);
            }
            assertThat(mallorysSearch).as("Mallory's scope still loads").isNotDone();

            assertThat(instance.search(new CrystalQuery(ALICE, "launch plan", 5)))
                    .extracting(hit -> hit.crystal().id()).containsExactly("a-1");
            assertThat(loadingAScope(loader.get())).as("Alice's search answered while Mallory's scope loaded").isTrue();
            mallorysSearch.get();
        }
    }

    private static boolean loadingAScope(Thread thread) {
        return thread != null && Arrays.stream(thread.getStackTrace()).anyMatch(frame ->
                frame.getClassName().equals(CrystalTable.class.getName()) && frame.getMethodName().equals("load"));
    }
}
