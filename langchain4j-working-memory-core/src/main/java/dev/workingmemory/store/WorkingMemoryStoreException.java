package dev.workingmemory.store;

/**
 * The one exception type for storage failures of a {@link WorkingMemoryStore}.
 *
 * <p>Immutable, so thread-safe.
 */
public class WorkingMemoryStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public WorkingMemoryStoreException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public WorkingMemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
