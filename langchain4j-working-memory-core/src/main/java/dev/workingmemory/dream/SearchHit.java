package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

/**
 * One result of a memory search as the {@link PointerCheck} sees it: the crystal's id and its text.
 *
 * <p>Immutable and thread-safe.
 *
 * @param crystalId the id of the crystal found
 * @param text      its text
 */
public record SearchHit(String crystalId, String text) {

    /** Rejects a null component with an {@link IllegalArgumentException}. */
    public SearchHit {
        Ensure.notNull(crystalId, "crystalId");
        Ensure.notNull(text, "text");
    }
}
