package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;
import java.util.List;

/**
 * One dream as the store keeps it (the document {@value DreamRecords#DOCUMENT} of the resource): the state before and
 * after, the exact lines of the notes it consumed, its time and sizes. Written before the dream's state, so that a
 * crash in the middle of a commit is finished on the next load ({@link Status#PENDING}), and kept afterwards so that
 * the dream can be rolled back.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id            unique per resource, increasing
 * @param time          when the dream ran
 * @param status        how far its commit got
 * @param previousState the MEMORY.md text before the dream, {@code null} when there was none
 * @param state         the MEMORY.md text the dream committed
 * @param consumedNotes the lines of the notes log it consumed, exactly as stored
 * @param inputChars    the size of its input
 * @param outputChars   the size of the synthesized state
 * @param transition    whether it was the first dream after a seed migration (appended below the original)
 */
public record DreamRecord(long id, Instant time, Status status, String previousState, String state,
                          List<String> consumedNotes, int inputChars, int outputChars, boolean transition) {

    /** How far a record's commit got. */
    public enum Status {
        /** Written; the state and the notes may or may not have been changed yet. */
        PENDING,
        /** The state is written and the consumed notes removed. */
        COMMITTED,
        /** Being rolled back: the notes may or may not have been given back yet. */
        ROLLING_BACK
    }

    /** Rejects a null {@code time}, {@code status}, {@code state} or {@code consumedNotes} and copies the notes. */
    public DreamRecord {
        Ensure.notNull(time, "time");
        Ensure.notNull(status, "status");
        Ensure.notNull(state, "state");
        consumedNotes = List.copyOf(Ensure.notNull(consumedNotes, "consumedNotes"));
    }

    DreamRecord with(Status status) {
        return new DreamRecord(id, time, status, previousState, state, consumedNotes, inputChars, outputChars,
                transition);
    }
}
