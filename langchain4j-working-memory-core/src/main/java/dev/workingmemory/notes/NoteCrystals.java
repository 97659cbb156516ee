package dev.workingmemory.notes;

import java.util.List;

/**
 * Where the notes layer reports what happens to notes, so that each note is also a searchable crystal (seed 000:
 * searchable before any dream): indexed when taken, kept as an archived crystal when the soft limit archives it,
 * deleted with it at the hard limit. Called holding the resource's lock: implementations must not block (enqueue).
 *
 * <p>Implementations must be thread-safe.
 */
public interface NoteCrystals {

    /** Keeps nothing: notes are not searchable. */
    NoteCrystals NONE = new NoteCrystals() {
        @Override
        public void added(String resource, Note note) {
        }

        @Override
        public void archived(String resource, List<Note> notes) {
        }

        @Override
        public void deleted(String resource, List<Note> notes) {
        }
    };

    void added(String resource, Note note);

    void archived(String resource, List<Note> notes);

    void deleted(String resource, List<Note> notes);
}
