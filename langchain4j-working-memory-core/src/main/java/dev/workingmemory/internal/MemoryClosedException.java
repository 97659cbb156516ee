package dev.workingmemory.internal;

/**
 * Thrown when a write reaches a memory that was evicted or closed; callers that can get the memory
 * again from its provider retry with the new instance.
 */
public final class MemoryClosedException extends IllegalStateException {

    public MemoryClosedException(String storeKey) {
        super("This working memory (" + storeKey + ") was evicted or closed: get it again from the WorkingMemoryProvider");
    }
}
