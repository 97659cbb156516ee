package dev.workingmemory.scratchpad;

/**
 * A scratchpad update was rejected: it was not a JSON object, its merged state failed the schema,
 * or it made the state too large. The message says what was received and what is expected, in words
 * a model can act on; the scratchpad kept its previous state.
 *
 * <p>Immutable and thread-safe.
 */
public class ScratchpadUpdateException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** An exception whose {@code message} says what was received and what is expected. */
    public ScratchpadUpdateException(String message) {
        super(message);
    }

    /** An exception whose {@code message} says what was received and what is expected, caused by {@code cause}. */
    public ScratchpadUpdateException(String message, Throwable cause) {
        super(message, cause);
    }
}
