package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

/**
 * How a hybrid search ranks a scope's crystals: a keyword (BM25) score and a vector (cosine) score, each
 * standardized over the scope's crystals (z-score: minus the mean, divided by the standard deviation), summed with
 * their weights.
 *
 * <p>Each search takes the best {@code candidates} crystals of each list. The mean and standard deviation are those
 * of the whole scope: the candidates' scores plus, for the crystals outside the list, the scores of a sample of the
 * scope spread evenly over it (up to 256 crystals; a smaller scope is scored whole), so they do not depend on how
 * many candidates are taken. A store whose vectors cannot be scored one by one (an {@code EmbeddingStore} other than
 * the embedded default) counts every crystal outside its vector list at the list's lowest score. A crystal outside
 * a list scores the list's lowest score (vectors) or 0 (keywords: no matching word); a crystal that has no vector by
 * design ({@link Crystal#keywordsOnly()}) counts on the vector list at the scope's mean (z-score 0): nothing says it
 * is nearer the query or farther from it than the average crystal. Scores rather than ranks are
 * fused because their spread says how sure a list is: a question whose words appear in one crystal only lifts it far
 * above the rest, a vague one leaves the vectors in charge.
 *
 * <p>A crystal's {@code context} (what surrounded it) is searched by keyword in a field of its own, its matches
 * weighed by {@code contextWeight} against those in the crystal's text; the vector is made of the text alone
 * ({@link Crystal#textToIndex()}).
 *
 * <p>The keyword list is searched twice: once with the query's words, then with the words the first fusion's best
 * hits have in common added at a lower weight ({@code feedbackWeight} for the heaviest; pseudo-relevance feedback,
 * as RM3 does it), so that a question also finds the crystals that speak of what its best hits speak of. The lists are
 * then fused again. On LoCoMo's five development conversations recall_all@10 went from 0.705 to 0.720 (multi-hop
 * 0.218 to 0.261), on BEAM's ten chats from 0.453 to 0.464–0.469; a search of 10,000 crystals takes
 * about a millisecond more.
 *
 * <p>Immutable and thread-safe.
 *
 * @param keywordWeight  the weight of the keyword score, finite and at least 0
 * @param vectorWeight   the weight of the vector score, finite and at least 0; not both weights 0
 * @param contextWeight  how much a keyword match in the context counts against one in the text, finite, 0 to 1
 * @param candidates     how many hits each list contributes at least (a search asking for more takes its limit)
 * @param feedbackWeight how much the heaviest word of the best hits counts against one of the query's, finite, 0 to
 *                       1; 0 searches the query's words alone
 */
public record CrystalRanking(double keywordWeight, double vectorWeight, double contextWeight, int candidates,
                             double feedbackWeight) {

    /** The default {@link #feedbackWeight()}. */
    public static final double FEEDBACK_WEIGHT = 0.3;

    /** Checks the values as described above; one out of range is an {@link IllegalArgumentException}. */
    public CrystalRanking {
        Ensure.that(keywordWeight >= 0 && Double.isFinite(keywordWeight),
                "keywordWeight must be finite and at least 0, was " + keywordWeight);
        Ensure.that(vectorWeight >= 0 && Double.isFinite(vectorWeight),
                "vectorWeight must be finite and at least 0, was " + vectorWeight);
        Ensure.that(keywordWeight + vectorWeight > 0, "keywordWeight and vectorWeight must not both be 0");
        Ensure.that(contextWeight >= 0 && contextWeight <= 1, "contextWeight must be within 0 and 1, was "
                + contextWeight);
        Ensure.positive(candidates, "candidates");
        Ensure.that(feedbackWeight >= 0 && feedbackWeight <= 1, "feedbackWeight must be within 0 and 1, was "
                + feedbackWeight);
    }

    /** A ranking with the default {@link #FEEDBACK_WEIGHT}. */
    public CrystalRanking(double keywordWeight, double vectorWeight, double contextWeight, int candidates) {
        this(keywordWeight, vectorWeight, contextWeight, candidates, FEEDBACK_WEIGHT);
    }

    /**
     * @return equal weights, context matches at half weight, 30 candidates per list, the best hits' words at
     *         {@value #FEEDBACK_WEIGHT}. On the LoCoMo development split
     *         recall_all@10 was 0.697 with 30 candidates and 0.699 with 300 (see the LoCoMo section of the
     *         benchmarks README); over 10,000 crystals a search of 300 cost about three times one of 30
     */
    public static CrystalRanking defaults() {
        return new CrystalRanking(1.0, 1.0, 0.5, 30, FEEDBACK_WEIGHT);
    }
}
