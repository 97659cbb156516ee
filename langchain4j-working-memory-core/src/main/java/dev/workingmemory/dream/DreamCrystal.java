package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/**
 * A long-term memory as a dream sees it: the crystal store's id, kind ({@code note}, {@code migrated}, …), time,
 * importance from 0 to 1 and text. The dream engine maps the crystal store's crystals to these.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id         the crystal store's id
 * @param kind       what the crystal was made from, as its kind's lower-case name
 * @param time       when what it holds happened or was said
 * @param importance 0 (trivia) to 1 (essential)
 * @param text       its text
 */
public record DreamCrystal(String id, String kind, Instant time, double importance, String text) {

    /**
     * Rejects a blank {@code id} or {@code kind}, a null {@code time} or {@code text} and an {@code importance} outside
     * 0–1 with an {@link IllegalArgumentException}.
     */
    public DreamCrystal {
        Ensure.notBlank(id, "id");
        Ensure.notBlank(kind, "kind");
        Ensure.notNull(time, "time");
        Ensure.that(importance >= 0 && importance <= 1, "importance must be between 0 and 1, was " + importance);
        Ensure.notNull(text, "text");
    }

    DreamCrystal withText(String text) {
        return new DreamCrystal(id, kind, time, importance, text);
    }
}
