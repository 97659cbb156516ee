package dev.workingmemory.crystal;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.filter.Filter;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LuceneEmbeddingStoreTest {

    private CrystalIndex index;
    private LuceneEmbeddingStore store;

    @BeforeEach
    void open() throws IOException {
        index = CrystalIndex.open(null, new StandardAnalyzer());
        store = new LuceneEmbeddingStore(index.writer(), index.searchers(), "scope");
    }

    @AfterEach
    void close() throws IOException {
        index.close();
    }

    private static Embedding vector(float... values) {
        return Embedding.from(values);
    }

    private static TextSegment segment(String text, String scope, String kind) {
        return TextSegment.from(text, new Metadata().put("scope", scope).put("kind", kind));
    }

    private List<EmbeddingMatch<TextSegment>> search(Embedding query, int max, Filter filter) throws IOException {
        index.refresh();
        return store.search(EmbeddingSearchRequest.builder().queryEmbedding(query).maxResults(max).filter(filter)
                .build()).matches();
    }

    private static List<String> texts(List<EmbeddingMatch<TextSegment>> matches) {
        return matches.stream().map(match -> match.embedded().text()).toList();
    }

    @Test
    void should_return_nearest_entries_with_their_segment_embedding_and_cosine_relevance() throws IOException {
        store.addAll(List.of("1", "2"), List.of(vector(1, 0, 0), vector(0, 1, 0)),
                List.of(segment("x axis", "a", "note"), segment("y axis", "a", "turn")));

        List<EmbeddingMatch<TextSegment>> matches = search(vector(1, 0.2f, 0), 2, null);

        assertThat(texts(matches)).containsExactly("x axis", "y axis");
        EmbeddingMatch<TextSegment> best = matches.get(0);
        assertThat(best.embeddingId()).isEqualTo("1");
        assertThat(best.embedding().vector()).containsExactly(1, 0, 0);
        double cosine = 1 / Math.sqrt(1.04);
        assertThat(best.score()).isCloseTo((1 + cosine) / 2, within(1e-6)); // the graph's quantized copies not
        assertThat(best.embedded().metadata().getString("scope")).isEqualTo("a");
    }

    @Test
    void should_score_and_order_its_hits_as_an_exact_scan_of_the_same_vectors_does() throws IOException {
        // PostgreSQL's store ranks by an exact scan (ScopeVectors), and the scope's sample is scored exactly: the
        // graph's hits must be on the same scale. Random vectors are the hardest case for the graph's quantized copies
        Random random = new Random(7);
        ScopeVectors scan = new ScopeVectors();
        List<String> ids = new ArrayList<>();
        List<Embedding> embeddings = new ArrayList<>();
        List<TextSegment> segments = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            float[] values = new float[384];
            for (int d = 0; d < values.length; d++) {
                values[d] = (float) random.nextGaussian();
            }
            ids.add("c-" + i);
            embeddings.add(vector(values));
            segments.add(segment("c " + i, "a", "turn"));
            scan.put(VectorKeys.of("c-" + i), CrystalKind.TURN, values);
        }
        store.addAll(ids, embeddings, segments);
        index.refresh();
        for (int q = 0; q < 5; q++) {
            float[] query = embeddings.get(random.nextInt(300)).vector().clone();
            for (int d = 0; d < query.length; d++) {
                query[d] += (float) random.nextGaussian();
            }
            List<RankFusion.Scored> exact = scan.nearest(query, 300, Set.of(), 0).top();
            List<RankFusion.Scored> found = store.searchIds(vector(query), 10, metadataKey("scope").isEqualTo("a"), 0)
                    .top();
            assertThat(found).hasSize(10);
            for (RankFusion.Scored hit : found) {
                RankFusion.Scored scanned = exact.stream().filter(e -> e.key() == hit.key()).findFirst().orElseThrow();
                assertThat(hit.score()).isCloseTo(scanned.score(), within(1e-5));
            }
            assertThat(found).extracting(RankFusion.Scored::score).isSortedAccordingTo(Comparator.reverseOrder());
            // the graph's search stays approximate, but not far off: it finds one of the exact three best
            assertThat(found).extracting(RankFusion.Scored::key)
                    .containsAnyElementsOf(exact.subList(0, 3).stream().map(RankFusion.Scored::key).toList());
        }
    }

    @Test
    void should_give_back_metadata_with_its_types() throws IOException {
        UUID uuid = UUID.randomUUID();
        Metadata metadata = new Metadata().put("s", "text").put("i", 7).put("l", 8L).put("f", 1.5f).put("d", 2.5)
                .put("u", uuid);
        store.addAll(List.of("1"), List.of(vector(1, 0)), List.of(TextSegment.from("t", metadata)));

        assertThat(search(vector(1, 0), 1, null).get(0).embedded().metadata()).isEqualTo(metadata);
        assertThat(texts(search(vector(1, 0), 1, metadataKey("i").isEqualTo(7)))).containsExactly("t");
        assertThat(texts(search(vector(1, 0), 1, metadataKey("u").isEqualTo(uuid)))).containsExactly("t");
    }

    @Test
    void should_search_only_entries_matching_the_filter_even_when_others_are_nearer() throws IOException {
        List<String> ids = new ArrayList<>();
        List<Embedding> embeddings = new ArrayList<>();
        List<TextSegment> segments = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            ids.add("big-" + i);
            embeddings.add(vector(1, i / 10_000f, 0));
            segments.add(segment("big " + i, "big", "note"));
        }
        for (int i = 0; i < 3; i++) {
            ids.add("small-" + i);
            embeddings.add(vector(0, 1, i));
            segments.add(segment("small " + i, "small", i == 0 ? "note" : "turn"));
        }
        store.addAll(ids, embeddings, segments);

        assertThat(texts(search(vector(1, 0, 0), 5, metadataKey("scope").isEqualTo("small"))))
                .containsExactlyInAnyOrder("small 0", "small 1", "small 2");
        assertThat(texts(search(vector(1, 0, 0), 5,
                metadataKey("scope").isEqualTo("small").and(metadataKey("kind").isIn("turn", "topic")))))
                .containsExactlyInAnyOrder("small 1", "small 2");
        assertThat(search(vector(1, 0, 0), 5, metadataKey("scope").isEqualTo("nobody"))).isEmpty();
        RankFusion.Ranked small = store.searchIds(vector(0, 1, 2), 2, metadataKey("scope").isEqualTo("small"), 10);
        assertThat(small.top()).extracting(RankFusion.Scored::key)
                .containsExactly(VectorKeys.of("small-2"), VectorKeys.of("small-1"));
        // the sample is the whole scope when it is small, scored as the search scores (cosine relevance)
        assertThat(small.population()).isEqualTo(3);
        assertThat(small.sample()).extracting(RankFusion.Scored::key).containsExactlyInAnyOrder(
                VectorKeys.of("small-0"), VectorKeys.of("small-1"), VectorKeys.of("small-2"));
        for (RankFusion.Scored sampled : small.sample()) {
            int i = List.of(VectorKeys.of("small-0"), VectorKeys.of("small-1"), VectorKeys.of("small-2"))
                    .indexOf(sampled.key());
            assertThat(sampled.score()).isCloseTo(VectorSimilarityFunction.COSINE.compare(
                    vector(0, 1, 2).vector(), vector(0, 1, i).vector()), within(1e-6));
        }
        // a large scope is sampled evenly: 250 of 1,000 entries, from the first to the last hundred
        RankFusion.Ranked big = store.searchIds(vector(1, 0, 0), 5, metadataKey("scope").isEqualTo("big"), 250);
        assertThat(big.population()).isEqualTo(1_000);
        assertThat(big.top()).hasSize(5);
        List<Long> bigKeys = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            bigKeys.add(VectorKeys.of("big-" + i));
        }
        assertThat(big.sample()).hasSize(250).extracting(RankFusion.Scored::key).doesNotHaveDuplicates()
                .allMatch(bigKeys::contains)
                .contains(VectorKeys.of("big-0"))
                .anyMatch(key -> bigKeys.indexOf(key) >= 990)
                .doesNotContain(VectorKeys.of("big-1"));
    }

    @Test
    void should_find_every_scopes_entries_in_its_partition_whether_scopes_share_one_or_not() throws IOException {
        // 100 scopes over 64 partitions: some share a graph, so the filter must still hold inside a partition
        List<String> ids = new ArrayList<>();
        List<Embedding> embeddings = new ArrayList<>();
        List<TextSegment> segments = new ArrayList<>();
        for (int scope = 0; scope < 100; scope++) {
            for (int i = 0; i < 3; i++) {
                ids.add(scope + "-" + i);
                embeddings.add(vector(1, i, scope));
                segments.add(segment(scope + " " + i, "s" + scope, "note"));
            }
        }
        store.addAll(ids, embeddings, segments);
        store.addAll(List.of("loose"), List.of(vector(0, 0, -1)), List.of(TextSegment.from("no scope")));

        for (int scope = 0; scope < 100; scope++) {
            assertThat(texts(search(vector(1, 2, scope), 5, metadataKey("scope").isEqualTo("s" + scope))))
                    .as("scope %d", scope).containsExactly(scope + " 2", scope + " 1", scope + " 0");
        }
        assertThat(texts(search(vector(1, 0, 0), 9, metadataKey("scope").isIn("s1", "s7", "s70"))))
                .hasSize(9).allMatch(text -> text.startsWith("1 ") || text.startsWith("7 ") || text.startsWith("70 "));
        assertThat(search(vector(1, 0, 0), 5,
                metadataKey("scope").isEqualTo("s1").and(metadataKey("scope").isEqualTo("s2")))).isEmpty();
        assertThat(texts(search(vector(1, 0, 0), 301, null))).hasSize(301).contains("no scope");
        assertThat(texts(search(vector(0, 0, -1), 1, null))).containsExactly("no scope"); // the best of all graphs
    }

    static Stream<Filter> unsupportedFilters() {
        return Stream.of(
                metadataKey("scope").isEqualTo("a").or(metadataKey("scope").isEqualTo("b")),
                Filter.not(metadataKey("scope").isEqualTo("a")),
                metadataKey("n").isGreaterThan(3),
                metadataKey("scope").isNotEqualTo("a"),
                metadataKey("scope").isEqualTo("a").and(metadataKey("text").containsString("x")));
    }

    @ParameterizedTest
    @MethodSource("unsupportedFilters")
    void should_refuse_filters_it_cannot_translate(Filter filter) {
        assertThatThrownBy(() -> search(vector(1, 0), 1, filter))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("supports only IsEqualTo, IsIn and And");
    }

    @Test
    void should_replace_an_entry_added_again_under_its_id() throws IOException {
        store.addAll(List.of("1"), List.of(vector(1, 0)), List.of(segment("first", "a", "note")));
        store.addAll(List.of("1"), List.of(vector(0, 1)), List.of(segment("second", "a", "note")));

        assertThat(texts(search(vector(1, 0), 5, null))).containsExactly("second");
    }

    @Test
    void should_remove_by_ids_by_filter_and_all() throws IOException {
        store.addAll(List.of("1", "2", "3"), List.of(vector(1, 0), vector(1, 0.1f), vector(1, 0.2f)),
                List.of(segment("one", "a", "note"), segment("two", "b", "note"), segment("three", "b", "turn")));

        store.removeAll(List.of("1"));
        assertThat(texts(search(vector(1, 0), 5, null))).containsExactly("two", "three");

        store.removeAll(metadataKey("kind").isEqualTo("turn"));
        assertThat(texts(search(vector(1, 0), 5, null))).containsExactly("two");

        store.removeAll();
        assertThat(search(vector(1, 0), 5, null)).isEmpty();
    }

    @Test
    void should_keep_entries_without_a_segment_and_drop_matches_below_the_minimum_score() throws IOException {
        String id = store.add(vector(1, 0));
        store.add("opposite", vector(-1, 0));
        index.refresh();

        List<EmbeddingMatch<TextSegment>> matches = store.search(EmbeddingSearchRequest.builder()
                .queryEmbedding(vector(1, 0)).maxResults(5).minScore(0.5).build()).matches();

        assertThat(matches).extracting(EmbeddingMatch::embeddingId).containsExactly(id);
        assertThat(matches.get(0).embedded()).isNull();
    }

    @Test
    void should_hold_vectors_beyond_lucenes_default_dimension_limit() throws IOException {
        float[] large = new float[1_536];
        large[0] = 1;
        store.add("large", Embedding.from(large));

        assertThat(search(Embedding.from(large), 1, null)).extracting(EmbeddingMatch::embeddingId)
                .containsExactly("large");
    }
}
