package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/**
 * What {@code WorkingMemory.search} found: a crystal's text (never its context), kind and time, the score that ranked
 * it (higher is better; comparable only within one search) and the tokens its text counts by the provider's
 * {@code TokenCountEstimator}, which the search's token budget adds up.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id     the crystal's id
 * @param kind   what the crystal was made from (a note, a past turn, ...)
 * @param time   when what it holds happened or was said
 * @param text   the crystal's text
 * @param score  the search's score
 * @param tokens the estimated tokens of {@code text}
 */
public record MemoryHit(String id, CrystalKind kind, Instant time, String text, double score, int tokens) {

    public MemoryHit {
        Ensure.notBlank(id, "id");
        Ensure.notNull(kind, "kind");
        Ensure.notNull(time, "time");
        Ensure.notNull(text, "text");
        Ensure.notNegative(tokens, "tokens");
    }
}
