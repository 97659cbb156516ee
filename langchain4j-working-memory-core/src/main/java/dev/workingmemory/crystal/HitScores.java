package dev.workingmemory.crystal;

/**
 * Why a search hit ranked where it did: the scores the one fusion ({@link CrystalRanking}) summed, for an inspector
 * or a log to show. The keyword list scores a crystal's text and its context (BM25, the context's matches weighed by
 * {@link CrystalRanking#contextWeight()}); the vector list its similarity to the query; each list's score is
 * standardized over the scope (a z-score) and the standardized scores summed with the lists' weights into
 * {@code fused}.
 *
 * <p>A raw score is {@link Double#NaN} where the crystal was not among that list's best candidates (its standardized
 * score is then the one the fusion counted for it: no matching word for keywords, the list's lowest similarity for
 * vectors, the scope's mean (0) for a crystal without a vector by design), and every part but {@code fused} is NaN
 * for a store that does not rank through the fusion.
 *
 * <p>Immutable and thread-safe.
 *
 * @param keyword             BM25 of the query's words in the crystal's text, with the words the first pass's best
 *                            hits have in common at their lower weights ({@link CrystalRanking#feedbackWeight()})
 * @param context             BM25 of the query's words in the crystal's context, already weighed
 * @param keywordStandardized the keyword list's score ({@code keyword + context}) standardized over the scope
 * @param vector              the similarity of the crystal's vector to the query's (cosine for the default store)
 * @param vectorStandardized  {@code vector} standardized over the scope
 * @param fused               the score the hit ranked by: the weighted sum of the standardized scores
 */
public record HitScores(double keyword, double context, double keywordStandardized, double vector,
                        double vectorStandardized, double fused) {

    /** Scores of a hit whose parts are unknown: only its fused score. */
    public static HitScores fusedOnly(double fused) {
        return new HitScores(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, fused);
    }
}
