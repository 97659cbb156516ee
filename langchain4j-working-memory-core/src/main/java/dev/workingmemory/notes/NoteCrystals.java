package dev.workingmemory.notes;

import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;

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

    /**
     * Each note taken, or archived, as a crystal of {@code crystals}, in the resource's scope
     * ({@link dev.workingmemory.MemoryKey#crystalScope()}): a {@link CrystalKind#NOTE} crystal when taken, an
     * {@link CrystalKind#ARCHIVED_NOTE} (same id, replacing it) when archived, deleted with the note at the hard limit;
     * a note read from the log without a crystal (the process stopped between the append and the crystal, or another
     * process with its own crystals took it) gets one. A failing crystal store is logged, never thrown: the note is
     * stored either way.
     */
    static NoteCrystals into(CrystalStore crystals) {
        return new NotesAsCrystals(crystals);
    }

    /** A note was appended to the log. */
    void added(String resource, Note note);

    /** The budget archived these notes: they left the log and stay searchable. */
    void archived(String resource, List<Note> notes);

    /** The budget deleted these notes: nothing of them may stay. */
    void deleted(String resource, List<Note> notes);

    /**
     * These notes were read from the log without this instance having taken them (when the memory is loaded, and
     * when another instance appended them): each must have a crystal. The default does nothing.
     */
    default void found(String resource, List<Note> notes) {
    }
}
