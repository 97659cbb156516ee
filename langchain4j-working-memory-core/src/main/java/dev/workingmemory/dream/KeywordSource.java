package dev.workingmemory.dream;

import java.util.List;

/**
 * The keywords that best retrieve a crystal, from the keyword index of the crystal store: what a crystal pointer's
 * {@code search:} part is made of. The dream engine adapts the crystal store to it.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface KeywordSource {

    /** Knows no keywords: pointers fall back to the most specific content words of their text. */
    KeywordSource NONE = (crystalId, max) -> List.of();

    /**
     * Up to {@code max} keywords, best first, that retrieve the crystal {@code crystalId}; empty when the crystal or
     * its terms are unknown.
     */
    List<String> keywords(String crystalId, int max);
}
