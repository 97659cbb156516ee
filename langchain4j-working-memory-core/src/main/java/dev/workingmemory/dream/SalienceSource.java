package dev.workingmemory.dream;

import dev.workingmemory.crystal.Provenance;

/**
 * Where a text scored for salience came from.
 *
 * <p>Thread-safe (immutable).
 */
public enum SalienceSource {
    /** A message of the user. */
    USER_MESSAGE("user message", Provenance.USER),
    /** A message of the model. */
    ASSISTANT_MESSAGE("assistant message", Provenance.MODEL),
    /** A tool result that did not say it failed (it may still hold an error text or a stack trace). */
    TOOL_RESULT("tool result", Provenance.TOOL),
    /** A tool result flagged as an error, or a tool call that threw. */
    TOOL_ERROR("tool error", Provenance.TOOL);

    private final String label;
    private final Provenance provenance;

    SalienceSource(String label, Provenance provenance) {
        this.label = label;
        this.provenance = provenance;
    }

    /** {@code user message}, {@code tool error}, … as an auto-note names it. */
    public String label() {
        return label;
    }

    /** Who wrote the text: an auto-note quotes only a user's ({@link Provenance#USER}). */
    public Provenance provenance() {
        return provenance;
    }
}
