package dev.workingmemory.store;

/**
 * The one exception type for storage failures of a {@link WorkingMemoryStore}.
 */
public class WorkingMemoryStoreException extends RuntimeException {

    public WorkingMemoryStoreException(String message) {
        super(message);
    }

    public WorkingMemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
