package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.notes.Note;

import java.time.Instant;
import java.util.List;

/**
 * A note the salience rule writes when a level spikes (seed 000's "belt and suspenders"): the agent may forget to note
 * a high-valence moment, the memory does not.
 * <pre>
 * [AUTO] Hormonal event: dopamine spike (achievement/breakthrough detected). Level 0.86; trigger: user message "IT FINALLY WORKS!!!"
 * </pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param hormone    the hormone whose level spiked
 * @param level      its level when the note was made, 0 to 1
 * @param text       the note's text, as above
 * @param importance the note's importance, 0 to 1 (the salience's {@code autoNoteImportance}, default 0.8)
 */
public record AutoNote(Hormone hormone, double level, String text, double importance) {

    /** The tag of an auto-note in the notes log. */
    public static final String TAG = "auto";

    /** Rejects a null {@code hormone}, a blank {@code text} and an {@code importance} outside 0–1 with an {@link IllegalArgumentException}. */
    public AutoNote {
        Ensure.notNull(hormone, "hormone");
        Ensure.notBlank(text, "text");
        Ensure.that(importance >= 0 && importance <= 1, "importance must be between 0 and 1, was " + importance);
    }

    /** The note to append to the notes log, taken at {@code time}, tagged {@value #TAG}. */
    public Note toNote(Instant time) {
        return new Note(time, importance, List.of(TAG), text);
    }
}
