package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.testing.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A crystal the embedding model refuses every time (too long for a remote model, a content filter, a provider's 400)
 * must not leave its batch-mates without vectors, in the background or for a search; it is kept for keywords only, with
 * one ERROR. A model that is down for everything marks nothing so.
 */
class RefusedCrystalTest extends DatabaseTest {

    private static final String MARKER = "REFUSEDMARK";
    /** The refused crystal: in the first batch of 16, with crystals before and after it. */
    private static final int REFUSED = 7;
    private static final String REFUSED_ID = "c" + REFUSED;

    private CapturedLog log;
    private JdbcCrystalStore store;

    @BeforeEach
    void captureLog() {
        log = CapturedLog.start();
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (log != null) { // null when skipped: no database
            log.close();
        }
    }

    private JdbcCrystalStore open(CountingEmbeddingModel model) {
        store = JdbcCrystalStore.builder().dataSource(database.dataSource()).embeddingModel(model).build();
        return store;
    }

    private static CountingEmbeddingModel model() {
        return new CountingEmbeddingModel(TestEmbeddingModels.hashing());
    }

    /** Twenty crystals of alice, the one at {@code marked} (if any) holding {@code marker}. */
    private static List<Crystal> crystals(int marked, String marker) {
        return IntStream.range(0, 20).mapToObj(i -> new Crystal("c" + i, "alice", CrystalKind.TURN,
                Instant.parse("2026-03-12T14:30:00Z").plusSeconds(i), 0.5, List.of(),
                "Turn " + i + " mentions token" + i + "x" + (i == marked ? " " + marker : ""), null)).toList();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.sleep(20);
        }
    }

    private List<String> refusedErrors() {
        return log.lines("ERROR").stream().filter(line -> line.contains("refused crystal")).toList();
    }

    private static List<String> ids(List<CrystalHit> hits) {
        return hits.stream().map(hit -> hit.crystal().id()).toList();
    }

    @Test
    void should_embed_the_batch_mates_of_a_refused_crystal_in_the_first_pass_and_keep_it_for_keywords()
            throws Exception {
        CountingEmbeddingModel model = model();
        model.refusing(MARKER);
        open(model).add(crystals(REFUSED, MARKER));

        // the background's first pass: the batch's rows stay claimed for two minutes after a failed pass
        database.awaitVectors(19);
        await("the refused crystal marked", () -> database.keywordsOnly().equals(List.of(REFUSED_ID))
                && !refusedErrors().isEmpty());
        assertThat(database.awaitingEmbedding()).as("claimed again by no instance").isZero();
        assertThat(refusedErrors()).singleElement().asString().contains("'" + REFUSED_ID + "'", "'alice'");

        int refusals = model.refusals();
        assertThat(ids(store.search(new CrystalQuery("alice", "token" + REFUSED + "x", 3)))).as("found by keyword")
                .contains(REFUSED_ID);
        assertThat(model.refusals()).as("the search does not try it again").isEqualTo(refusals);
        assertThat(log.lines("ERROR")).hasSize(1);
    }

    @Test
    void should_embed_for_a_search_the_batch_mates_of_a_refused_crystal() throws Exception {
        CountingEmbeddingModel model = model();
        model.refusing(MARKER);
        model.failing(true);
        open(model).add(crystals(REFUSED, MARKER));
        // the background failed on them all and holds them claimed: what follows is the search's doing
        await("the background's claim", () -> database.claimedForEmbedding() == 20 && model.downCalls() > 0);
        model.failing(false);

        assertThat(ids(store.search(new CrystalQuery("alice", "token" + REFUSED + "x", 3)))).as("found by keyword")
                .contains(REFUSED_ID);

        assertThat(database.vectorsStored()).isEqualTo(19);
        assertThat(database.keywordsOnly()).containsExactly(REFUSED_ID);
        assertThat(refusedErrors()).singleElement().asString().contains("'" + REFUSED_ID + "'", "'alice'");
    }

    @Test
    void should_mark_nothing_keywords_only_while_the_model_is_down_and_embed_everything_after() throws Exception {
        CountingEmbeddingModel model = model();
        model.failing(true);
        open(model).add(crystals(-1, MARKER));
        await("the background's failed pass", () -> database.claimedForEmbedding() == 20 && model.downCalls() > 0
                && log.text().contains("Cannot embed crystals now"));
        store.search(new CrystalQuery("alice", "token3x", 3)); // and a search's, down too

        assertThat(database.keywordsOnly()).isEmpty();
        assertThat(database.awaitingEmbedding()).isEqualTo(20);

        model.failing(false);
        assertThat(ids(store.search(new CrystalQuery("alice", "token3x", 3)))).first().isEqualTo("c3");
        assertThat(database.vectorsStored()).isEqualTo(20);
        assertThat(database.keywordsOnly()).isEmpty();
        assertThat(log.lines("ERROR")).isEmpty();
    }

    @Test
    void should_refuse_nothing_when_the_model_goes_down_while_it_tries_a_text_alone() throws Exception {
        CountingEmbeddingModel model = model();
        model.refusing(MARKER);
        model.downAfter(15); // the 15 batch-mates of the refused crystal, alone: then down
        open(model).add(crystals(REFUSED, MARKER));
        database.awaitVectors(15);
        await("the pass given up", () -> log.text().contains("Cannot embed crystals now"));
        assertThat(database.keywordsOnly()).as("down, not refusing").isEmpty();

        model.failing(false);
        store.search(new CrystalQuery("alice", "token3x", 3));
        assertThat(database.vectorsStored()).isEqualTo(19);
        assertThat(database.keywordsOnly()).containsExactly(REFUSED_ID);
        assertThat(refusedErrors()).singleElement().asString().contains("'" + REFUSED_ID + "'");
    }
}
