package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

/**
 * One result of a memory search as the {@link PointerCheck} sees it: the crystal's id and its text.
 *
 * <p>Immutable and thread-safe.
 */
public record SearchHit(String crystalId, String text) {

    public SearchHit {
        Ensure.notNull(crystalId, "crystalId");
        Ensure.notNull(text, "text");
    }
}
