package dev.workingmemory.store;

/**
 * The one exception type for storage failures of a {@link WorkingMemoryStore}.
 */
public class WorkingMemoryStoreException extends RuntimeException {

    /** A failure described by {@code message}. */
    public WorkingMemoryStoreException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public WorkingMemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
