package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.Optional;

/**
 * What the {@link PointerCheck} did with one pointer: kept it, repaired its keywords, or dropped it; and why.
 *
 * <p>Immutable and thread-safe.
 *
 * @param pointer the pointer as the synthesis wrote it
 * @param action  what the check did with it
 * @param result  the pointer to keep: {@code pointer} when kept, the repaired one when repaired; {@code null} when
 *                dropped
 * @param reason  why, in one sentence
 */
public record PointerOutcome(CrystalPointer pointer, Action action, CrystalPointer result, String reason) {

    /** What the check did with the pointer: kept it as written, gave it new keywords, or took it out. */
    public enum Action {
        /** Its keywords retrieved a hit about its topic: kept as written. */
        KEPT,
        /** Its keywords did not, but those of its source crystal did: kept with those keywords. */
        REPAIRED,
        /** Nothing retrieved anything about its topic: taken out of the state. */
        DROPPED
    }

    /**
     * Rejects a null {@code pointer}, {@code action} or {@code reason}, and a {@code result} for a dropped pointer or
     * none for another, with an {@link IllegalArgumentException}.
     */
    public PointerOutcome {
        Ensure.notNull(pointer, "pointer");
        Ensure.notNull(action, "action");
        Ensure.that((result == null) == (action == Action.DROPPED), "A dropped pointer has no result, any other has one");
        Ensure.notNull(reason, "reason");
    }

    /** The pointer to keep in the state: the original, the repaired one, or none. */
    public Optional<CrystalPointer> kept() {
        return Optional.ofNullable(result);
    }
}
