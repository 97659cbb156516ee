package dev.workingmemory.jdbc;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.HitScores;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static dev.workingmemory.crystal.CrystalStoreContract.background;
import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Two application instances, each with its own {@link JdbcCrystalStore} on one database: they share nothing in the
 * JVM but the test's embedding model's weights (each has its own model object and its own connection pool).
 */
class JdbcCrystalStoreInstancesTest extends DatabaseTest {

    private static final CrystalRanking VECTOR_ONLY = new CrystalRanking(0, 1, 0.5, 30);
    private static final String NO_WORD_IN_COMMON = "what is the cut-off date for moving our interface";

    private JdbcCrystalStore instance(EmbeddingModel model, CrystalRanking ranking) {
        return JdbcCrystalStore.builder().dataSource(database.dataSource()).embeddingModel(model).ranking(ranking)
                .build();
    }

    /** Waits until what the instance queued is written (other instances see it then). */
    static void written(JdbcCrystalStore instance) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (instance.pendingCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(instance.pendingCount()).as("crystals not written yet").isZero();
    }

    private static List<Crystal> withDeadline() {
        List<Crystal> crystals = new ArrayList<>(background("alice"));
        crystals.add(note("deadline", "alice", "Deadline for the API migration is March 20th"));
        return crystals;
    }

    @Test
    void should_find_by_meaning_what_another_instance_embedded_without_embedding_it_again() throws Exception {
        CountingEmbeddingModel modelA = new CountingEmbeddingModel(new AllMiniLmL6V2EmbeddingModel());
        CountingEmbeddingModel modelB = new CountingEmbeddingModel(new AllMiniLmL6V2EmbeddingModel());
        try (JdbcCrystalStore a = instance(modelA, CrystalRanking.defaults())) {
            a.add(withDeadline());
            database.awaitVectors(11); // by A's embedder, behind the add
            // B starts once they are stored: its embedder's start-up sweep would otherwise race A's for the rows
            try (JdbcCrystalStore b = instance(modelB, VECTOR_ONLY)) {
                assertThat(ids(b.search(new CrystalQuery("alice", NO_WORD_IN_COMMON, 3)))).contains("deadline");
            }
            assertThat(modelA.texts()).hasSize(11);
            assertThat(modelB.texts()).as("B embedded the query, no crystal").hasSize(1)
                    .allMatch(text -> !text.contains("Deadline"));
        }
    }

    @Test
    void should_embed_each_crystal_once_while_two_instances_run_embedders_on_one_table() throws Exception {
        CountingEmbeddingModel modelA = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        CountingEmbeddingModel modelB = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        try (JdbcCrystalStore a = instance(modelA, CrystalRanking.defaults());
             JdbcCrystalStore b = instance(modelB, CrystalRanking.defaults())) {
            for (int i = 0; i < 20; i++) {
                (i % 2 == 0 ? a : b).add(List.of(note("n" + i, "alice", "Note number " + i + " about the migration")));
            }
            database.awaitVectors(20);
        }
        List<String> embedded = new ArrayList<>(modelA.texts());
        embedded.addAll(modelB.texts());
        assertThat(embedded).as("by either instance, once").hasSize(20).doesNotHaveDuplicates();
        assertThat(database.vectorsStored()).isEqualTo(20);
    }

