package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.Optional;

/**
 * What the {@link PointerCheck} did with one pointer: kept it, repaired its keywords, or dropped it; and why.
 *
 * <p>Immutable and thread-safe.
 */
public record PointerOutcome(CrystalPointer pointer, Action action, CrystalPointer result, String reason) {

    /** What the check did with the pointer: kept it as written, gave it new keywords, or took it out. */
    public enum Action { KEPT, REPAIRED, DROPPED }

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
