package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.testing.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static dev.workingmemory.crystal.CrystalStoreContract.background;
import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static dev.workingmemory.crystal.CrystalStoreContract.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ScopeIndexTest {

    private static final EmbeddingModel MODEL = TestEmbeddingModels.miniLm();
    /**
     * How far a fused score may be from the embedded store's: both score the floats (the embedded store's graph walks
     * quantized copies, then scores what it found by the floats), so only float arithmetic in another order differs.
     */
    private static final double SAME = 1e-4;

    private final ScopeIndex index = ScopeIndex.create("alice");

    @AfterEach
    void close() {
        index.close();
    }

    private static ScopeIndex.Entry embedded(Crystal crystal) {
        return new ScopeIndex.Entry(crystal, MODEL.embed(crystal.textToIndex()).content());
    }

    private void put(List<Crystal> crystals) {
        index.update(crystals.stream().map(ScopeIndexTest::embedded).toList(), List.of());
    }

    private List<String> search(String text, int limit) {
        return ids(index.search(new CrystalQuery("alice", text, limit), MODEL, CrystalRanking.defaults()));
    }

    /** Past turns of a chat about one's week, with their neighbours as context, as the provider makes them. */
    private static List<Crystal> conversation() {
        String[] turns = {
                "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
                "Melanie: I'm painting a lake sunrise, it's my way of relaxing after work.",
                "Caroline: I'm thinking of going into counseling or mental health work.",
                "Melanie: We went camping at the beach with the kids last weekend.",
                "Caroline: My friends from the adoption agency interview said it went well.",
                "Melanie: I ran a charity race for mental health on Saturday.",
                "Caroline: I'm reading 'Becoming Nicole', a book a friend recommended.",
                "Melanie: The pottery class made me a bowl with my kids' names.",
                "Caroline: I gave a speech at the school about my transgender journey.",
                "Melanie: We took the kids to the museum to see the dinosaur exhibit."};
        List<Crystal> crystals = new ArrayList<>();
        for (int i = 0; i < turns.length; i++) {
            String context = (i > 0 ? turns[i - 1] : "") + (i + 1 < turns.length ? "\n" + turns[i + 1] : "");
            crystals.add(new Crystal("turn-" + i, "alice", CrystalKind.TURN, CrystalStoreContract.T0.plusSeconds(60L * i),
                    0.5, List.of(), turns[i], null, context.isBlank() ? null : context.strip()));
        }
        crystals.addAll(background("alice"));
        return crystals;
    }

    private static Map<String, Double> scores(List<CrystalHit> hits) {
        Map<String, Double> scores = new LinkedHashMap<>();
        hits.forEach(hit -> scores.put(hit.crystal().id(), hit.score()));
        return scores;
    }

    @Test
    void should_rank_as_the_embedded_store_ranks_the_same_crystals() {
        List<String> questions = List.of("When did Caroline go to the support group?", "What does Melanie paint?",
                "Where did Melanie camp with her kids?", "What book is Caroline reading?",
                "What career is Caroline considering?", "Which race did Melanie run?", "what did the kids see",
                "Who is afraid of the vacuum cleaner?", "port of the staging server");
        List<Crystal> crystals = conversation();
        put(crystals);
        try (EmbeddedCrystalStore embedded = EmbeddedCrystalStore.builder().embeddingModel(MODEL).build()) {
            embedded.add(crystals);
            for (String question : questions) {
                // the same hits in the same order, with the same fused scores
                Map<String, Double> expected = scores(embedded.search(new CrystalQuery("alice", question, 5)));
                Map<String, Double> actual = scores(index.search(new CrystalQuery("alice", question, 5), MODEL,
                        CrystalRanking.defaults()));
                assertThat(List.copyOf(actual.keySet())).as(question).isEqualTo(List.copyOf(expected.keySet()));
                expected.forEach((id, score) ->
                        assertThat(actual.get(id)).as(question + ": " + id).isCloseTo(score, within(SAME)));
            }
        }
    }

    @Test
    void should_explain_each_hit_by_the_parts_of_its_score_as_the_embedded_store_does() {
        List<Crystal> crystals = conversation();
        put(crystals);
        try (EmbeddedCrystalStore embedded = EmbeddedCrystalStore.builder().embeddingModel(MODEL).build()) {
            embedded.add(crystals);
            for (String question : List.of("Where did Melanie camp with her kids?", "What book is Caroline reading?",
                    "port of the staging server")) {
                Map<String, HitScores> expected = new LinkedHashMap<>();
                embedded.search(new CrystalQuery("alice", question, 5))
                        .forEach(hit -> expected.put(hit.crystal().id(), hit.scores()));
                List<CrystalHit> hits = index.search(new CrystalQuery("alice", question, 5), MODEL,
                        CrystalRanking.defaults());
                assertThat(hits).as(question).isNotEmpty();
                for (CrystalHit hit : hits) {
                    HitScores parts = hit.scores();
                    assertThat(parts.fused()).isEqualTo(hit.score());
                    assertThat(parts.vector()).as("every crystal has a vector here").isNotNaN();
                    assertThat(parts.keywordStandardized()).isNotNaN();
                    assertThat(parts.vectorStandardized()).isNotNaN();
                    HitScores same = expected.get(hit.crystal().id());
                    if (same == null) {
                        continue;
                    }
                    String what = question + ": " + hit.crystal().id();
                    // the same keyword index: the same BM25; the same floats scored
                    if (Double.isNaN(same.keyword())) {
                        assertThat(parts.keyword()).as(what).isNaN();
                    } else {
                        assertThat(parts.keyword()).as(what).isCloseTo(same.keyword(), within(1e-4));
                        assertThat(parts.context()).as(what).isCloseTo(same.context(), within(1e-4));
                    }
                    assertThat(parts.keywordStandardized()).as(what).isCloseTo(same.keywordStandardized(), within(1e-4));
                    if (!Double.isNaN(same.vector())) {
                        assertThat(parts.vector()).as(what).isCloseTo(same.vector(), within(1e-5));
                    }
                    assertThat(parts.fused()).as(what).isCloseTo(same.fused(), within(SAME));
                }
            }
        }
    }

    @Test
    void should_find_a_crystal_by_meaning_with_no_word_in_common_with_the_query() {
        put(background("alice"));
        put(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));

        assertThat(search("what is the cut-off date for moving our interface", 3)).contains("deadline");
    }

    @Test
    void should_find_by_keyword_a_crystal_without_a_vector_and_by_meaning_once_it_has_one() {
        put(background("alice"));
        Crystal deadline = note("deadline", "alice", "Deadline for the API migration is March 20th");
        index.update(List.of(new ScopeIndex.Entry(deadline, null)), List.of());

        assertThat(index.vectorCount()).isEqualTo(10);
        assertThat(search("migration deadline", 3)).as("found by keyword").contains("deadline");
        assertThat(new CrystalRanking(0, 1, 0.5, 30)).satisfies(vectorOnly -> assertThat(ids(index.search(
                new CrystalQuery("alice", "cut-off date for moving the interface", 3), MODEL, vectorOnly)))
                .doesNotContain("deadline"));

        put(List.of(deadline));

        assertThat(index.vectorCount()).isEqualTo(11);
        assertThat(ids(index.search(new CrystalQuery("alice", "cut-off date for moving the interface", 3), MODEL,
                new CrystalRanking(0, 1, 0.5, 30)))).contains("deadline");
    }

    @Test
    void should_replace_a_crystal_and_remove_crystals_with_their_vectors() {
        put(background("alice"));
        put(List.of(note("n1", "alice", "The release is planned for Friday")));
        put(List.of(note("n1", "alice", "The release moved to Monday because of the holiday")));

        assertThat(index.size()).isEqualTo(11);
        assertThat(index.search(new CrystalQuery("alice", "release day", 1), MODEL, CrystalRanking.defaults()))
                .extracting(hit -> hit.crystal().text()).containsExactly("The release moved to Monday because of the holiday");

        index.update(List.of(), List.of("n1", "alice-bg-0", "absent"));

        assertThat(index.size()).isEqualTo(9);
        assertThat(index.vectorCount()).isEqualTo(9);
        assertThat(search("release Monday holiday tabs spaces", 20)).doesNotContain("n1", "alice-bg-0");
    }

    @Test
    void should_search_only_the_kinds_asked_for() {
        put(List.of(note("n", "alice", "Kubernetes upgrade planned for May"),
                turn("t", "alice", 1, "Kubernetes upgrade went fine in the test cluster")));

        assertThat(ids(index.search(new CrystalQuery("alice", "Kubernetes upgrade", 5, Set.of(CrystalKind.TURN)), MODEL,
                CrystalRanking.defaults()))).containsExactly("t");
        assertThat(ids(index.search(new CrystalQuery("alice", "container orchestration", 5, Set.of(CrystalKind.TURN)),
                MODEL, new CrystalRanking(0, 1, 0.5, 30)))).containsExactly("t");
    }

    @Test
    void should_give_keywords_that_find_the_crystal_again() {
        put(background("alice"));
        put(List.of(note("cors", "alice", "We spent 3 hours debugging a CORS error on the P2P bridge")));

        List<String> keywords = index.keywords("cors", 3);

        assertThat(keywords).hasSize(3).doesNotContain("on", "the", "a");
        assertThat(search(String.join(" ", keywords), 1)).containsExactly("cors");
        assertThat(index.keywords("absent", 3)).isEmpty();
    }

    @Test
    void should_report_the_heap_it_takes_growing_with_its_crystals() {
        long empty = index.ramBytesUsed();
        put(IntStream.range(0, 50).mapToObj(i -> turn("t" + i, "alice", i, "Turn number " + i
                + " is about the colour " + i * 7 + " of the autumn leaves in the park")).toList());

        assertThat(empty).isPositive();
        assertThat(index.ramBytesUsed()).isGreaterThan(empty + 50L * 384 * 4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bob", "alice "})
    void should_refuse_a_crystal_or_a_query_of_another_scope(String scope) {
        assertThatThrownBy(() -> index.update(List.of(embedded(note("x", scope, "text"))), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not of this index's 'alice'");
        assertThatThrownBy(() -> index.search(new CrystalQuery(scope, "text", 1), MODEL, CrystalRanking.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not of this index's 'alice'");
    }

    @Test
    void should_refuse_vectors_of_another_dimension() {
        put(List.of(note("a", "alice", "Some text")));

        assertThatThrownBy(() -> index.update(List.of(new ScopeIndex.Entry(note("b", "alice", "Other"),
                Embedding.from(new float[] {1, 0, 0}))), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 dimensions among vectors of 384");
    }

    @Test
    void should_leave_out_a_crystal_the_index_refuses_with_one_error_and_add_the_others() {
        Crystal honey = note("honey", "alice", "Alice sells honey at the market");
        put(List.of(honey));
        // a time Crystal accepts and the index cannot hold (beyond the ±292,000 years of its microseconds)
        Crystal beyond = new Crystal("honey", "alice", CrystalKind.NOTE, Instant.parse("+1000000-01-01T00:00:00Z"), 0.5,
                List.of(), "Alice sells honey far ahead", null);
        try (CapturedLog log = CapturedLog.start()) {
            put(List.of(note("bees", "alice", "Alice keeps bees on the roof"), beyond,
                    note("hive", "alice", "A second hive arrives in May")));

            assertThat(log.lines("ERROR")).singleElement().asString().contains("'honey'", "'alice'", "refuses");
        }
        assertThat(search("bees on the roof", 5)).first().isEqualTo("bees");
        assertThat(search("second hive", 5)).first().isEqualTo("hive");
        assertThat(search("honey at the market", 5)).doesNotContain("honey"); // replaced by the refused one: gone
    }
}
