package dev.workingmemory.crystal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the keyword and vector result lists of a search: the weighted sum of each list's scores standardized over
 * the scope (see {@link CrystalRanking}). The one place where hybrid scores are made.
 *
 * <p>Thread-safe (stateless).
 */
final class RankFusion {

    private RankFusion() {
    }

    /** A crystal id with the score one list gave it (higher is better). */
    record Scored(String id, double score) {
    }

    /** A crystal id and its fused score. */
    record Fused(String id, double score) {
    }

    /**
     * @param keyword   crystal ids from the keyword search with their BM25 scores, best first
     * @param vector    crystal ids from the vector search with their similarities, best first
     * @param scopeSize how many crystals the search covered (at least as many as either list holds)
     * @return at most {@code limit} ids, best first; ties keep the keyword list's order, then the vector list's
     */
    static List<Fused> fuse(List<Scored> keyword, List<Scored> vector, int scopeSize, CrystalRanking ranking,
                            int limit) {
        Standardized keywordZ = new Standardized(keyword, scopeSize, 0);
        Standardized vectorZ = new Standardized(vector, scopeSize,
                vector.isEmpty() ? 0 : vector.get(vector.size() - 1).score());
        Map<String, Double> scores = new LinkedHashMap<>();
        keyword.forEach(hit -> scores.put(hit.id(), 0.0));
        vector.forEach(hit -> scores.put(hit.id(), 0.0));
        List<Fused> fused = new ArrayList<>(scores.size());
        for (String id : scores.keySet()) {
            fused.add(new Fused(id, ranking.keywordWeight() * keywordZ.of(id)
                    + ranking.vectorWeight() * vectorZ.of(id)));
        }
        fused.sort((a, b) -> Double.compare(b.score(), a.score())); // stable: ties keep insertion order
        return fused.size() > limit ? List.copyOf(fused.subList(0, limit)) : fused;
    }

    /**
     * One list's z-scores over a population of which the list holds the best: the others all count as {@code rest}.
     */
    private static final class Standardized {

        private final Map<String, Double> scores = new LinkedHashMap<>();
        private final double rest;
        private final double mean;
        private final double deviation;

        Standardized(List<Scored> hits, int population, double rest) {
            this.rest = rest;
            hits.forEach(hit -> scores.putIfAbsent(hit.id(), hit.score()));
            int n = Math.max(population, scores.size());
            double sum = (n - scores.size()) * rest;
            for (double score : scores.values()) {
                sum += score;
            }
            this.mean = n == 0 ? 0 : sum / n;
            double squares = (n - scores.size()) * (rest - mean) * (rest - mean);
            for (double score : scores.values()) {
                squares += (score - mean) * (score - mean);
            }
            this.deviation = n == 0 ? 0 : Math.sqrt(squares / n);
        }

        double of(String id) {
            return deviation > 0 ? (scores.getOrDefault(id, rest) - mean) / deviation : 0;
        }
    }
}
