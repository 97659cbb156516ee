package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.OptionalInt;

/**
 * What a {@link DreamSynthesizer} produced: the new state as markdown (normalized: what a commit would store, judged
 * by the {@link CollapseGuards}), the tokens the model reported (empty when unknown or offline), the raw answer of the
 * last model call (the state itself offline) and how many model calls it took.
 *
 * <p>Immutable and thread-safe.
 *
 * @param state      the new state as normalized markdown
 * @param tokensUsed the tokens the model reported; empty when unknown or offline
 * @param rawAnswer  the raw answer of the last model call; the state itself offline
 * @param modelCalls how many model calls the synthesis took; 0 or more
 */
public record Synthesis(String state, OptionalInt tokensUsed, String rawAnswer, int modelCalls) {

    /** Rejects a null object component or negative {@code modelCalls} with an {@link IllegalArgumentException}. */
    public Synthesis {
        Ensure.notNull(state, "state");
        Ensure.notNull(tokensUsed, "tokensUsed");
        Ensure.notNull(rawAnswer, "rawAnswer");
        Ensure.notNegative(modelCalls, "modelCalls");
    }
}