    @Test
    void should_never_embed_a_keywords_only_crystal_nor_claim_it_again() throws Exception {
        CountingEmbeddingModel modelA = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        CountingEmbeddingModel modelB = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        List<Crystal> crystals = new ArrayList<>(background("alice"));
        crystals.add(new Crystal("deadline", "alice", CrystalKind.TURN, Instant.parse("2026-03-12T14:30:00Z"), 0.5,
                List.of(Crystal.KEYWORDS_ONLY), "assistant: the API migration is due March 20th", null));
        try (JdbcCrystalStore a = instance(modelA, CrystalRanking.defaults())) {
            a.add(crystals);
            database.awaitVectors(10);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (database.awaitingEmbedding() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(database.awaitingEmbedding()).as("left to claim").isZero();
        }
        try (JdbcCrystalStore b = instance(modelB, CrystalRanking.defaults())) {
            assertThat(ids(b.search(new CrystalQuery("alice", "API migration March 20th", 3)))).contains("deadline");
            assertThat(ids(b.search(new CrystalQuery("alice", NO_WORD_IN_COMMON, 3)))).doesNotContain("deadline");
        }
        assertThat(modelA.texts()).hasSize(10).noneMatch(text -> text.contains("migration"));
        assertThat(modelB.texts()).as("the two queries only").hasSize(2);
        assertThat(database.vectorsStored()).isEqualTo(10);
    }

    @Test
    void should_find_by_keyword_what_another_instance_added_once_it_is_written() throws Exception {
        try (JdbcCrystalStore a = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults());
             JdbcCrystalStore keywordOnly = instance(TestEmbeddingModels.miniLm(), new CrystalRanking(1, 0, 0.5, 20))) {
            a.add(withDeadline());
            written(a);

            assertThat(ids(keywordOnly.search(new CrystalQuery("alice", "migration deadline", 3))))
                    .first().isEqualTo("deadline");
            assertThat(keywordOnly.count("alice")).isEqualTo(11);
        }
    }

