package dev.workingmemory.render;

import dev.workingmemory.internal.Ensure;

/**
 * What one layer had of the {@code <working_memory>} block when it was last rendered: its budget, the characters it
 * needed (its part rendered at its own maximum) and those the block gave it. When the layers together need more than
 * the block's budget, the renderer serves them by priority (first up to their minimum, then up to what they need) and
 * a layer given less than it needs renders again within its share, marking the cut.
 *
 * <p>Immutable and thread-safe.
 *
 * @param layer       the layer's name (its tag in the block)
 * @param priority    its budget precedence: higher is served first
 * @param minChars    its budget's minimum
 * @param maxChars    its budget's maximum
 * @param neededChars the length of its part rendered at {@code maxChars}; 0 when it had nothing to show
 * @param usedChars   the length of its part in the block
 */
public record LayerShare(String layer, int priority, int minChars, int maxChars, int neededChars, int usedChars) {

    /** Rejects a blank {@code layer} or a negative {@code neededChars} or {@code usedChars} with an {@link IllegalArgumentException}. */
    public LayerShare {
        Ensure.notBlank(layer, "layer");
        Ensure.notNegative(neededChars, "neededChars");
        Ensure.notNegative(usedChars, "usedChars");
    }

    /** The characters of its part the block's budget cut ({@code neededChars - usedChars}); 0 when it fit. */
    public int charsCut() {
        return Math.max(0, neededChars - usedChars);
    }
}
