package dev.workingmemory.crystal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the keyword and vector result lists of a search: weighted reciprocal rank fusion (see
 * {@link CrystalRanking}). The one place where hybrid scores are made.
 *
 * <p>Thread-safe (stateless).
 */
final class RankFusion {

    private RankFusion() {
    }

    /** A crystal id and its fused score. */
    record Fused(String id, double score) {
    }

    /**
     * @param keyword crystal ids from the keyword search, best first
     * @param vector  crystal ids from the vector search, best first
     * @return at most {@code limit} ids, best first; ties keep the keyword list's order, then the vector list's
     */
    static List<Fused> fuse(List<String> keyword, List<String> vector, CrystalRanking ranking, int limit) {
        Map<String, Double> scores = new LinkedHashMap<>();
        add(scores, keyword, ranking.keywordWeight(), ranking.rrfK());
        add(scores, vector, ranking.vectorWeight(), ranking.rrfK());
        List<Fused> fused = new ArrayList<>(scores.size());
        scores.forEach((id, score) -> fused.add(new Fused(id, score)));
        fused.sort((a, b) -> Double.compare(b.score(), a.score())); // stable: ties keep insertion order
        return fused.size() > limit ? List.copyOf(fused.subList(0, limit)) : fused;
    }

    private static void add(Map<String, Double> scores, List<String> ids, double weight, int k) {
        if (weight == 0) {
            return;
        }
        for (int rank = 1; rank <= ids.size(); rank++) {
            scores.merge(ids.get(rank - 1), weight / (k + rank), Double::sum);
        }
    }
}
