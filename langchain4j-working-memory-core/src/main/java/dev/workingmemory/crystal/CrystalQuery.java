package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

import java.util.Set;

/**
 * A search of one scope's crystals.
 *
 * <p>Immutable and thread-safe.
 *
 * @param scope whose crystals to search; no other scope's crystal is ever returned
 * @param text  what to look for, not blank, at most {@value #MAX_TEXT_LENGTH} characters
 * @param limit the most hits to return, 1 to {@value #MAX_LIMIT}
 * @param kinds the kinds to search; empty (or null) for all
 */
public record CrystalQuery(String scope, String text, int limit, Set<CrystalKind> kinds) {

    /** The longest query text accepted. */
    public static final int MAX_TEXT_LENGTH = 4_000;
    /** The most hits one query may ask for. */
    public static final int MAX_LIMIT = 1_000;

    /** Checks the values as described above (an {@link IllegalArgumentException} when one is out of range) and copies {@code kinds}. */
    public CrystalQuery {
        Ensure.notBlank(scope, "scope");
        Ensure.notBlank(text, "text");
        Ensure.that(text.length() <= MAX_TEXT_LENGTH, "text must be at most " + MAX_TEXT_LENGTH
                + " characters, was " + text.length());
        Ensure.that(limit >= 1 && limit <= MAX_LIMIT, "limit must be within 1 and " + MAX_LIMIT + ", was " + limit);
        kinds = kinds == null ? Set.of() : Set.copyOf(kinds);
    }

    /** A query over every kind. */
    public CrystalQuery(String scope, String text, int limit) {
        this(scope, text, limit, Set.of());
    }
}
