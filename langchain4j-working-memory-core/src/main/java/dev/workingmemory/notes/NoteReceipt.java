package dev.workingmemory.notes;

import java.util.List;

/**
 * What taking a note did: the note as stored, how many notes are pending now, and the notes the budget archived or
 * deleted to make room.
 *
 * <p>Immutable and thread-safe.
 */
public record NoteReceipt(Note note, int pending, List<Note> archived, List<Note> deleted) {

    public NoteReceipt {
        archived = List.copyOf(archived);
        deleted = List.copyOf(deleted);
    }
}
