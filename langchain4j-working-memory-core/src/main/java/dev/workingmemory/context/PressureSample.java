package dev.workingmemory.context;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/**
 * The context pressure of one request, as {@link ContextPressure#history()} keeps it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param time             when the request was measured, by the memory's clock
 * @param level            its level
 * @param percent          its measured size against the context window, in percent (tool results pruned normally)
 * @param tokens           its measured size in tokens
 * @param sentTokens       the tokens of the request as sent, after pruning and any intervention
 * @param contextWindow    the model's context window in tokens
 * @param intervened       whether the request reached {@link PressureLevel#HIGH} and the memory intervened
 * @param outputsShortened older tool results this request's intervention replaced by a reference (0 without one)
 * @param turnsEvicted     oldest turns this request's intervention moved out of the window (0 without one)
 */
public record PressureSample(Instant time, PressureLevel level, int percent, int tokens, int sentTokens,
                             int contextWindow, boolean intervened, int outputsShortened, int turnsEvicted) {

    /** Rejects a null {@code time} or {@code level} with an {@link IllegalArgumentException}. */
    public PressureSample {
        Ensure.notNull(time, "time");
        Ensure.notNull(level, "level");
    }
}
