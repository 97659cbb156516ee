package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

/**
 * A crystal found by a search, with the score that ranked it (higher is better; comparable only within one
 * search's results).
 *
 * <p>Immutable and thread-safe.
 */
public record CrystalHit(Crystal crystal, double score) {

    public CrystalHit {
        Ensure.notNull(crystal, "crystal");
    }
}
