package dev.workingmemory.crystal;

import dev.workingmemory.crystal.RankFusion.Fused;
import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.crystal.RankFusion.Scored;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RankFusionTest {

    private static final CrystalRanking EQUAL = new CrystalRanking(1, 1, 0.5, 100);

    private static long key(String id) {
        return VectorKeys.of(id);
    }

    /** Both lists without a sample: the crystals outside a list count at its floor. */
    private static List<Fused> fuse(List<Scored> keyword, List<Scored> vector, int population, CrystalRanking ranking,
                                    int limit) {
        return RankFusion.fuse(new Ranked(keyword, List.of(), population), new Ranked(vector, List.of(), population),
                ranking, limit);
    }

    @Test
    void should_sum_the_z_scores_of_both_lists() {
        // keyword scores 3, 1 and 0 for c; vector scores 0.9, 0.5, 0.1 (population 3)
        List<Fused> fused = fuse(
                List.of(new Scored(key("a"), 3), new Scored(key("b"), 1)),
                List.of(new Scored(key("c"), 0.9), new Scored(key("a"), 0.5), new Scored(key("b"), 0.1)), 3, EQUAL, 10);

        double keywordMean = 4.0 / 3;
        double keywordDeviation = Math.sqrt(((3 - keywordMean) * (3 - keywordMean) + (1 - keywordMean) * (1 - keywordMean)
                + keywordMean * keywordMean) / 3);
        double vectorDeviation = Math.sqrt((0.16 + 0 + 0.16) / 3);
        assertThat(fused).extracting(Fused::key).containsExactly(key("a"), key("c"), key("b"));
        assertThat(fused.get(0).score()).isCloseTo((3 - keywordMean) / keywordDeviation, within(1e-9));
        assertThat(fused.get(1).score()).isCloseTo(-keywordMean / keywordDeviation + 0.4 / vectorDeviation,
                within(1e-9));
        assertThat(fused.get(2).score()).isCloseTo((1 - keywordMean) / keywordDeviation - 0.4 / vectorDeviation,
                within(1e-9));
    }

    @Test
    void should_say_what_each_fused_score_was_made_of() {
        // a's keyword score 3 is 2 from its text and 1 from its context; c is in the vector list only
        List<Fused> fused = fuse(
                List.of(new Scored(key("a"), 3, 1, false), new Scored(key("b"), 1)),
                List.of(new Scored(key("c"), 0.9), new Scored(key("a"), 0.5), new Scored(key("b"), 0.1)), 3, EQUAL, 10);

        HitScores a = fused.get(0).scores();
        assertThat(a.keyword()).isEqualTo(2);
        assertThat(a.context()).isEqualTo(1);
        assertThat(a.vector()).isEqualTo(0.5);
        assertThat(a.vectorStandardized()).isCloseTo(0, within(1e-9));
        assertThat(a.keywordStandardized() + a.vectorStandardized()).isCloseTo(a.fused(), within(1e-9));
        assertThat(a.fused()).isEqualTo(fused.get(0).score());
        HitScores c = fused.get(1).scores();
        assertThat(c.keyword()).isNaN();
        assertThat(c.context()).isNaN();
        assertThat(c.keywordStandardized()).isNegative(); // no matching word: scored 0, below the mean
        assertThat(c.vector()).isEqualTo(0.9);
        for (Fused hit : fused) {
            assertThat(hit.scores().fused()).isEqualTo(hit.score());
        }
    }

    @Test
    void should_count_a_keywords_only_crystal_at_the_vector_lists_mean_not_its_floor() {
        // k and f match the same words; k has no vector by design, f has one that is not among the vector list's
        // best: f counts at the list's floor (0.3), k at the scope's mean (z 0), so k ranks above f
        List<Scored> vector = List.of(new Scored(key("v"), 0.9), new Scored(key("w"), 0.6), new Scored(key("x"), 0.3));
        List<Fused> fused = fuse(List.of(new Scored(key("f"), 2), new Scored(key("k"), 2, 0, true)), vector, 5, EQUAL,
                10);

        HitScores k = fused.stream().filter(hit -> hit.key() == key("k")).findFirst().orElseThrow().scores();
        HitScores f = fused.stream().filter(hit -> hit.key() == key("f")).findFirst().orElseThrow().scores();
        assertThat(k.vector()).isNaN();
        assertThat(k.vectorStandardized()).isZero();
        assertThat(f.vectorStandardized()).isNegative();
        assertThat(k.fused()).isCloseTo(k.keywordStandardized(), within(1e-9));
        assertThat(fused).extracting(Fused::key).containsSubsequence(key("k"), key("f"));
    }

    @Test
    void should_count_the_scope_beyond_the_lists_at_their_floor() {
        // 1 keyword hit among 100 crystals: far above the 99 others (which score 0), so it beats the best vector
        List<Fused> sparse = fuse(List.of(new Scored(key("k"), 1)),
                List.of(new Scored(key("v"), 0.9), new Scored(key("k"), 0.8), new Scored(key("x"), 0.7)), 100, EQUAL, 10);
        // among 2 crystals, the same keyword hit is just one standard deviation up
        List<Fused> dense = fuse(List.of(new Scored(key("k"), 1)),
                List.of(new Scored(key("v"), 0.9), new Scored(key("k"), 0.1)), 2, EQUAL, 10);

        assertThat(sparse.get(0).key()).isEqualTo(key("k"));
        assertThat(sparse.get(0).score()).isGreaterThan(9);
        assertThat(dense).extracting(Fused::key).containsExactly(key("k"), key("v"));
        assertThat(dense.get(0).score()).isCloseTo(0, within(1e-9));
        assertThat(dense.get(1).score()).isCloseTo(0, within(1e-9));
    }

    @Test
    void should_weigh_the_lists_and_cut_at_the_limit() {
        CrystalRanking vectorsOnly = new CrystalRanking(0, 1, 0.5, 100);
        List<Scored> keyword = List.of(new Scored(key("a"), 5), new Scored(key("b"), 4));
        List<Scored> vector = List.of(new Scored(key("c"), 0.9), new Scored(key("a"), 0.2), new Scored(key("b"), 0.1));

        assertThat(fuse(keyword, vector, 3, vectorsOnly, 1)).extracting(Fused::key).containsExactly(key("c"));
        assertThat(fuse(keyword, vector, 3, new CrystalRanking(3, 1, 0.5, 100), 5))
                .extracting(Fused::key).containsExactly(key("a"), key("b"), key("c"));
    }

    @Test
    void should_break_ties_by_the_keyword_list_then_the_vector_list() {
        assertThat(fuse(List.of(new Scored(key("k"), 1)), List.of(new Scored(key("v"), 1)), 2, EQUAL, 5))
                .extracting(Fused::key).containsExactly(key("k"), key("v"));
        assertThat(fuse(List.of(), List.of(), 0, EQUAL, 5)).isEmpty();
    }

    @Test
    void should_standardize_over_the_whole_scope_when_the_sample_is_the_scope() {
        // six crystals; each list's top holds two, the sample all six: the z-scores are those of the full lists
        List<Scored> keywordAll = List.of(new Scored(key("a"), 4), new Scored(key("b"), 3), new Scored(key("c"), 2),
                new Scored(key("d"), 1), new Scored(key("e"), 0), new Scored(key("f"), 0));
        List<Scored> vectorAll = List.of(new Scored(key("c"), 0.9), new Scored(key("a"), 0.8), new Scored(key("d"), 0.5),
                new Scored(key("b"), 0.4), new Scored(key("e"), 0.3), new Scored(key("f"), 0.2));

        List<Fused> sampled = RankFusion.fuse(new Ranked(keywordAll.subList(0, 2), keywordAll, 6),
                new Ranked(vectorAll.subList(0, 2), vectorAll, 6), EQUAL, 10);
        List<Fused> full = fuse(keywordAll, vectorAll, 6, EQUAL, 10);

        // a is in both tops, so its fused score is exact; b and c miss one top and count at its floor there
        assertThat(sampled.get(0).key()).isEqualTo(key("a"));
        assertThat(sampled.get(0).score()).isCloseTo(full.get(0).score(), within(1e-9));
        assertThat(sampled).extracting(Fused::key).containsExactlyInAnyOrder(key("a"), key("b"), key("c"));
    }

    @Test
    void should_estimate_the_crystals_outside_the_top_from_the_sample() {
        // 1,000 crystals: the top keyword hit at 10, a sample of 4 outside the top at 1 or 3 (mean 2, variance 1)
        Ranked keyword = new Ranked(List.of(new Scored(key("top"), 10)), List.of(new Scored(key("s1"), 1),
                new Scored(key("s2"), 3), new Scored(key("s3"), 1), new Scored(key("s4"), 3), new Scored(key("top"), 10)),
                1_000);
        List<Fused> fused = RankFusion.fuse(keyword, Ranked.EMPTY, new CrystalRanking(1, 0, 0.5, 100), 1);

        double mean = (10 + 999 * 2.0) / 1_000;
        double variance = ((10 - mean) * (10 - mean) + 999 * (1 + (2 - mean) * (2 - mean))) / 1_000;
        assertThat(fused.get(0).score()).isCloseTo((10 - mean) / Math.sqrt(variance), within(1e-9));
        // without the sample, the 999 others count as 0: a larger lead
        assertThat(fuse(keyword.top(), List.of(), 1_000, new CrystalRanking(1, 0, 0.5, 100), 1).get(0).score())
                .isGreaterThan(fused.get(0).score() * 3);
    }
}
