package dev.workingmemory.crystal;

import dev.workingmemory.crystal.RankFusion.Fused;
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

    @Test
    void should_sum_the_z_scores_of_both_lists() {
        // keyword scores 3, 1 and 0 for c; vector scores 0.9, 0.5, 0.1 (population 3)
        List<Fused> fused = RankFusion.fuse(
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
    void should_count_the_scope_beyond_the_lists_at_their_floor() {
        // 1 keyword hit among 100 crystals: far above the 99 others (which score 0), so it beats the best vector
        List<Fused> sparse = RankFusion.fuse(List.of(new Scored(key("k"), 1)),
                List.of(new Scored(key("v"), 0.9), new Scored(key("k"), 0.8), new Scored(key("x"), 0.7)), 100, EQUAL, 10);
        // among 2 crystals, the same keyword hit is just one standard deviation up
        List<Fused> dense = RankFusion.fuse(List.of(new Scored(key("k"), 1)),
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

        assertThat(RankFusion.fuse(keyword, vector, 3, vectorsOnly, 1)).extracting(Fused::key).containsExactly(key("c"));
        assertThat(RankFusion.fuse(keyword, vector, 3, new CrystalRanking(3, 1, 0.5, 100), 5))
                .extracting(Fused::key).containsExactly(key("a"), key("b"), key("c"));
    }

    @Test
    void should_break_ties_by_the_keyword_list_then_the_vector_list() {
        assertThat(RankFusion.fuse(List.of(new Scored(key("k"), 1)), List.of(new Scored(key("v"), 1)), 2, EQUAL, 5))
                .extracting(Fused::key).containsExactly(key("k"), key("v"));
        assertThat(RankFusion.fuse(List.of(), List.of(), 0, EQUAL, 5)).isEmpty();
    }
}
