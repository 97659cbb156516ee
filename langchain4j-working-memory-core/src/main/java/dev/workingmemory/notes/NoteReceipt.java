package dev.workingmemory.notes;

import java.util.List;

/**
 * What taking a note did: the note as stored, how many notes are pending now, and the notes the budget archived or
 * deleted to make room.
 *
 * <p>Immutable and thread-safe.
 *
 * @param note     the note as stored
 * @param pending  the notes pending in the log after it, archived and deleted ones gone
 * @param archived the notes archived to make room (they stay searchable as crystals)
 * @param deleted  the notes deleted to make room, crystals included
 */
public record NoteReceipt(Note note, int pending, List<Note> archived, List<Note> deleted) {

    /** Copies the lists. */
    public NoteReceipt {
        archived = List.copyOf(archived);
        deleted = List.copyOf(deleted);
    }
}
