package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

/**
 * How a hybrid search merges its keyword and vector result lists: weighted reciprocal rank fusion. A crystal at
 * rank {@code r} (from 1) in a list scores {@code weight / (rrfK + r)} from it, and its score is the sum over both
 * lists.
 *
 * <p>Immutable and thread-safe.
 *
 * @param rrfK          the rank constant, positive; larger flattens the difference between top ranks
 * @param keywordWeight the weight of the keyword (BM25) list, at least 0
 * @param vectorWeight  the weight of the vector (embedding) list, at least 0; not both weights 0
 * @param candidates    how many hits each list contributes at least (a search asking for more takes its limit)
 */
public record CrystalRanking(int rrfK, double keywordWeight, double vectorWeight, int candidates) {

    public CrystalRanking {
        Ensure.positive(rrfK, "rrfK");
        Ensure.that(keywordWeight >= 0 && Double.isFinite(keywordWeight), "keywordWeight must be finite and at least 0, was "
                + keywordWeight);
        Ensure.that(vectorWeight >= 0 && Double.isFinite(vectorWeight), "vectorWeight must be finite and at least 0, was "
                + vectorWeight);
        Ensure.that(keywordWeight + vectorWeight > 0, "keywordWeight and vectorWeight must not both be 0");
        Ensure.positive(candidates, "candidates");
    }

    /**
     * @return k = 60 (as in the paper that introduced the fusion), equal weights, 20 candidates per list (on the
     *         LoCoMo development split, recall_all@10 0.577 with 20 against 0.525 with 50, and the vector search is
     *         about twice as fast)
     */
    public static CrystalRanking defaults() {
        return new CrystalRanking(60, 1.0, 1.0, 20);
    }
}
