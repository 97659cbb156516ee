package dev.workingmemory.context;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;

import java.util.Set;

/**
 * How the {@link ContextPressure} layer measures requests and prunes tool results. Defaults (seed 003): moderate from
 * 75% of the context window, high from 90%; tool results pruned by {@link ToolOutputPruner#defaults()} in the mode of
 * the level, but only a large one: at least 1% of the context window, and at most 1,000 tokens (at 128K, 1,000
 * tokens, about 4,000 characters; at 8K, 80), half that from moderate pressure and a quarter from high; never the
 * results of the memory's own tools ({@code read_tool_output}, {@code core_memory_read}, ...:
 * {@link dev.workingmemory.MemoryToolNames}); the {@code <pressure>} element takes at most 600 characters of the block.
 *
 * <p>Immutable and thread-safe.
 */
public final class ContextPressureConfig {

    private final double moderate;
    private final double high;
    private final ToolOutputPruner pruner;
    private final Set<String> unprunedTools;
    private final double largeOutputShare;
    private final int largeOutputMaxTokens;
    private final LayerBudget budget;

    private ContextPressureConfig(Builder builder) {
        Ensure.that(builder.moderate > 0 && builder.moderate < builder.high && builder.high <= 1,
                "Thresholds must satisfy 0 < moderate < high <= 1, were moderate " + builder.moderate + " and high "
                        + builder.high);
        this.moderate = builder.moderate;
        this.high = builder.high;
        this.pruner = Ensure.notNull(builder.pruner, "pruner");
        this.unprunedTools = Set.copyOf(builder.unprunedTools);
        Ensure.that(builder.largeOutputShare >= 0 && builder.largeOutputShare <= 1,
                "The share of the context window must be within 0 and 1, was " + builder.largeOutputShare);
        this.largeOutputShare = builder.largeOutputShare;
        this.largeOutputMaxTokens = Ensure.notNegative(builder.largeOutputMaxTokens, "maxTokens");
        this.budget = Ensure.notNull(builder.budget, "budget");
    }

    /** Seed 003's defaults, as listed above. */
    public static ContextPressureConfig defaults() {
        return builder().build();
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The share of the context window from which pressure is moderate; default 0.75. */
    public double moderateThreshold() {
        return moderate;
    }

    /** The share of the context window from which pressure is high; default 0.90. */
    public double highThreshold() {
        return high;
    }

    /** The pruner of tool results and its limits per mode; default {@link ToolOutputPruner#defaults()}. */
    public ToolOutputPruner pruner() {
        return pruner;
    }

    /** Tools of the application whose results are never pruned, beside the memory's own tools. */
    public Set<String> unprunedTools() {
        return unprunedTools;
    }

    /** The {@code <pressure>} element's share of the block; default 0 to 600 characters. */
    public LayerBudget budget() {
        return budget;
    }

    /**
     * The size from which a tool result is large enough to prune in {@code mode}, in tokens by the provider's estimator:
     * the {@linkplain Builder#largeOutput share} of the context window, at most its maximum, halved in aggressive mode
     * and quartered in hyper mode (as the line thresholds shrink). A smaller result is sent whole: cutting it would free
     * little of the window, and reading the cut part back costs a {@code read_tool_output} round trip that sends the
     * whole request again.
     */
    public int largeOutputTokens(PruningMode mode, int contextWindow) {
        long tokens = Math.min(largeOutputMaxTokens, Math.round(largeOutputShare * contextWindow));
        return (int) switch (Ensure.notNull(mode, "mode")) {
            case NORMAL -> tokens;
            case AGGRESSIVE -> tokens / 2;
            case HYPER -> tokens / 4;
        };
    }

    /** The level of a request of {@code tokens} against a window of {@code contextWindow} tokens. */
    public PressureLevel levelOf(long tokens, int contextWindow) {
        if (tokens >= high * contextWindow) {
            return PressureLevel.HIGH;
        }
        return tokens >= moderate * contextWindow ? PressureLevel.MODERATE : PressureLevel.SAFE;
    }

    /** Builds a {@link ContextPressureConfig}. Not thread-safe. */
    public static final class Builder {

        private double moderate = 0.75;
        private double high = 0.90;
        private ToolOutputPruner pruner = ToolOutputPruner.defaults();
        private Set<String> unprunedTools = Set.of();
        private double largeOutputShare = 0.01;
        private int largeOutputMaxTokens = 1_000;
        private LayerBudget budget = LayerBudget.of(0, 600);

        private Builder() {
        }

        /** The shares of the context window from which pressure is moderate and high ({@code 0 < moderate < high <= 1}). */
        public Builder thresholds(double moderate, double high) {
            this.moderate = moderate;
            this.high = high;
            return this;
        }

        /** The pruner and its limits per mode (line thresholds, head and tail, the char threshold of long lines). */
        public Builder pruner(ToolOutputPruner pruner) {
            this.pruner = pruner;
            return this;
        }

        /**
         * Tools of the application whose results are never pruned; default none. The memory's own tools need not be
         * named: they register themselves ({@link dev.workingmemory.MemoryToolNames}).
         */
        public Builder unprunedTools(Set<String> toolNames) {
            this.unprunedTools = Ensure.notNull(toolNames, "toolNames");
            return this;
        }

        /**
         * Which tool results are large enough to prune: from {@code shareOfContextWindow} of the context window
         * (default 0.01), at most {@code maxTokens} (default 1,000), halved at moderate pressure and quartered at high
         * (see {@link #largeOutputTokens}). {@code (0, 0)} prunes by the line rules alone.
         */
        public Builder largeOutput(double shareOfContextWindow, int maxTokens) {
            this.largeOutputShare = shareOfContextWindow;
            this.largeOutputMaxTokens = maxTokens;
            return this;
        }

        /** The {@code <pressure>} element's share of the block; default 0 to 600 characters. */
        public Builder budget(LayerBudget budget) {
            this.budget = budget;
            return this;
        }

        /**
         * @throws IllegalArgumentException unless {@code 0 < moderate < high <= 1} and the large-output share is within
         *                                  0 and 1, or when its maximum is negative or the pruner or budget is null
         */
        public ContextPressureConfig build() {
            return new ContextPressureConfig(this);
        }
    }
}
