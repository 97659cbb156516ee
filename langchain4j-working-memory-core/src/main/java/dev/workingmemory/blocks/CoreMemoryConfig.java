package dev.workingmemory.blocks;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which core memory blocks exist and how large each may grow.
 *
 * <p>The defaults are seed 003's: {@code goal} 1,000 characters, {@code progress} 2,000 and
 * {@code context} 1,500. Block names are lower-case identifiers so they can be tags of the block.
 *
 * <p>Immutable and thread-safe.
 */
public final class CoreMemoryConfig {

    private static final Pattern BLOCK_NAME = Pattern.compile("[a-z][a-z0-9_]{0,39}");

    private final Map<String, Integer> blockLimits;
    private final LayerBudget budget;

    private CoreMemoryConfig(Builder builder) {
        Ensure.that(!builder.blockLimits.isEmpty(), "core memory needs at least one block");
        this.blockLimits = Collections.unmodifiableMap(new LinkedHashMap<>(builder.blockLimits));
        int total = blockLimits.values().stream().mapToInt(Integer::intValue).sum();
        this.budget = builder.budget != null ? builder.budget : LayerBudget.of(Math.min(600, total), total + 64 * blockLimits.size());
    }

    /** The seed's three blocks ({@code goal}, {@code progress}, {@code context}) and the default budget. */
    public static CoreMemoryConfig defaults() {
        return builder().build();
    }

    /** A builder that starts with the three default blocks. */
    public static Builder builder() {
        return new Builder();
    }

    /** Block names and their character limits, in rendering order. */
    public Map<String, Integer> blockLimits() {
        return blockLimits;
    }

    /**
     * The layer's share of the block: the one set, else at least {@code min(600, sum of limits)} characters and at most
     * the sum of the limits plus 64 per block (for the tags).
     */
    public LayerBudget budget() {
        return budget;
    }

    /** Builds a {@link CoreMemoryConfig}. Not thread-safe. */
    public static final class Builder {

        private final Map<String, Integer> blockLimits = new LinkedHashMap<>();
        private LayerBudget budget;

        private Builder() {
            blockLimits.put("goal", 1000);
            blockLimits.put("progress", 2000);
            blockLimits.put("context", 1500);
        }

        /** Adds a block, or changes the limit of an existing one. */
        public Builder block(String name, int maxChars) {
            Ensure.notNull(name, "name");
            Ensure.that(BLOCK_NAME.matcher(name).matches(),
                    "block name '" + name + "' must match " + BLOCK_NAME.pattern());
            blockLimits.put(name, Ensure.positive(maxChars, "maxChars"));
            return this;
        }

        /** Removes a block, default ones included. */
        public Builder withoutBlock(String name) {
            blockLimits.remove(name);
            return this;
        }

        /**
         * The layer's share of the block; by default at least 600 characters (all the blocks' limits together when
         * they allow less) and at most all blocks full.
         */
        public Builder budget(LayerBudget budget) {
            this.budget = Ensure.notNull(budget, "budget");
            return this;
        }

        /** @throws IllegalArgumentException when no block is left */
        public CoreMemoryConfig build() {
            return new CoreMemoryConfig(this);
        }
    }
}
