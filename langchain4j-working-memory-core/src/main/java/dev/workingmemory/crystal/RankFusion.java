package dev.workingmemory.crystal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges the keyword and vector result lists of a search: the weighted sum of each list's scores standardized over
 * the scope (see {@link CrystalRanking}). The one place where hybrid scores are made.
 *
 * <p>Thread-safe (stateless).
 */
final class RankFusion {

    private RankFusion() {
    }

    /** A crystal's {@linkplain VectorKeys key} with the score one list gave it (higher is better). */
    record Scored(long key, double score) {
    }

    /** A crystal's key and its fused score. */
    record Fused(long key, double score) {
    }

    /**
     * @param keyword   crystal keys from the keyword search with their BM25 scores, best first
     * @param vector    crystal keys from the vector search with their similarities, best first
     * @param scopeSize how many crystals the search covered (at least as many as either list holds)
     * @return at most {@code limit} keys, best first; ties keep the keyword list's order, then the vector list's
     */
    static List<Fused> fuse(List<Scored> keyword, List<Scored> vector, int scopeSize, CrystalRanking ranking,
                            int limit) {
        Standardized keywordZ = new Standardized(keyword, scopeSize, 0);
        Standardized vectorZ = new Standardized(vector, scopeSize,
                vector.isEmpty() ? 0 : vector.get(vector.size() - 1).score());
        Set<Long> keys = new LinkedHashSet<>();
        keyword.forEach(hit -> keys.add(hit.key()));
        vector.forEach(hit -> keys.add(hit.key()));
        List<Fused> fused = new ArrayList<>(keys.size());
        for (long key : keys) {
            fused.add(new Fused(key, ranking.keywordWeight() * keywordZ.of(key)
                    + ranking.vectorWeight() * vectorZ.of(key)));
        }
        fused.sort((a, b) -> Double.compare(b.score(), a.score())); // stable: ties keep insertion order
        return fused.size() > limit ? List.copyOf(fused.subList(0, limit)) : fused;
    }

    /**
     * One list's z-scores over a population of which the list holds the best: the others all count as {@code rest}.
     */
    private static final class Standardized {

        private final Map<Long, Double> scores = new HashMap<>();
        private final double rest;
        private final double mean;
        private final double deviation;

        Standardized(List<Scored> hits, int population, double rest) {
            this.rest = rest;
            hits.forEach(hit -> scores.putIfAbsent(hit.key(), hit.score()));
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

        double of(long key) {
            return deviation > 0 ? (scores.getOrDefault(key, rest) - mean) / deviation : 0;
        }
    }
}
