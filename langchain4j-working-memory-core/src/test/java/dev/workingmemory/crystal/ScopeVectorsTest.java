package dev.workingmemory.crystal;

import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.crystal.RankFusion.Scored;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ScopeVectorsTest {

    private final ScopeVectors vectors = new ScopeVectors();

    private static float[] random(Random random, int dimension) {
        float[] vector = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            vector[i] = (float) random.nextGaussian();
        }
        return vector;
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            normA += a[i] * a[i];
            normB += b[i] * b[i];
        }
        return dot / Math.sqrt(normA * normB);
    }

    @Test
    void should_return_the_exact_nearest_vectors_with_their_cosine_relevance_and_a_sample_of_all() {
        Random random = new Random(42);
        float[][] all = new float[1_000][];
        for (int i = 0; i < all.length; i++) {
            all[i] = random(random, 16);
            vectors.put(i, CrystalKind.TURN, all[i]);
        }
        float[] query = random(random, 16);

        Ranked ranked = vectors.nearest(query, 5, Set.of(), 100);

        List<Integer> expected = IntStream.range(0, all.length).boxed()
                .sorted((a, b) -> Double.compare(cosine(query, all[b]), cosine(query, all[a]))).limit(5).toList();
        assertThat(ranked.top()).extracting(Scored::key).containsExactlyElementsOf(
                expected.stream().map(Integer::longValue).toList());
        assertThat(ranked.top().get(0).score()).isCloseTo((1 + cosine(query, all[expected.get(0)])) / 2, within(1e-5));
        assertThat(ranked.population()).isEqualTo(1_000);
        assertThat(ranked.sample()).hasSize(100).extracting(Scored::key)
                .containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> (long) i * 10).toList());
    }

    @Test
    void should_find_nearly_all_the_nearest_of_a_large_scope_after_comparing_signs_and_score_them_exactly() {
        // topics, as texts about one thing embed near each other: 64 centres, 96 vectors around each
        Random random = new Random(7);
        int count = 3 * ScopeVectors.EXACT_UP_TO;
        float[][] centres = new float[64][];
        Arrays.setAll(centres, i -> random(random, 384));
        float[][] all = new float[count][];
        for (int i = 0; i < all.length; i++) {
            all[i] = near(centres[i % centres.length], random);
            vectors.put(i, CrystalKind.TURN, all[i]);
        }
        int found = 0;
        for (int q = 0; q < 20; q++) {
            float[] query = near(centres[random.nextInt(centres.length)], random);
            Ranked ranked = vectors.nearest(query, 10, Set.of(), 256);

            List<Long> exact = IntStream.range(0, count).boxed()
                    .sorted((a, b) -> Double.compare(cosine(query, all[b]), cosine(query, all[a]))).limit(10)
                    .map(Integer::longValue).toList();
            found += (int) ranked.top().stream().filter(hit -> exact.contains(hit.key())).count();
            for (Scored hit : ranked.top()) {
                assertThat(hit.score()).isCloseTo((1 + cosine(query, all[(int) hit.key()])) / 2, within(1e-5));
            }
            assertThat(ranked.population()).isEqualTo(count);
            assertThat(ranked.sample()).hasSize(256);
        }
        assertThat(found).as("of the 200 nearest").isGreaterThanOrEqualTo(196);
    }

    private static float[] near(float[] centre, Random random) {
        float[] vector = random(random, centre.length);
        for (int i = 0; i < vector.length; i++) {
            vector[i] = centre[i] + 0.8f * vector[i];
        }
        return vector;
    }

    @Test
    void should_score_only_the_kinds_asked_for_and_sample_the_whole_of_a_small_scope() {
        vectors.put(1, CrystalKind.NOTE, new float[] {1, 0});
        vectors.put(2, CrystalKind.TURN, new float[] {0.9f, 0.1f});
        vectors.put(3, CrystalKind.TURN, new float[] {-1, 0});

        Ranked turns = vectors.nearest(new float[] {2, 0}, 1, Set.of(CrystalKind.TURN), 256);

        assertThat(turns.top()).extracting(Scored::key).containsExactly(2L);
        assertThat(turns.sample()).extracting(Scored::key).containsExactly(2L, 3L);
        assertThat(turns.sample().get(1).score()).isCloseTo(0, within(1e-6));
        assertThat(turns.population()).isEqualTo(2);
    }

    @Test
    void should_replace_and_remove_vectors_keeping_the_others() {
        vectors.put(1, CrystalKind.NOTE, new float[] {1, 0});
        vectors.put(2, CrystalKind.NOTE, new float[] {0, 1});
        vectors.put(3, CrystalKind.NOTE, new float[] {-1, 0});
        vectors.put(1, CrystalKind.NOTE, new float[] {0, -1});
        vectors.remove(2);
        vectors.remove(99);

        Ranked ranked = vectors.nearest(new float[] {1, 0}, 10, Set.of(), 256);

        assertThat(vectors.size()).isEqualTo(2);
        assertThat(ranked.top()).extracting(Scored::key).containsExactly(1L, 3L);
        assertThat(ranked.top().get(0).score()).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void should_refuse_vectors_and_queries_of_another_dimension() {
        vectors.put(1, CrystalKind.NOTE, new float[] {1, 0});

        assertThatThrownBy(() -> vectors.put(2, CrystalKind.NOTE, new float[] {1, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same model");
        assertThatThrownBy(() -> vectors.nearest(new float[] {1, 0, 0}, 1, Set.of(), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 dimensions, the crystals' 2");
        assertThat(new ScopeVectors().nearest(new float[] {1}, 1, Set.of(), 10)).isEqualTo(Ranked.EMPTY);
    }
}
