package dev.workingmemory.context;

/**
 * How hard {@link ToolOutputPruner} cuts a tool result (seed 003, tier 3); the context pressure picks it: normal below
 * 75% of the context window, aggressive from 75%, hyper from 90%.
 */
public enum PruningMode {
    /** Over 50 lines: the first and last 30 are kept. */
    NORMAL,
    /** Over 30 lines: the first and last 20 are kept. */
    AGGRESSIVE,
    /** Over 15 lines: the first and last 10 are kept. */
    HYPER
}
