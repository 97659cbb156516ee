package dev.workingmemory.layer;

import dev.workingmemory.internal.Ensure;

/**
 * How many characters of the {@code <working_memory>} block a layer may take.
 *
 * <p>The renderer grants every layer up to {@code minChars} first (by priority, while the total
 * lasts), then shares what is left by priority, never more than {@code maxChars}. Budgets are in
 * characters, about four per token.
 *
 * <p>Immutable and thread-safe.
 *
 * @param minChars the characters the layer is granted first, while the block's total lasts; 0 or more
 * @param maxChars the most characters the layer may take; at least 1 and at least {@code minChars}
 */
public record LayerBudget(int minChars, int maxChars) {

    /** Rejects a negative {@code minChars}, a {@code maxChars} below 1 or below {@code minChars} with an {@link IllegalArgumentException}. */
    public LayerBudget {
        Ensure.notNegative(minChars, "minChars");
        Ensure.positive(maxChars, "maxChars");
        Ensure.that(minChars <= maxChars,
                "minChars (" + minChars + ") must not exceed maxChars (" + maxChars + ")");
    }

    /** The same as the constructor. */
    public static LayerBudget of(int minChars, int maxChars) {
        return new LayerBudget(minChars, maxChars);
    }
}
