package dev.workingmemory.context;

/**
 * The context pressure of a memory's last request, for {@code working_memory_stats}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param level         the level of the last request
 * @param percent       its measured size against the context window, in percent (tool results pruned normally)
 * @param tokens        its measured size in tokens
 * @param sentTokens    the tokens of the request as sent, after pruning and any intervention
 * @param contextWindow the model's context window in tokens
 * @param interventions how often the memory intervened at {@link PressureLevel#HIGH}
 */
public record PressureStats(PressureLevel level, int percent, int tokens, int sentTokens, int contextWindow,
                            int interventions) {
}
