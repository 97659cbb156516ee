package dev.workingmemory.dream;

import java.util.Locale;

/**
 * The three salience signals of seed 000 ("hormones"), each weighting a part of the state document.
 *
 * <p>Thread-safe (immutable).
 */
public enum Hormone {

    /** Breakthroughs and success; weights Active Context (wins). */
    DOPAMINE("achievement/breakthrough detected"),
    /** Friction, errors and frustration; weights Active Context (things to avoid). */
    CORTISOL("friction/frustration detected"),
    /** Bonding and gratitude; weights The Bond. */
    OXYTOCIN("bonding/gratitude detected");

    private final String event;

    Hormone(String event) {
        this.event = event;
    }

    /** Lower-case name, as the auto-notes, the mood line and the prompt write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What a spike of this hormone means, as the auto-note says it: {@code achievement/breakthrough detected}. */
    public String event() {
        return event;
    }
}
