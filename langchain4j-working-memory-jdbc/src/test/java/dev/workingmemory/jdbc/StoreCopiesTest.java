package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.internal.VectorModel;
import dev.workingmemory.testing.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's embedding store ends up with exactly the copies the crystals' rows call for, however long it was
 * unreachable: a copy made while it is down is made once it answers, a removal (a crystal deleted, a user forgotten)
 * too; an entry it refuses every time while it takes others is given up alone, with a WARN naming it.
 */
class StoreCopiesTest extends DatabaseTest {

    private CapturedLog log;
    private final List<JdbcCrystalStore> stores = new ArrayList<>();

    @BeforeEach
    void captureLog() {
        log = CapturedLog.start();
    }

    @AfterEach
    void close() {
        stores.forEach(JdbcCrystalStore::close);
        if (log != null) { // null when skipped: no database
            log.close();
        }
    }

    private JdbcCrystalStore open(FlakyEmbeddingStore copies) {
        JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.hashing()).embeddingStore(copies).build();
        stores.add(store);
        return store;
    }

    private static List<Crystal> crystals(String scope, int count) {
        return IntStream.range(0, count).mapToObj(i -> crystal(scope, scope + i)).toList();
    }

    private static Crystal crystal(String scope, String id) {
        return new Crystal(id, scope, CrystalKind.TURN, Instant.parse("2026-03-12T14:30:00Z"), 0.5, List.of(),
                "Turn " + id + " mentions token" + id + "x", null);
    }

    private static List<String> ids(String scope, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> scope + i).sorted().toList();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.sleep(20);
        }
    }

    @Test
    void should_copy_once_it_answers_every_vector_made_while_the_application_store_was_down() throws Exception {
        FlakyEmbeddingStore copies = new FlakyEmbeddingStore().down(true);
        open(copies).add(crystals("alice", 20));
        database.awaitVectors(20);
        await("the copies tried", () -> copies.failedCalls() > 0 && database.copiesPending() == 20);

        copies.down(false); // and nothing is added: the rows say what waits

        await("20 copies", () -> copies.crystalIds().size() == 20);
        assertThat(copies.crystalIds()).isEqualTo(ids("alice", 0, 20));
        await("no copy pending", () -> database.copiesPending() == 0);
        assertThat(log.lines("WARN")).filteredOn(line -> line.contains("refused the copies")).isEmpty();
    }

    @Test
    void should_remove_once_it_answers_the_copies_of_crystals_and_users_forgotten_while_the_store_was_down()
            throws Exception {
        FlakyEmbeddingStore copies = new FlakyEmbeddingStore();
        JdbcCrystalStore store = open(copies);
        store.add(crystals("alice", 10));
        store.add(crystals("bob", 5));
        await("15 copies", () -> copies.crystalIds().size() == 15);

        copies.down(true);
        store.delete("alice", ids("alice", 0, 5));
        store.deleteScope("bob");
        assertThat(copies.crystalIds()).as("nothing removed yet").hasSize(15);
        assertThat(database.copyRemovalsPending()).isEqualTo(6); // five crystals and a scope
        int immediate = copies.failedCalls(); // the deletions' own tries
        await("the background's pass over", () -> copies.failedCalls() > immediate
                && database.copyRemovalsClaimed() == 0);

        copies.down(false);

        await("the removed copies gone", () -> copies.crystalIds().equals(ids("alice", 5, 10)));
        await("no removal pending", () -> database.copyRemovalsPending() == 0);
    }

    @Test
    void should_remove_at_once_the_copies_of_what_is_deleted_while_the_store_answers() throws Exception {
        FlakyEmbeddingStore copies = new FlakyEmbeddingStore();
        JdbcCrystalStore store = open(copies);
        store.add(crystals("alice", 10));
        await("10 copies", () -> copies.crystalIds().size() == 10);

        store.delete("alice", ids("alice", 0, 5));
        assertThat(copies.crystalIds()).isEqualTo(ids("alice", 5, 10));
        store.deleteScope("alice");
        assertThat(copies.crystalIds()).isEmpty();
        assertThat(database.copyRemovalsPending()).isZero();
    }

    @Test
    void should_give_up_only_the_copy_the_store_refuses_every_time_while_it_takes_the_others() throws Exception {
        FlakyEmbeddingStore copies = new FlakyEmbeddingStore().refusing("alice7");
        JdbcCrystalStore store = open(copies);
        store.add(crystals("alice", 20));

        await("19 copies and the refused one given up", () -> copies.crystalIds().size() == 19
                && database.copiesPending() == 0);
        assertThat(copies.crystalIds()).doesNotContain("alice7");
        assertThat(log.lines("WARN")).filteredOn(line -> line.contains("refused the copies")).singleElement()
                .asString().contains("copies of 1 of", "alice7", "given up");
        int refusals = copies.refusals("alice7");

        store.add(List.of(crystal("alice", "later")));
        await("the later one copied", () -> copies.crystalIds().contains("later"));
        assertThat(copies.refusals("alice7")).as("not tried again").isEqualTo(refusals);
    }

    @Test
    void should_give_up_nothing_when_the_store_goes_down_in_the_middle_of_a_pass() throws Exception {
        FlakyEmbeddingStore copies = new FlakyEmbeddingStore().refusing("alice7");
        JdbcCrystalStore store = open(copies);
        // refused in the first pass, so alone in its batch and tried with pauses: the store goes down meanwhile
        store.add(crystals("alice", 20));
        await("a refusal", () -> copies.refusals("alice7") > 0);
        copies.down(true);
        await("the pass given up", () -> copies.failedCalls() > 0);
        Thread.sleep(2_000); // the pauses of the refused entry's tries have passed

        assertThat(log.lines("WARN")).filteredOn(line -> line.contains("refused the copies")).isEmpty();
        assertThat(database.copiesPending()).as("down, not refusing").isPositive();
        copies.down(false);
        await("the others copied", () -> copies.crystalIds().size() == 19 && database.copiesPending() == 0);
    }

    @Test
    void should_not_copy_into_a_store_configured_later_the_vectors_made_without_one() throws Exception {
        JdbcCrystalStore without = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.hashing()).build();
        stores.add(without);
        without.add(crystals("alice", 10));
        database.awaitVectors(10);
        without.close();

        FlakyEmbeddingStore copies = new FlakyEmbeddingStore();
        open(copies).add(List.of(crystal("alice", "later")));

        await("the new one copied", () -> copies.crystalIds().contains("later"));
        assertThat(copies.crystalIds()).containsExactly("later");
        assertThat(database.copiesPending()).isZero();
    }

    @Test
    void should_count_the_vectors_of_a_version_6_database_as_copied() throws Exception {
        Schema.migrate(new Database(database.dataSource()), 6);
        // a crystal with its vector, as version 6 wrote it (its copy made then, or no store configured), of the model
        // the instances embed with
        database.execute("INSERT INTO wm_vector_model (id, name) VALUES (1, '"
                + VectorModel.nameOf(TestEmbeddingModels.hashing()) + "')");
        database.execute("INSERT INTO wm_crystal (id_hash, id, scope_hash, scope, kind, time, importance, tags, text,"
                + " revision, embedded_revision, vector, change) VALUES (sha256('old'::bytea), 'old'::bytea,"
                + " sha256('alice'::bytea), 'alice'::bytea, 'turn', '2026-03-12T14:30:00Z', 0.5, '[]'::bytea,"
                + " 'Turn old'::bytea, nextval('wm_crystal_revision'), currval('wm_crystal_revision'), '\\x"
                + HexFormat.of().formatHex(CrystalTable.encode(TestEmbeddingModels.hashing().embed("Turn old")
                .content().vector())) + "'::bytea, 1)");

        FlakyEmbeddingStore copies = new FlakyEmbeddingStore();
        JdbcCrystalStore store = open(copies);
        store.add(List.of(crystal("alice", "later")));

        await("the new one copied", () -> copies.crystalIds().contains("later"));
        assertThat(copies.crystalIds()).containsExactly("later");
        assertThat(database.copiesPending()).isZero();
        store.delete("alice", List.of("old")); // its removal is recorded and done like any other
        assertThat(database.copyRemovalsPending()).isZero();
    }

    @Test
    void should_copy_each_vector_once_when_two_instances_catch_up_after_an_outage() throws Exception {
        FlakyEmbeddingStore copies = new FlakyEmbeddingStore().down(true);
        JdbcCrystalStore first = open(copies);
        JdbcCrystalStore second = open(copies);
        first.add(crystals("alice", 200));
        second.add(crystals("bob", 200));
        database.awaitVectors(400);
        await("the copies tried", () -> copies.failedCalls() > 0 && database.copiesPending() == 400);

        copies.down(false);

        await("400 copies", () -> copies.crystalIds().size() == 400 && database.copiesPending() == 0);
        assertThat(copies.adds()).hasSize(400).allSatisfy((id, adds) -> assertThat(adds).as(id).isOne());
    }
}
