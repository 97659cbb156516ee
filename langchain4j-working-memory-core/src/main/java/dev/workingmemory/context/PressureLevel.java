package dev.workingmemory.context;

import java.util.Locale;

/**
 * How full a request is against the model's context window (seed 003, tier 4), and the {@link PruningMode} that goes
 * with it: safe (below 75% by default) prunes tool results normally, moderate (from 75%) aggressively, high (from 90%)
 * hyper-aggressively and makes the memory intervene.
 *
 * <p>Immutable and thread-safe.
 */
public enum PressureLevel {
    SAFE(PruningMode.NORMAL),
    MODERATE(PruningMode.AGGRESSIVE),
    HIGH(PruningMode.HYPER);

    private final PruningMode mode;

    PressureLevel(PruningMode mode) {
        this.mode = mode;
    }

    /** How hard tool results are pruned at this level. */
    public PruningMode pruningMode() {
        return mode;
    }

    /** The lower-case name the block shows: {@code safe}, {@code moderate}, {@code high}. */
    public String textName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
