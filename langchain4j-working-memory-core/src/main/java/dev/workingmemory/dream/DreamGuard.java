package dev.workingmemory.dream;

/**
 * The collapse guards of seed 000 (and the schema and budget checks) that can reject a synthesized state; see
 * {@link CollapseGuards} for their thresholds. Declared in the order the guards run.
 *
 * <p>Thread-safe (immutable).
 */
public enum DreamGuard {
    /** A configured section is missing (also what an empty or unrelated answer gives). */
    MISSING_SECTION,
    /** Sections are there but say (almost) nothing. */
    EMPTY_SYNTHESIS,
    /** The synthesizer wrote more pointers than allowed: it evicted active topics wholesale. */
    POINTER_RUNAWAY,
    /** The new state is much shorter than a mature old one: the synthesis lost most of it. */
    MASS_DROP,
    /** The new state is longer than its budget (the LLM synthesizer has already retried once). */
    OVER_BUDGET
}
