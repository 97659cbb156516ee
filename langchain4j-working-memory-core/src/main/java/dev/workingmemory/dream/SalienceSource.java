package dev.workingmemory.dream;

/**
 * Where a text scored for salience came from.
 *
 * <p>Thread-safe (immutable).
 */
public enum SalienceSource {
    USER_MESSAGE("user message"),
    ASSISTANT_MESSAGE("assistant message"),
    /** A tool result that did not say it failed (it may still hold an error text or a stack trace). */
    TOOL_RESULT("tool result"),
    /** A tool result flagged as an error, or a tool call that threw. */
    TOOL_ERROR("tool error");

    private final String label;

    SalienceSource(String label) {
        this.label = label;
    }

    /** {@code user message}, {@code tool error}, … as an auto-note names it. */
    public String label() {
        return label;
    }
}
