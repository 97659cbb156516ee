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

    /**
     * A crystal's {@linkplain VectorKeys key} with the score one list gave it (higher is better) and, for the keyword
     * list, the part of it its context scored (0 otherwise) and whether the crystal has no vector by design
     * ({@link Crystal#keywordsOnly()}).
     */
    record Scored(long key, double score, double context, boolean keywordsOnly) {

        Scored(long key, double score) {
            this(key, score, 0, false);
        }
    }

    /** A crystal's key, its fused score and what that was made of. */
    record Fused(long key, double score, HitScores scores) {
    }

    /**
     * One list of a search.
     *
     * @param top        the best crystals with their scores, best first
     * @param sample     the scores of crystals spread evenly over the scope (all of it when it is small), whatever
     *                   their rank; empty when the list's store cannot score arbitrary crystals
     * @param population how many crystals the search covered
     */
    record Ranked(List<Scored> top, List<Scored> sample, int population) {

        static final Ranked EMPTY = new Ranked(List.of(), List.of(), 0);

        Ranked {
            top = List.copyOf(top);
            sample = List.copyOf(sample);
        }
    }

    /**
     * @param keyword the keyword list (BM25 scores)
     * @param vector  the vector list (similarities)
     * @return at most {@code limit} keys, best first; ties keep the keyword list's order, then the vector list's
     */
    static List<Fused> fuse(Ranked keyword, Ranked vector, CrystalRanking ranking, int limit) {
        int population = Math.max(keyword.population(), vector.population());
        Standardized keywordZ = new Standardized(keyword, population, 0);
        List<Scored> vectorTop = vector.top();
        Standardized vectorZ = new Standardized(vector, population,
                vectorTop.isEmpty() ? 0 : vectorTop.get(vectorTop.size() - 1).score());
        Map<Long, Scored> keywordTop = new HashMap<>();
        keyword.top().forEach(hit -> keywordTop.putIfAbsent(hit.key(), hit));
        Map<Long, Scored> vectorScores = new HashMap<>();
        vectorTop.forEach(hit -> vectorScores.putIfAbsent(hit.key(), hit));
        Set<Long> keys = new LinkedHashSet<>();
        keyword.top().forEach(hit -> keys.add(hit.key()));
        vectorTop.forEach(hit -> keys.add(hit.key()));
        List<Fused> fused = new ArrayList<>(keys.size());
        for (long key : keys) {
            double keywordStandardized = keywordZ.of(key);
            Scored words = keywordTop.get(key);
            Scored similar = vectorScores.get(key);
            // a crystal without a vector by design is neither near the query nor far from it: the scope's mean,
            // not the lowest of the vector list (which is for a vector known to be farther than the list's)
            double vectorStandardized = similar == null && words != null && words.keywordsOnly() ? 0
                    : vectorZ.of(key);
            double score = ranking.keywordWeight() * keywordStandardized + ranking.vectorWeight() * vectorStandardized;
            fused.add(new Fused(key, score, new HitScores(
                    words == null ? Double.NaN : words.score() - words.context(),
                    words == null ? Double.NaN : words.context(), keywordStandardized,
                    similar == null ? Double.NaN : similar.score(), vectorStandardized, score)));
        }
        fused.sort((a, b) -> Double.compare(b.score(), a.score())); // stable: ties keep insertion order
        return fused.size() > limit ? List.copyOf(fused.subList(0, limit)) : fused;
    }

    /**
     * One list's z-scores over the scope. The mean and deviation are the top's scores plus, for the crystals
     * outside it, what the sample's crystals outside it score (exact when the sample is the whole scope); without
     * a sample those all count as {@code rest}. A crystal outside the top scores {@code rest}.
     */
    private static final class Standardized {

        private final Map<Long, Double> scores = new HashMap<>();
        private final double rest;
        private final double mean;
        private final double deviation;

        Standardized(Ranked list, int population, double rest) {
            this.rest = rest;
            list.top().forEach(hit -> scores.putIfAbsent(hit.key(), hit.score()));
            double restMean = rest;
            double restVariance = 0;
            int sampled = 0;
            double sum = 0;
            for (Scored hit : list.sample()) {
                if (!scores.containsKey(hit.key())) {
                    sampled++;
                    sum += hit.score();
                }
            }
            if (sampled > 0) {
                restMean = sum / sampled;
                double squares = 0;
                for (Scored hit : list.sample()) {
                    if (!scores.containsKey(hit.key())) {
                        squares += (hit.score() - restMean) * (hit.score() - restMean);
                    }
                }
                restVariance = squares / sampled;
            }
            int n = Math.max(population, scores.size());
            int others = n - scores.size();
            double total = others * restMean;
            for (double score : scores.values()) {
                total += score;
            }
            this.mean = n == 0 ? 0 : total / n;
            double squares = others * (restVariance + (restMean - mean) * (restMean - mean));
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
