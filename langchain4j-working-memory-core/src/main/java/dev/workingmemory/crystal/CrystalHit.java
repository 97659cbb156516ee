package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

/**
 * A crystal found by a search, with the score that ranked it (higher is better; comparable only within one
 * search's results) and what that score was made of.
 *
 * <p>Immutable and thread-safe.
 *
 * @param crystal the crystal found
 * @param score   the score that ranked it ({@code scores.fused()})
 * @param scores  the parts of the score, as the fusion made them
 */
public record CrystalHit(Crystal crystal, double score, HitScores scores) {

    /** Rejects a null {@code crystal}; a null {@code scores} is taken as the fused score alone. */
    public CrystalHit {
        Ensure.notNull(crystal, "crystal");
        scores = scores == null ? HitScores.fusedOnly(score) : scores;
    }

    /** A hit whose score's parts are unknown. */
    public CrystalHit(Crystal crystal, double score) {
        this(crystal, score, HitScores.fusedOnly(score));
    }

    /** A hit ranked by {@code scores.fused()}. */
    public CrystalHit(Crystal crystal, HitScores scores) {
        this(crystal, Ensure.notNull(scores, "scores").fused(), scores);
    }
}
