package dev.workingmemory.internal;

/**
 * Thrown when a memory finds that its conversation was deleted behind it (its resource forgotten, or its thread
 * deleted, by another instance or thread): what it holds was said before that and must not be used or written again.
 * Its provider drops the resource's memories without saving them and loads them again, empty.
 */
public final class MemoryForgottenException extends IllegalStateException {

    public MemoryForgottenException(String storeKey) {
        super("The conversation of this working memory (" + storeKey + ") was deleted elsewhere: get the memory again"
                + " from the WorkingMemoryProvider");
    }
}
