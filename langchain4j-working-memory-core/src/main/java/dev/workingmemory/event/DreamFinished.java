package dev.workingmemory.event;

import java.time.Duration;

/**
 * A dream of one resource ended. Immutable.
 *
 * @param resource      the resource (user) that dreamt
 * @param committed     whether the new state was committed
 * @param reason        why it was rejected (which guard), or what it did when committed
 * @param notesConsumed the notes the dream took into the state
 * @param stateBefore   the state document's length before, in characters
 * @param stateAfter    the state document's length after (the synthesized one when rejected), in characters
 * @param time          how long the dream took
 */
public record DreamFinished(String resource, boolean committed, String reason, int notesConsumed, int stateBefore,
                            int stateAfter, Duration time) {

    /** {@code "committed"} or {@code "rejected"}, as metrics tag it. */
    public String outcome() {
        return committed ? "committed" : "rejected";
    }
}
