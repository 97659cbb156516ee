package dev.workingmemory.blocks;

import dev.workingmemory.internal.Ensure;

/**
 * One named block of core memory and its content.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name     the block's name ({@code goal}, {@code progress}, {@code context} or a custom one)
 * @param content  the current content, {@code ""} when empty
 * @param maxChars the most characters the block may hold
 */
public record CoreBlock(String name, String content, int maxChars) {

    /** Rejects a blank {@code name}, a null {@code content} or a {@code maxChars} below 1 with an {@link IllegalArgumentException}. */
    public CoreBlock {
        Ensure.notBlank(name, "name");
        Ensure.notNull(content, "content");
        Ensure.positive(maxChars, "maxChars");
    }

    /** The characters the content holds now ({@code content().length()}). */
    public int chars() {
        return content.length();
    }
}
