package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

/**
 * How a hybrid search ranks a scope's crystals: a keyword (BM25) score and a vector (cosine) score, each
 * standardized over the scope's crystals (z-score: minus the mean, divided by the standard deviation), summed with
 * their weights.
 *
 * <p>Each search takes the best {@code candidates} crystals of each list; a crystal outside a list counts with the
 * list's lowest score (vectors) or 0 (keywords: no matching word), in the standardization too. Scores rather than
 * ranks are fused because their spread says how sure a list is: a question whose words appear in one crystal only
 * lifts it far above the rest, a vague one leaves the vectors in charge.
 *
 * <p>A crystal's {@code context} (what surrounded it) is searched by keyword in a field of its own, its matches
 * weighed by {@code contextWeight} against those in the crystal's text; the vector is made of the text followed by
 * the context.
 *
 * <p>Immutable and thread-safe.
 *
 * @param keywordWeight the weight of the keyword score, finite and at least 0
 * @param vectorWeight  the weight of the vector score, finite and at least 0; not both weights 0
 * @param contextWeight how much a keyword match in the context counts against one in the text, finite, 0 to 1
 * @param candidates    how many hits each list contributes at least (a search asking for more takes its limit)
 */
public record CrystalRanking(double keywordWeight, double vectorWeight, double contextWeight, int candidates) {

    public CrystalRanking {
        Ensure.that(keywordWeight >= 0 && Double.isFinite(keywordWeight),
                "keywordWeight must be finite and at least 0, was " + keywordWeight);
        Ensure.that(vectorWeight >= 0 && Double.isFinite(vectorWeight),
                "vectorWeight must be finite and at least 0, was " + vectorWeight);
        Ensure.that(keywordWeight + vectorWeight > 0, "keywordWeight and vectorWeight must not both be 0");
        Ensure.that(contextWeight >= 0 && contextWeight <= 1, "contextWeight must be within 0 and 1, was "
                + contextWeight);
        Ensure.positive(candidates, "candidates");
    }

    /**
     * @return equal weights, context matches at half weight, 300 candidates per list. Fewer candidates standardize
     *         against a cruder picture of the scope: on the LoCoMo development split (scopes of 190 to 360 past
     *         exchanges) recall_all@10 is 0.650 with 100 candidates and 0.680 with 300 or 1,000 (see the LoCoMo
     *         section of the benchmarks README, and its JMH figures for what 300 cost over 10,000 crystals)
     */
    public static CrystalRanking defaults() {
        return new CrystalRanking(1.0, 1.0, 0.5, 300);
    }
}
