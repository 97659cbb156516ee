package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The per-instance cache of scope indexes of {@link JdbcCrystalStore}: bounded, evicting, cheap when current. */
class JdbcCrystalCacheTest extends DatabaseTest {

    private static List<Crystal> turns(String scope, int count) {
        return IntStream.range(0, count).mapToObj(i -> turn(scope + "-" + i, scope, i, "In turn " + i + " of " + scope
                + " we talked about the weather in Lisbon, a recipe for bread with rosemary, and a bicycle repair"
                + " that took the whole afternoon " + i)).toList();
    }

    private interface Hook {
        void run() throws SQLException;
    }

    /** The pool, with {@code hook} run before it is asked for each connection (what the hook throws, the pool does). */
    private static DataSource beforeEachConnection(DataSource pool, Hook hook) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, arguments) -> {
                    if (method.getName().equals("getConnection")) {
                        hook.run();
                    }
                    try {
                        return method.invoke(pool, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void should_keep_its_indexes_within_its_size_evicting_scopes() {
        long cacheSize = 1L << 20;
        try (JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.hashing()).cacheSize(cacheSize).build()) {
            List<String> scopes = IntStream.range(0, 10).mapToObj(i -> "user-" + i).toList();
            scopes.forEach(scope -> store.add(turns(scope, 300)));

            for (String scope : scopes) {
                assertThat(ids(store.search(new CrystalQuery(scope, "turn 7 bicycle", 1)))).containsExactly(scope + "-7");
            }

            JdbcCrystalStore.CacheState state = store.cacheState();
            assertThat(state.bytes()).isPositive().isLessThanOrEqualTo(cacheSize);
            assertThat(state.scopes()).isNotEmpty().hasSizeLessThan(scopes.size());
            for (String scope : scopes) { // evicted or not, each is found again
                assertThat(ids(store.search(new CrystalQuery(scope, "turn 123 rosemary", 1)))).containsExactly(scope + "-123");
            }
            assertThat(store.cacheState().bytes()).isLessThanOrEqualTo(cacheSize);
        }
    }

    @Test
    void should_ask_the_database_for_one_row_when_its_scope_did_not_change() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        DataSource counting = beforeEachConnection(database.dataSource(), connections::incrementAndGet);
        try (JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(counting)
                .embeddingModel(TestEmbeddingModels.hashing()).build()) {
            store.add(turns("alice", 50));
            database.awaitVectors(50);
            store.search(new CrystalQuery("alice", "bicycle", 3)); // loads alice

            int before = connections.get();
            for (int i = 0; i < 5; i++) {
                assertThat(ids(store.search(new CrystalQuery("alice", "turn " + i + " bread", 1))))
                        .containsExactly("alice-" + i);
            }

            assertThat(connections.get() - before).isEqualTo(5);
        }
    }

    @Test
    void should_take_crystals_without_waiting_for_the_database_and_read_them_once_written() {
        AtomicBoolean down = new AtomicBoolean();
        DataSource gated = beforeEachConnection(database.dataSource(), () -> {
            if (down.get()) {
                throw new SQLException("The database is down", "08001");
            }
        });
        try (JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(gated)
                .embeddingModel(TestEmbeddingModels.hashing()).build()) {
            down.set(true);
            long start = System.nanoTime();
            store.add(turns("alice", 3));

            assertThat(System.nanoTime() - start).as("add did not wait").isLessThan(1_000_000_000L);
            assertThat(store.pendingCount()).isEqualTo(3);
            assertThat(store.get("alice-1")).as("a queued crystal").isPresent();

            down.set(false); // the writer's next attempt succeeds
            assertThat(ids(store.search(new CrystalQuery("alice", "turn 2 bicycle", 1)))).containsExactly("alice-2");
            assertThat(store.count("alice")).isEqualTo(3);
            assertThat(store.pendingCount()).isZero();
        }
    }

    @Test
    void should_delete_crystals_still_queued_and_never_write_them() {
        try (JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.hashing()).build()) {
            for (int i = 0; i < 20; i++) {
                store.add(turns("alice", 50));
                store.delete("alice", turns("alice", 50).stream().map(Crystal::id).toList());
            }

            assertThat(store.count("alice")).isZero();
            assertThat(store.search(new CrystalQuery("alice", "bicycle", 5))).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1})
    void should_refuse_a_cache_size_that_is_not_positive(long cacheSize) {
        assertThatThrownBy(() -> JdbcCrystalStore.builder().dataSource(database.dataSource()).cacheSize(cacheSize).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cacheSize must be positive");
    }
}
