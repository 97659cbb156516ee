package dev.workingmemory.render;

import dev.workingmemory.internal.Ensure;

/**
 * The size of the {@code <working_memory>} block, in characters, for a model's context window.
 *
 * <p>Seed 000's table: 200K tokens and more → 8,000 characters; 128K → 6,000; 64K → 4,000; 32K → 3,200.
 * Windows between two rows get the lower row's budget. Below 32K the block gets a tenth of the window's
 * tokens in characters (about 2.5% of the window), but never less than 800 characters.
 *
 * <p>Thread-safe (stateless).
 */
public final class BlockBudget {

    private BlockBudget() {
    }

    /**
     * The block's size in characters for a context window of {@code contextWindowTokens} tokens, by the table above.
     *
     * @throws IllegalArgumentException unless {@code contextWindowTokens} is positive
     */
    public static int forContextWindow(int contextWindowTokens) {
        Ensure.positive(contextWindowTokens, "contextWindowTokens");
        if (contextWindowTokens >= 200_000) {
            return 8_000;
        }
        if (contextWindowTokens >= 128_000) {
            return 6_000;
        }
        if (contextWindowTokens >= 64_000) {
            return 4_000;
        }
        if (contextWindowTokens >= 32_000) {
            return 3_200;
        }
        return Math.max(800, contextWindowTokens / 10);
    }
}
