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

    public CoreBlock {
        Ensure.notBlank(name, "name");
        Ensure.notNull(content, "content");
        Ensure.positive(maxChars, "maxChars");
    }

    public int chars() {
        return content.length();
    }
}
