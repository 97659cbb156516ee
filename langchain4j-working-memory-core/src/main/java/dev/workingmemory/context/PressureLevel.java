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
    /** Below the moderate threshold (default 75%): tool results are pruned in {@link PruningMode#NORMAL} mode. */
    SAFE(PruningMode.NORMAL),
    /** From the moderate threshold (default 75%): {@link PruningMode#AGGRESSIVE} mode. */
    MODERATE(PruningMode.AGGRESSIVE),
    /** From the high threshold (default 90%): {@link PruningMode#HYPER} mode, and the memory intervenes. */
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
