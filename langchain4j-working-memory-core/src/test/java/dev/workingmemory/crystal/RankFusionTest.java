package dev.workingmemory.crystal;

import dev.workingmemory.crystal.RankFusion.Fused;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RankFusionTest {

    @Test
    void should_sum_reciprocal_ranks_of_both_lists() {
        List<Fused> fused = RankFusion.fuse(List.of("a", "b", "c"), List.of("c", "a", "d"),
                new CrystalRanking(60, 1, 1, 50), 10);

        assertThat(fused).extracting(Fused::id).containsExactly("a", "c", "b", "d");
        assertThat(fused.get(0).score()).isCloseTo(1.0 / 61 + 1.0 / 62, within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(1.0 / 63 + 1.0 / 61, within(1e-12));
        assertThat(fused.get(3).score()).isCloseTo(1.0 / 63, within(1e-12));
    }

    @Test
    void should_weigh_the_lists_and_cut_at_the_limit() {
        CrystalRanking vectorsOnly = new CrystalRanking(60, 0, 1, 50);

        assertThat(RankFusion.fuse(List.of("a", "b"), List.of("c", "a"), vectorsOnly, 1))
                .extracting(Fused::id).containsExactly("c");
        assertThat(RankFusion.fuse(List.of("a", "b"), List.of("b", "a"), new CrystalRanking(60, 2, 1, 50), 5))
                .extracting(Fused::id).containsExactly("a", "b");
    }

    @Test
    void should_break_ties_by_the_keyword_list_then_the_vector_list() {
        assertThat(RankFusion.fuse(List.of("k"), List.of("v"), CrystalRanking.defaults(), 5))
                .extracting(Fused::id).containsExactly("k", "v");
        assertThat(RankFusion.fuse(List.of(), List.of(), CrystalRanking.defaults(), 5)).isEmpty();
    }
}
