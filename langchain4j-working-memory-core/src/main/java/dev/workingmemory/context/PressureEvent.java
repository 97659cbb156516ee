package dev.workingmemory.context;

import dev.workingmemory.MemoryKey;

/**
 * What the memory did when a request reached {@link PressureLevel#HIGH}, for a {@link PressureListener}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param key                 whose request it was
 * @param tokensBefore        the request's tokens as measured (tool results pruned normally), before the intervention
 * @param tokensAfter         the tokens of the request as it is sent
 * @param contextWindow       the model's context window in tokens
 * @param outputsShortened    older tool results replaced by a one-line reference to their cached full output
 * @param turnsEvicted        oldest turns moved out of the message window
 * @param interventions       the interventions of this memory so far, this one included
 */
public record PressureEvent(MemoryKey key, int tokensBefore, int tokensAfter, int contextWindow, int outputsShortened,
                            int turnsEvicted, int interventions) {
}
