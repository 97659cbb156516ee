package dev.workingmemory.context;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;

import java.util.Set;

/**
 * How the {@link ContextPressure} layer measures requests and prunes tool results. Defaults (seed 003): moderate from
 * 75% of the context window, high from 90%; tool results pruned by {@link ToolOutputPruner#defaults()} in the mode of
 * the level; results of {@value ContextPressure#READ_TOOL_OUTPUT} never pruned (they are pages of a cached output
 * the model asked for); the {@code <pressure>} element takes at most 600 characters of the block.
 *
 * <p>Immutable and thread-safe.
 */
public final class ContextPressureConfig {

    private final double moderate;
    private final double high;
    private final ToolOutputPruner pruner;
    private final Set<String> unprunedTools;
    private final LayerBudget budget;

    private ContextPressureConfig(Builder builder) {
        Ensure.that(builder.moderate > 0 && builder.moderate < builder.high && builder.high <= 1,
                "Thresholds must satisfy 0 < moderate < high <= 1, were moderate " + builder.moderate + " and high "
                        + builder.high);
        this.moderate = builder.moderate;
        this.high = builder.high;
        this.pruner = Ensure.notNull(builder.pruner, "pruner");
        this.unprunedTools = Set.copyOf(builder.unprunedTools);
        this.budget = Ensure.notNull(builder.budget, "budget");
    }

    public static ContextPressureConfig defaults() {
        return builder().build();
    }

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

    public ToolOutputPruner pruner() {
        return pruner;
    }

    /** Tools whose results are never pruned. */
    public Set<String> unprunedTools() {
        return unprunedTools;
    }

    public LayerBudget budget() {
        return budget;
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
        private Set<String> unprunedTools = Set.of(ContextPressure.READ_TOOL_OUTPUT);
        private LayerBudget budget = LayerBudget.of(0, 600);

        private Builder() {
        }

        /** The shares of the context window from which pressure is moderate and high (0 < moderate < high <= 1). */
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

        /** Tools whose results are never pruned; default {@value ContextPressure#READ_TOOL_OUTPUT}. */
        public Builder unprunedTools(Set<String> toolNames) {
            this.unprunedTools = Ensure.notNull(toolNames, "toolNames");
            return this;
        }

        public Builder budget(LayerBudget budget) {
            this.budget = budget;
            return this;
        }

        public ContextPressureConfig build() {
            return new ContextPressureConfig(this);
        }
    }
}
