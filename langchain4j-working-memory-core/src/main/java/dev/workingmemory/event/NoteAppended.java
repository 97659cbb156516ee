package dev.workingmemory.event;

import dev.workingmemory.notes.Note;

/**
 * A note appended to the notes log of a resource. Immutable.
 *
 * @param resource the resource (user) whose log holds it
 * @param note     the note
 * @param pending  the notes in the log after the append and the budget's archival or deletion
 * @param archived how many older notes the soft limit archived
 * @param deleted  how many older notes the hard limit deleted
 */
public record NoteAppended(String resource, Note note, int pending, int archived, int deleted) {
}
