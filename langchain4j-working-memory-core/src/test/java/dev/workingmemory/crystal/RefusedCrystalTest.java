package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.internal.ConfinedFiles;
import dev.workingmemory.testing.CapturedLog;
import dev.workingmemory.testing.GatedEmbeddingModel;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.ScriptedEmbeddingModel;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;
import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A crystal the index refuses every time is left out with one ERROR, and holds back no one: the one indexer thread
 * every user's crystals pass through goes on, in the live batches and in what is read back from the records. So does
 * a crystal whose vector an application's embedding store refuses every time (a metadata check, a text too long for
 * its column, a constraint): it is indexed for keywords only, with one ERROR; a store unreachable for a while loses
 * no vector. And so does a crystal the embedding model refuses while it embeds others (too long for a remote model, a
 * content filter, a provider's 400), while a model that is down (a connection refused, for seconds or hours) costs no
 * crystal its vector: the indexer waits for it without spinning, a close records what waits, and a search answers
 * by keyword meanwhile. A model going down while it embeds texts one by one refuses nothing.
 *
 * <p>No Lucene refusal of a crystal's own document is left that {@link Crystal}'s checks let through (ids, scopes
 * and tags are bounded far below Lucene's 32,766-byte term, and the default analyzer cuts words at 255 characters).
 * The refusals used here: a time {@code Crystal} accepts and the index cannot hold (beyond the ±292,000 years of
 * its microseconds: refused while its document is built, a real input); Lucene's own immense-term refusal from
 * {@code IndexWriter.updateDocument}, through the store's package-private analyzer seam with an analyzer that keeps
 * long words whole (real Lucene, no mock); and Lucene refusing a vector of another dimension than its field's, from
 * an embedding model that returns one. An application's embedding store is LangChain4j's in-memory one behind a
 * wrapper that refuses chosen entries (before it adds any, as a store checking its input does) or every call.
 */
class RefusedCrystalTest {

    /** A time beyond what the index holds. */
    private static final Instant BEYOND = Instant.parse("+1000000-01-01T00:00:00Z");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final List<EmbeddedCrystalStore> stores = new ArrayList<>();
    private CapturedLog log;

    @BeforeEach
    void capture() {
        log = CapturedLog.start();
    }

    @AfterEach
    void close() {
        stores.forEach(EmbeddedCrystalStore::close);
        log.close();
    }

    private EmbeddedCrystalStore open(EmbeddedCrystalStore.Builder builder) {
        EmbeddedCrystalStore store = builder.readYourWritesTimeout(TIMEOUT).build();
        stores.add(store);
        return store;
    }

    private static EmbeddedCrystalStore.Builder builder() {
        return EmbeddedCrystalStore.builder().embeddingModel(new HashingEmbeddingModel());
    }

    private static Crystal beyond(String id, String scope) {
        return new Crystal(id, scope, CrystalKind.NOTE, BEYOND, 0.5, List.of(), "a note from far ahead", null);
    }

    /** The ERROR lines that name the crystal as refused. */
    private List<String> refusals(String id) {
        return log.lines("ERROR").stream().filter(line -> line.contains("refuses") && line.contains("'" + id + "'"))
                .toList();
    }

    /** Searches and checks the read did not wait its read-your-writes timeout. */
    private static List<String> search(CrystalStore store, String scope, String text) {
        long start = System.nanoTime();
        List<String> found = ids(store.search(new CrystalQuery(scope, text, 10)));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.dividedBy(2));
        return found;
    }

    private void assertNoReadTimedOut() {
        assertThat(log.lines("WARN")).noneMatch(line -> line.contains("are not all indexed"));
    }

    /** How many writes of a batch failed and are retried (a WARN each). */
    private long failedWrites() {
        return log.lines("WARN").stream().filter(line -> line.contains("Cannot index")).count();
    }

    @Test
    void should_index_the_rest_of_the_batch_and_every_later_crystal_of_every_scope() {
        EmbeddedCrystalStore store = open(builder());
        // one add: one batch for the indexer
        store.add(List.of(note("alice-1", "alice", "alice keeps bees on the roof"), beyond("alice-far", "alice"),
                note("bob-1", "bob", "bob repairs old bicycles"), note("carol-1", "carol", "carol sings in a choir")));

        assertThat(search(store, "alice", "bees on the roof")).containsExactly("alice-1");
        assertThat(search(store, "bob", "old bicycles")).containsExactly("bob-1");
        assertThat(search(store, "carol", "choir")).containsExactly("carol-1");
        store.add(List.of(note("alice-2", "alice", "alice bought a second beehive"),
                note("bob-2", "bob", "bob found a vintage frame"), note("carol-2", "carol", "carol learns the cello")));
        assertThat(search(store, "alice", "second beehive")).first().isEqualTo("alice-2");
        assertThat(search(store, "bob", "vintage frame")).first().isEqualTo("bob-2");
        assertThat(search(store, "carol", "cello")).first().isEqualTo("carol-2");

        assertThat(store.count("alice")).isEqualTo(2);
        assertThat(store.get("alice-far")).isEmpty();
        assertThat(store.pendingCount()).isZero();
        assertThat(refusals("alice-far")).singleElement().asString().contains("scope 'alice'", "ArithmeticException");
        assertNoReadTimedOut();
    }

    @Test
    void should_not_make_a_read_of_its_scope_wait_its_timeout() {
        EmbeddedCrystalStore store = open(builder());
        store.add(List.of(beyond("alice-far", "alice")));

        long start = System.nanoTime();
        assertThat(store.count("alice")).isZero();
        assertThat(store.recent("alice", Instant.EPOCH, 10)).isEmpty();
        assertThat(search(store, "alice", "a note from far ahead")).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.dividedBy(2));
        assertNoReadTimedOut();
        assertThat(refusals("alice-far")).hasSize(1);
    }

    @Test
    void should_leave_out_a_crystal_whose_term_lucene_refuses_and_index_the_others() {
        EmbeddedCrystalStore.Builder builder = builder();
        builder.analyzer = new LongWordAnalyzer();
        EmbeddedCrystalStore store = open(builder);
        String immense = "ä".repeat(17_000); // one word of 34,000 UTF-8 bytes: Lucene's limit is 32,766
        store.add(List.of(note("alice-1", "alice", "alice keeps bees"), note("alice-long", "alice", "see " + immense),
                note("bob-1", "bob", "bob repairs bicycles")));

        assertThat(search(store, "alice", "bees")).containsExactly("alice-1");
        assertThat(search(store, "bob", "bicycles")).containsExactly("bob-1");
        assertThat(refusals("alice-long")).singleElement().asString().contains("scope 'alice'", "immense term");
        assertNoReadTimedOut();
    }

    @Test
    void should_index_for_keywords_only_a_crystal_whose_vector_lucene_refuses() {
        EmbeddedCrystalStore store = open(builder().embeddingModel(new OddVectorModel("ragged")));
        store.add(List.of(note("alice-1", "alice", "alice keeps bees")));
        assertThat(store.count("alice")).isEqualTo(1); // the scope's vector field has its dimension now
        store.add(List.of(note("alice-2", "alice", "a ragged vector for the hive"),
                note("alice-3", "alice", "alice sells honey"), note("bob-1", "bob", "bob repairs bicycles")));

        assertThat(search(store, "alice", "hive")).contains("alice-2"); // by its words
        assertThat(search(store, "alice", "honey")).first().isEqualTo("alice-3");
        assertThat(search(store, "bob", "bicycles")).containsExactly("bob-1");
        assertThat(log.lines("ERROR")).filteredOn(line -> line.contains("'alice-2'")).singleElement().asString()
                .contains("refuses the vector", "keywords only");
        assertNoReadTimedOut();
    }

    @Test
    void should_log_it_once_and_stall_nothing_after_a_reopen_or_when_read_back_from_the_records(@TempDir Path dir)
            throws IOException {
        EmbeddedCrystalStore store = open(builder().directory(dir));
        store.add(List.of(note("alice-1", "alice", "alice keeps bees"), beyond("alice-far", "alice"),
                note("bob-1", "bob", "bob repairs bicycles")));
        assertThat(search(store, "alice", "bees")).containsExactly("alice-1");
        store.close();

        // reopened: the index holds the records as they are (the refused one is behind the scope's marker)
        store = open(builder().directory(dir));
        store.add(List.of(note("alice-2", "alice", "alice sells honey"), note("bob-2", "bob", "bob found a frame")));
        assertThat(search(store, "alice", "honey")).first().isEqualTo("alice-2");
        assertThat(search(store, "bob", "frame")).first().isEqualTo("bob-2");
        store.close();
        assertThat(refusals("alice-far")).hasSize(1);

        // the index rebuilt: every record is read back, the refused one too, and refused once more
        ConfinedFiles.deleteTree(dir.resolve("index"));
        store = open(builder().directory(dir));
        assertThat(search(store, "alice", "bees honey")).containsExactlyInAnyOrder("alice-1", "alice-2");
        assertThat(search(store, "bob", "bicycles frame")).containsExactlyInAnyOrder("bob-1", "bob-2");
        assertThat(store.pendingCount()).isZero();
        store.close();
        assertThat(refusals("alice-far")).hasSize(2);
        assertNoReadTimedOut();
    }

    @Test
    void should_refuse_a_crystal_deferred_to_the_records_once_and_index_the_others(@TempDir Path dir) {
        GatedEmbeddingModel model = new GatedEmbeddingModel();
        EmbeddedCrystalStore store = open(EmbeddedCrystalStore.builder().embeddingModel(model).directory(dir)
                .queueCapacity(2).batchSize(2));
        List<Crystal> crystals = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            crystals.add(note("alice-" + i, "alice", "alice note number " + i + " about bees"));
            crystals.add(note("bob-" + i, "bob", "bob note number " + i + " about bicycles"));
        }
        crystals.add(beyond("alice-far", "alice")); // beyond the queue's capacity: read back from the records
        crystals.add(note("alice-last", "alice", "the last note about honey"));
        store.add(crystals);
        assertThat(store.pendingCount()).isEqualTo(crystals.size());
        model.open();

        assertThat(search(store, "alice", "honey")).first().isEqualTo("alice-last");
        assertThat(store.count("alice")).isEqualTo(7);
        assertThat(store.count("bob")).isEqualTo(6);
        assertThat(store.pendingCount()).isZero();
        assertThat(refusals("alice-far")).hasSize(1);
        assertNoReadTimedOut();
    }

    @Test
    void should_retry_a_failure_that_is_not_a_refusal_until_the_crystal_is_indexed() {
        EmbeddedCrystalStore.Builder builder = builder();
        LongWordAnalyzer analyzer = new LongWordAnalyzer();
        analyzer.failures.set(3); // fails three times, then clears
        builder.analyzer = analyzer;
        EmbeddedCrystalStore store = open(builder);
        // in one batch after a crystal refused for good: the refusal must not carry the transient one away with it,
        // nor be written (and logged) again as the batch is retried
        store.add(List.of(beyond("alice-far", "alice"),
                note("alice-1", "alice", "alice keeps bees " + LongWordAnalyzer.FLAKY),
                note("bob-1", "bob", "bob repairs bicycles")));

        assertThat(search(store, "alice", "bees")).containsExactly("alice-1");
        assertThat(search(store, "bob", "bicycles")).containsExactly("bob-1");
        assertThat(analyzer.failures.get()).isNegative();
        assertThat(log.lines("WARN")).anyMatch(line -> line.contains("Cannot index") && line.contains("retrying"));
        assertThat(log.lines("ERROR")).noneMatch(line -> line.contains("'alice-1'"));
        assertThat(refusals("alice-far")).hasSize(1);
        assertNoReadTimedOut();
    }

    @Test
    void should_index_every_other_users_crystals_behind_an_entry_the_store_refuses_every_time() {
        RefusingStore vectors = new RefusingStore();
        vectors.refused.add("alice-bad");
        EmbeddedCrystalStore store = open(builder().embeddingStore(vectors));
        // one add: one batch for the indexer
        store.add(List.of(note("alice-1", "alice", "alice keeps bees on the roof"),
                note("alice-bad", "alice", "alice wrote a very long essay about lighthouses"),
                note("bob-1", "bob", "bob repairs old bicycles"), note("carol-1", "carol", "carol sings in a choir")));

        assertThat(search(store, "bob", "old bicycles")).containsExactly("bob-1");
        assertThat(search(store, "carol", "choir")).containsExactly("carol-1");
        assertThat(search(store, "alice", "bees on the roof")).first().isEqualTo("alice-1");
        assertThat(search(store, "alice", "lighthouses essay")).first().isEqualTo("alice-bad"); // by its words
        store.add(List.of(note("bob-2", "bob", "bob found a vintage frame"),
                note("carol-2", "carol", "carol learns the cello")));
        assertThat(search(store, "bob", "vintage frame")).first().isEqualTo("bob-2");
        assertThat(search(store, "carol", "cello")).first().isEqualTo("carol-2");

        assertThat(vectors.holds("alice-1", "bob-1", "carol-1", "bob-2", "carol-2")).isTrue();
        assertThat(vectors.held("alice-bad")).isZero();
        assertThat(store.count("alice")).isEqualTo(2);
        assertThat(store.pendingCount()).isZero();
        assertThat(log.lines("ERROR")).singleElement().asString()
                .contains("'alice-bad'", "scope 'alice'", RefusingStore.REFUSAL, "keywords only");
        assertNoReadTimedOut();
    }

    @Test
    void should_give_up_the_vector_of_an_entry_refused_alone_in_its_batch() {
        RefusingStore vectors = new RefusingStore();
        vectors.refused.add("alice-bad");
        EmbeddedCrystalStore store = open(builder().embeddingStore(vectors));
        store.add(List.of(note("alice-bad", "alice", "alice wrote a very long essay about lighthouses")));

        assertThat(store.count("alice")).isEqualTo(1);
        assertThat(search(store, "alice", "lighthouses")).containsExactly("alice-bad");
        store.add(List.of(note("bob-1", "bob", "bob repairs old bicycles")));
        assertThat(search(store, "bob", "bicycles")).containsExactly("bob-1");

        assertThat(vectors.holds("bob-1")).isTrue();
        assertThat(vectors.held("alice-bad")).isZero();
        assertThat(refusals("alice-bad")).singleElement().asString().contains("scope 'alice'", RefusingStore.REFUSAL);
        assertThat(log.lines("ERROR")).hasSize(1);
        assertNoReadTimedOut();
    }

    @Test
    void should_copy_the_rest_of_a_scope_whose_two_entries_the_store_refuses() {
        RefusingStore vectors = new RefusingStore();
        vectors.refused.addAll(Set.of("alice-bad-1", "alice-bad-2"));
        EmbeddedCrystalStore store = open(builder().embeddingStore(vectors));
        store.add(List.of(note("alice-1", "alice", "alice keeps bees"),
                note("alice-bad-1", "alice", "alice wrote about lighthouses"),
                note("alice-2", "alice", "alice sells honey"),
                note("alice-bad-2", "alice", "alice wrote about windmills"),
                note("alice-3", "alice", "alice plants lavender")));

        assertThat(search(store, "alice", "honey")).first().isEqualTo("alice-2");
        assertThat(search(store, "alice", "lighthouses")).first().isEqualTo("alice-bad-1");
        assertThat(search(store, "alice", "windmills")).first().isEqualTo("alice-bad-2");
        assertThat(store.count("alice")).isEqualTo(5);

        assertThat(vectors.holds("alice-1", "alice-2", "alice-3")).isTrue();
        assertThat(vectors.held("alice-bad-1")).isZero();
        assertThat(vectors.held("alice-bad-2")).isZero();
        assertThat(refusals("alice-bad-1")).hasSize(1);
        assertThat(refusals("alice-bad-2")).hasSize(1);
        assertThat(log.lines("ERROR")).hasSize(2);
        assertNoReadTimedOut();
    }

    @Test
    void should_lose_no_vector_while_the_store_is_unreachable() throws InterruptedException {
        RefusingStore vectors = new RefusingStore();
        vectors.unreachable = true;
        EmbeddedCrystalStore store = open(builder().embeddingStore(vectors));
        store.add(List.of(note("alice-1", "alice", "alice keeps bees"), note("alice-2", "alice", "alice sells honey"),
                note("bob-1", "bob", "bob repairs old bicycles")));
        // unreachable for as many writes of the batch (each failed one a WARN) as one entry is tried, unless its
        // vector is given up on before
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (failedWrites() < Retries.SINGLE_ATTEMPTS && log.lines("ERROR").isEmpty()
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        vectors.unreachable = false;
        assertThat(log.lines("ERROR")).isEmpty();
        assertThat(failedWrites()).isGreaterThanOrEqualTo(Retries.SINGLE_ATTEMPTS);

        assertThat(search(store, "alice", "honey")).first().isEqualTo("alice-2");
        assertThat(search(store, "bob", "bicycles")).containsExactly("bob-1");
        assertThat(vectors.holds("alice-1", "alice-2", "bob-1")).isTrue();
        assertThat(log.lines("ERROR")).isEmpty();
        assertNoReadTimedOut();
    }

    // ---- the embedding model: refusing a text, or down ----------------------------------------------------

    /** What the indexer logs for each round the embedding model embedded nothing in. */
    private static final String WAITING = "embeds no text";
    private static final String REFUSED_WORD = "lighthouses";
    private static final Crystal ALICE_1 = note("alice-1", "alice", "alice keeps bees on the roof");
    private static final Crystal ALICE_2 = note("alice-2", "alice", "alice sells honey at the market");
    private static final Crystal ALICE_3 = note("alice-3", "alice", "alice plants lavender in spring");
    private static final Crystal ALICE_BAD = note("alice-bad", "alice", "alice wrote a long essay about " + REFUSED_WORD);
    private static final Crystal BOB_1 = note("bob-1", "bob", "bob repairs old bicycles");
    private static final Crystal BOB_2 = note("bob-2", "bob", "bob found a vintage frame");

    private EmbeddedCrystalStore open(ScriptedEmbeddingModel model) {
        return open(EmbeddedCrystalStore.builder().embeddingModel(model));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.sleep(10);
        }
    }

    /** The rounds the indexer found the model down in (a WARN each). */
    private long roundsDown() {
        return log.lines("WARN").stream().filter(line -> line.contains(WAITING)).count();
    }

    /**
     * Waits until the indexer found the model down in {@code rounds} rounds, or gave a crystal up (an ERROR: what
     * the store did before, once a text had failed {@link Retries#SINGLE_ATTEMPTS} times, 1.75 s).
     */
    private void awaitRoundsDown(int rounds) throws InterruptedException {
        await(rounds + " rounds with the model down", () -> roundsDown() >= rounds || !log.lines("ERROR").isEmpty());
    }

    private static void awaitIndexed(CrystalStore store) throws InterruptedException {
        await("every crystal indexed", () -> store.pendingCount() == 0);
    }

    /**
     * The crystals of the scope that have a vector: a search lists every one of them in its vector list (far fewer
     * crystals than the list's 30 candidates), with its similarity; one without a vector has none (NaN).
     */
    private static List<String> withVectors(CrystalStore store, String scope) {
        return store.search(new CrystalQuery(scope, "anything at all", 10)).stream()
                .filter(hit -> !Double.isNaN(hit.scores().vector())).map(hit -> hit.crystal().id()).sorted().toList();
    }

    @Test
    void should_give_every_crystal_its_vector_when_the_model_comes_back_after_an_outage_longer_than_the_retries()
            throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        model.down(true);
        EmbeddedCrystalStore store = open(model);
        store.add(List.of(ALICE_1, ALICE_2, BOB_1));

        awaitRoundsDown(5); // pauses of 250, 500, 1,000 and 2,000 ms: beyond a text's 1.75 s of tries
        assertThat(log.lines("ERROR")).isEmpty();
        assertThat(store.pendingCount()).isEqualTo(3);
        model.down(false);

        awaitIndexed(store);
        assertThat(withVectors(store, "alice")).containsExactly("alice-1", "alice-2");
        assertThat(withVectors(store, "bob")).containsExactly("bob-1");
        assertThat(ids(store.search(new CrystalQuery("alice", "honey market", 3)))).first().isEqualTo("alice-2");
        assertThat(log.lines("ERROR")).isEmpty();
    }

    @Test
    void should_index_for_keywords_only_the_one_text_the_model_refuses_among_others() throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        model.refusing(REFUSED_WORD);
        EmbeddedCrystalStore store = open(model);
        // one add: one batch for the indexer, whose embedAll fails for the refused text
        store.add(List.of(ALICE_1, ALICE_BAD, ALICE_2, BOB_1));

        awaitIndexed(store);
        assertThat(withVectors(store, "alice")).containsExactly("alice-1", "alice-2");
        assertThat(withVectors(store, "bob")).containsExactly("bob-1");
        assertThat(ids(store.search(new CrystalQuery("alice", "essay", 3)))).first().isEqualTo("alice-bad");
        assertThat(log.lines("ERROR")).singleElement().asString()
                .contains("'alice-bad'", "scope 'alice'", ScriptedEmbeddingModel.REFUSAL, "keywords only");
        assertThat(roundsDown()).isZero();
    }

    @Test
    void should_hold_back_no_crystal_behind_a_text_refused_first_after_the_store_opened() throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        model.refusing(REFUSED_WORD);
        EmbeddedCrystalStore store = open(model);
        // alone in its batch, and no text embedded before it: the model is asked for a text of its own
        store.add(List.of(ALICE_BAD));
        assertThat(store.count("alice")).isEqualTo(1);
        store.add(List.of(BOB_1));

        awaitIndexed(store);
        assertThat(withVectors(store, "alice")).isEmpty();
        assertThat(withVectors(store, "bob")).containsExactly("bob-1");
        assertThat(log.lines("ERROR")).singleElement().asString().contains("'alice-bad'", "keywords only");
    }

    @Test
    void should_refuse_nothing_when_the_model_goes_down_while_it_embeds_texts_one_by_one()
            throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        model.refusing(REFUSED_WORD);
        // the batch fails for the refused text; the model embeds its check text and two texts alone, then is down
        model.downAfter(3);
        EmbeddedCrystalStore store = open(model);
        store.add(List.of(ALICE_1, ALICE_BAD, ALICE_2, ALICE_3, BOB_1));

        awaitRoundsDown(4);
        assertThat(log.lines("ERROR")).as("down, not refusing").isEmpty();
        assertThat(store.pendingCount()).isEqualTo(5);

        model.down(false);
        awaitIndexed(store);
        assertThat(withVectors(store, "alice")).containsExactly("alice-1", "alice-2", "alice-3");
        assertThat(withVectors(store, "bob")).containsExactly("bob-1");
        assertThat(log.lines("ERROR")).singleElement().asString().contains("'alice-bad'", "keywords only");
    }

    @Test
    void should_ask_the_model_twice_per_pause_while_it_is_down() throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        model.down(true);
        EmbeddedCrystalStore store = open(model);
        List<Crystal> crystals = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            crystals.add(note("alice-" + i, "alice", "alice note number " + i));
        }
        store.add(crystals);
        await("the first call", () -> model.calls() > 0);
        long start = System.nanoTime();

        Thread.sleep(3_000);
        int calls = model.calls();
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        // a round (the batch's call and one text's) starts at once, then after each pause that has passed, from 250
        // ms doubling: at most this many started in the time measured
        int rounds = 1;
        for (long pause = Retries.FIRST_PAUSE_MILLIS, paused = pause; paused <= elapsedMillis;
             pause = Retries.next(pause), paused += pause) {
            rounds++;
        }
        assertThat(calls).as("calls in %d ms", elapsedMillis).isLessThanOrEqualTo(2 * (rounds + 1));
        assertThat(model.downCalls()).isEqualTo(calls);
        assertThat(log.lines("ERROR")).isEmpty();
    }

    @Test
    void should_record_on_close_what_waits_for_the_model_and_index_it_with_vectors_after_the_next_open(
            @TempDir Path dir) throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        model.down(true);
        // batches of two: crystals wait behind the batch held back
        EmbeddedCrystalStore store = open(EmbeddedCrystalStore.builder().embeddingModel(model).directory(dir)
                .batchSize(2));
        store.add(List.of(ALICE_1, ALICE_2, BOB_1, ALICE_3, BOB_2));
        awaitRoundsDown(4);
        long start = System.nanoTime();
        store.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the close waits for no model")
                .isLessThan(TIMEOUT.dividedBy(2));

        model.down(false);
        store = open(EmbeddedCrystalStore.builder().embeddingModel(model).directory(dir).batchSize(2));
        assertThat(store.count("alice")).isEqualTo(3);
        assertThat(store.count("bob")).isEqualTo(2);
        assertThat(withVectors(store, "alice")).containsExactly("alice-1", "alice-2", "alice-3");
        assertThat(withVectors(store, "bob")).containsExactly("bob-1", "bob-2");
        assertThat(log.lines("ERROR")).isEmpty();
    }

    @Test
    void should_answer_a_search_by_keyword_at_once_while_the_model_is_down() throws InterruptedException {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        EmbeddedCrystalStore store = open(model);
        store.add(List.of(ALICE_1));
        assertThat(store.count("alice")).isEqualTo(1);
        model.down(true);
        store.add(List.of(ALICE_2));
        awaitRoundsDown(1);

        long start = System.nanoTime();
        List<CrystalHit> hits = store.search(new CrystalQuery("alice", "bees on the roof", 3));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no wait for what the model holds back")
                .isLessThan(TIMEOUT.dividedBy(2));
        assertThat(ids(hits)).first().isEqualTo("alice-1");
        assertThat(hits).allMatch(hit -> Double.isNaN(hit.scores().vector()), "ranked by keyword only");
        assertThat(log.lines("WARN")).anyMatch(line -> line.contains("Cannot embed a query of scope 'alice'")
                && line.contains("keyword only"));

        model.down(false);
        awaitIndexed(store);
        assertThat(withVectors(store, "alice")).containsExactly("alice-1", "alice-2");
    }

    @Test
    void should_search_a_scope_index_by_keyword_while_the_model_is_down() {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        try (ScopeIndex index = ScopeIndex.create("alice")) {
            index.update(List.of(new ScopeIndex.Entry(ALICE_1, model.embed(ALICE_1.textToIndex()).content()),
                    new ScopeIndex.Entry(ALICE_2, model.embed(ALICE_2.textToIndex()).content())), List.of());
            model.down(true);

            List<CrystalHit> hits = index.search(new CrystalQuery("alice", "honey market", 3), model,
                    CrystalRanking.defaults());
            assertThat(ids(hits)).first().isEqualTo("alice-2");
            assertThat(hits).allMatch(hit -> Double.isNaN(hit.scores().vector()), "ranked by keyword only");
        }
    }

    @Test
    void should_warn_once_a_minute_of_the_queries_a_down_model_fails() {
        ScriptedEmbeddingModel model = new ScriptedEmbeddingModel();
        try (ScopeIndex index = ScopeIndex.create("alice")) {
            index.update(List.of(new ScopeIndex.Entry(ALICE_1, model.embed(ALICE_1.textToIndex()).content())), List.of());
            model.down(true);

            for (int i = 0; i < 50; i++) {
                assertThat(index.search(new CrystalQuery("alice", "bees on the roof", 3), model,
                        CrystalRanking.defaults())).isNotEmpty();
            }
            assertThat(log.lines("WARN")).filteredOn(line -> line.contains("Cannot embed a query")).hasSize(1);
        }
    }

    /**
     * LangChain4j's {@link InMemoryEmbeddingStore}, refusing every add that holds an entry of a crystal in
     * {@link #refused} (before it adds any, as a store checking its input does), and failing every call while
     * {@link #unreachable}. Thread-safe.
     */
    static final class RefusingStore implements EmbeddingStore<TextSegment> {

        static final String REFUSAL = "value too long for column 'text'";

        private final InMemoryEmbeddingStore<TextSegment> entries = new InMemoryEmbeddingStore<>();
        final Set<String> refused = ConcurrentHashMap.newKeySet();
        volatile boolean unreachable;

        private void reach() {
            if (unreachable) {
                throw new IllegalStateException("connection refused");
            }
        }

        @Override
        public void addAll(List<String> ids, List<Embedding> embeddings, List<TextSegment> segments) {
            reach();
            for (TextSegment segment : segments) {
                if (refused.contains(segment.metadata().getString(CrystalWriter.CRYSTAL_ID))) {
                    throw new IllegalArgumentException(REFUSAL);
                }
            }
            entries.addAll(ids, embeddings, segments);
        }

        @Override
        public void removeAll(Collection<String> ids) {
            reach();
            entries.removeAll(ids);
        }

        @Override
        public void removeAll(Filter filter) {
            reach();
            entries.removeAll(filter);
        }

        @Override
        public EmbeddingSearchResult<TextSegment> search(EmbeddingSearchRequest request) {
            reach();
            return entries.search(request);
        }

        /** Whether it holds exactly one entry of each crystal. */
        boolean holds(String... crystalIds) {
            return Arrays.stream(crystalIds).allMatch(crystalId -> held(crystalId) == 1);
        }

        /** How many entries of the crystal it holds (read past {@link #unreachable}). */
        int held(String crystalId) {
            return entries.search(EmbeddingSearchRequest.builder()
                    .queryEmbedding(new HashingEmbeddingModel().embed("any").content())
                    .filter(metadataKey(CrystalWriter.CRYSTAL_ID).isEqualTo(crystalId))
                    .maxResults(10).minScore(0.0).build()).matches().size();
        }

        @Override
        public String add(Embedding embedding) {
            throw new UnsupportedOperationException("the crystal store adds entries under its own ids");
        }

        @Override
        public void add(String id, Embedding embedding) {
            throw new UnsupportedOperationException("the crystal store adds entries with their segments");
        }

        @Override
        public String add(Embedding embedding, TextSegment segment) {
            throw new UnsupportedOperationException("the crystal store adds entries under its own ids");
        }

        @Override
        public List<String> addAll(List<Embedding> embeddings) {
            throw new UnsupportedOperationException("the crystal store adds entries under its own ids");
        }
    }

    /**
     * Lower-cased words, kept whole however long (the default analyzer cuts them at 255 characters); the word
     * {@value #FLAKY} fails to be read while {@link #failures} is positive, as a transient failure (not a refusal).
     */
    static final class LongWordAnalyzer extends Analyzer {

        static final String FLAKY = "flakyword";
        final AtomicInteger failures = new AtomicInteger();

        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            StandardTokenizer tokenizer = new StandardTokenizer();
            tokenizer.setMaxTokenLength(StandardTokenizer.MAX_TOKEN_LENGTH_LIMIT);
            TokenStream stream = new TokenFilter(new LowerCaseFilter(tokenizer)) {
                private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

                @Override
                public boolean incrementToken() throws IOException {
                    if (!input.incrementToken()) {
                        return false;
                    }
                    if (FLAKY.contentEquals(term) && failures.getAndDecrement() > 0) {
                        throw new UncheckedIOException(new IOException("the disk is busy"));
                    }
                    return true;
                }
            };
            return new TokenStreamComponents(tokenizer, stream);
        }
    }

    /** Hashed words, but a vector of 3 dimensions (its field's have 64) for a text with the marker word. */
    static final class OddVectorModel implements EmbeddingModel {

        private final EmbeddingModel model = new HashingEmbeddingModel();
        private final String marker;

        OddVectorModel(String marker) {
            this.marker = marker;
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            List<Embedding> embeddings = new ArrayList<>(model.embedAll(segments).content());
            for (int i = 0; i < segments.size(); i++) {
                if (segments.get(i).text().contains(marker)) {
                    embeddings.set(i, Embedding.from(new float[]{0.6f, 0.8f, 0}));
                }
            }
            return Response.from(embeddings);
        }

        @Override
        public int dimension() {
            return 64;
        }
    }
}