    @Test
    void should_explain_its_hits_by_the_parts_of_their_scores_as_the_embedded_store_does() throws Exception {
        try (JdbcCrystalStore a = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults());
             JdbcCrystalStore b = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults());
             EmbeddedCrystalStore embedded = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm())
                     .build()) {
            a.add(withDeadline());
            embedded.add(withDeadline());
            database.awaitVectors(11);

            CrystalQuery query = new CrystalQuery("alice", "migration deadline", 3);
            CrystalHit hit = b.search(query).get(0);
            HitScores expected = embedded.search(query).get(0).scores();

            assertThat(hit.crystal().id()).isEqualTo("deadline");
            HitScores parts = hit.scores();
            assertThat(parts.fused()).isEqualTo(hit.score());
            assertThat(parts.keyword()).isPositive().isCloseTo(expected.keyword(), within(1e-4));
            assertThat(parts.keywordStandardized()).isCloseTo(expected.keywordStandardized(), within(0.03));
            assertThat(parts.vector()).isCloseTo(expected.vector(), within(0.01));
            assertThat(parts.vectorStandardized()).isCloseTo(expected.vectorStandardized(), within(0.05));
            assertThat(parts.fused()).isCloseTo(expected.fused(), within(0.05));
        }
    }

    @Test
    void should_keep_text_that_postgresql_text_columns_refuse_and_still_index_it() {
        try (JdbcCrystalStore store = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults())) {
            String text = "Quarterly \u0000 report with an unpaired surrogate \uD800 and 😀";
            Crystal crystal = new Crystal("c", "alice", CrystalKind.NOTE, Instant.parse("2026-03-12T14:30:00.123456Z"),
                    0.4, List.of("tag \u0000", "decision"), text, "source \uD800", "context \u0000 about revenue");
            store.add(List.of(crystal));

            assertThat(store.get("c")).contains(crystal);
            // a hit comes from the in-memory index, which keeps texts in WTF-8 as the embedded store's: exactly too
            assertThat(store.search(new CrystalQuery("alice", "quarterly", 1))).extracting(CrystalHit::crystal)
                    .containsExactly(crystal);
            assertThat(ids(store.search(new CrystalQuery("alice", "revenue", 1)))).as("context is searched")
                    .containsExactly("c");
        }
    }

    @Test
    void should_embed_for_a_search_what_an_instance_that_could_not_embed_left_behind() throws Exception {
        CountingEmbeddingModel down = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        down.failing(true);
        try (JdbcCrystalStore a = instance(down, CrystalRanking.defaults())) {
            a.add(withDeadline());
        }
        assertThat(database.vectorsStored()).isZero();

        try (JdbcCrystalStore b = instance(TestEmbeddingModels.miniLm(), VECTOR_ONLY)) {
            assertThat(ids(b.search(new CrystalQuery("alice", NO_WORD_IN_COMMON, 3)))).contains("deadline");
            assertThat(database.vectorsStored()).isEqualTo(11);
        }
    }

    @Test
    void should_see_what_other_instances_replaced_deleted_and_added_since_its_last_search() throws Exception {
        try (JdbcCrystalStore a = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults());
             JdbcCrystalStore b = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults())) {
            a.add(background("alice"));
            a.add(List.of(note("release", "alice", "The release is planned for Friday")));
            assertThat(ids(a.search(new CrystalQuery("alice", "release Friday", 1)))).containsExactly("release");

            b.add(List.of(note("release", "alice", "The release moved to Monday because of the holiday"),
                    note("mug", "alice", "The blue mug with the cracked handle belongs to Douglas")));
            b.delete("alice", List.of("alice-bg-5"));
            b.add(List.of(note("alice-bg-7", "bob", "Bob reads The Left Hand of Darkness"))); // moves to bob
            written(b);

            assertThat(a.search(new CrystalQuery("alice", "release day", 1))).extracting(hit -> hit.crystal().text())
                    .containsExactly("The release moved to Monday because of the holiday");
            assertThat(ids(a.search(new CrystalQuery("alice", "cracked mug handle", 1)))).containsExactly("mug");
            assertThat(ids(a.search(new CrystalQuery("alice", "cat Pixel vacuum cleaner favourite book", 20))))
                    .doesNotContain("alice-bg-5", "alice-bg-7");
            assertThat(ids(a.search(new CrystalQuery("bob", "Left Hand of Darkness", 1)))).containsExactly("alice-bg-7");
            assertThat(a.cacheState().scopes()).containsExactlyInAnyOrder("alice", "bob");
        }
    }

    @Test
    void should_load_a_scope_whole_again_after_more_removals_than_are_remembered() {
        List<Crystal> crystals = IntStream.range(0, CrystalTable.MAX_REMOVED + 20)
                .mapToObj(i -> note("n" + i, "alice", "Note number " + i + " about the garden plot " + i)).toList();
        try (JdbcCrystalStore a = instance(TestEmbeddingModels.hashing(), CrystalRanking.defaults());
             JdbcCrystalStore b = instance(TestEmbeddingModels.hashing(), CrystalRanking.defaults())) {
            a.add(crystals);
            assertThat(ids(a.search(new CrystalQuery("alice", "garden plot 7", 1)))).containsExactly("n7");

            b.delete("alice", crystals.subList(0, CrystalTable.MAX_REMOVED + 10).stream().map(Crystal::id).toList());

            assertThat(ids(a.search(new CrystalQuery("alice", "garden plot", 100))))
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(CrystalTable.MAX_REMOVED + 10,
                            CrystalTable.MAX_REMOVED + 20).mapToObj(i -> "n" + i).toList());
        }
    }

    @Test
    void should_copy_vectors_into_the_applications_embedding_store_and_rank_as_without_it() throws Exception {
        InMemoryEmbeddingStore<TextSegment> copies = new InMemoryEmbeddingStore<>();
        List<String> questions = List.of(NO_WORD_IN_COMMON, "migration deadline", "what pet does Douglas have",
                "where does the user live", "editor settings");
        try (JdbcCrystalStore withCopies = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.miniLm()).embeddingStore(copies).build()) {
            withCopies.add(withDeadline());
            database.awaitVectors(11);
            database.awaitCopies(); // made behind the vectors, by the same thread
            List<List<CrystalHit>> ranked = questions.stream()
                    .map(question -> withCopies.search(new CrystalQuery("alice", question, 5))).toList();
            try (JdbcCrystalStore without = instance(TestEmbeddingModels.miniLm(), CrystalRanking.defaults())) {
                for (int i = 0; i < questions.size(); i++) {
                    assertThat(without.search(new CrystalQuery("alice", questions.get(i), 5)))
                            .as(questions.get(i)).isEqualTo(ranked.get(i));
                }
            }
            assertThat(copies.search(EmbeddingSearchRequest.builder().maxResults(100)
                    .queryEmbedding(TestEmbeddingModels.miniLm().embed("migration").content()).build()).matches())
                    .hasSize(11).allSatisfy(match -> assertThat(match.embedded().metadata().getString("scope"))
                            .isEqualTo("alice"));

            withCopies.delete("alice", List.of("deadline"));
            withCopies.deleteScope("alice");

            assertThat(copies.search(EmbeddingSearchRequest.builder().maxResults(100)
                    .queryEmbedding(TestEmbeddingModels.miniLm().embed("migration").content()).build()).matches())
                    .isEmpty();
        }
    }
}
