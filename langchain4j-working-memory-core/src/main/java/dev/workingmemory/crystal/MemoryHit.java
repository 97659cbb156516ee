package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/**
 * What {@code WorkingMemory.search} found: a crystal's text (never its context), kind and time, the score that ranked
 * it (higher is better; comparable only within one search) with its parts, and the tokens its text counts by the
 * provider's {@code TokenCountEstimator}, which the search's token budget adds up.
 *
 * <p>A hit is a passage: of a past turn, a note or a tool output. Its id reads as {@code <whole>#<n>} when it is
 * passage {@code n} of a longer whole (an exchange, a note, a tool output), which can be read in full by that id
 * ({@code memory_read}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param id          the crystal's id
 * @param kind        what the crystal was made from (a note, a past turn, ...)
 * @param time        when what it holds happened or was said
 * @param text        the crystal's text
 * @param score       the search's score
 * @param tokens      the estimated tokens of {@code text}
 * @param scores      the parts of {@code score} (see {@link HitScores})
 * @param earlierThan the id of a newer hit of the same search that states the same thing (and ranks above this one),
 *                    or null: this hit may hold a value that changed since
 */
public record MemoryHit(String id, CrystalKind kind, Instant time, String text, double score, int tokens,
                        HitScores scores, String earlierThan) {

    /**
     * Rejects a blank {@code id}, a null {@code kind}, {@code time} or {@code text} and negative {@code tokens} with an
     * {@link IllegalArgumentException}; a null {@code scores} is taken as the score alone.
     */
    public MemoryHit {
        Ensure.notBlank(id, "id");
        Ensure.notNull(kind, "kind");
        Ensure.notNull(time, "time");
        Ensure.notNull(text, "text");
        Ensure.notNegative(tokens, "tokens");
        scores = scores == null ? HitScores.fusedOnly(score) : scores;
    }

    /** A hit whose score's parts are unknown and that nothing newer supersedes. */
    public MemoryHit(String id, CrystalKind kind, Instant time, String text, double score, int tokens) {
        this(id, kind, time, text, score, tokens, HitScores.fusedOnly(score), null);
    }

    /** This hit marked as earlier than the newer hit {@code newerId}. */
    public MemoryHit markedEarlierThan(String newerId) {
        return new MemoryHit(id, kind, time, text, score, tokens, scores, newerId);
    }
}
