package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one dream of a resource did: whether it committed a new state and why (not), the guard that rejected the
 * synthesis if one did, the sizes in and out, what happened to the notes and the pointers, the tokens the dream
 * model reported and how long it took.
 *
 * <p>Immutable and thread-safe.
 *
 * @param resource          the resource whose state the dream rewrote (or tried to)
 * @param committed         whether the new state was committed; when false, nothing changed
 * @param reason            why it committed or not, in one sentence
 * @param guard             the collapse guard that rejected the synthesis, {@code null} when none did
 * @param inputChars        the size of the dream input ({@link DreamInput#sizeChars()}), 0 when none was built
 * @param outputChars       the size of the synthesized state (the generated part only, after the pointer check)
 * @param notesConsumed     the notes the committed state consumed (removed from the log)
 * @param notesDeferred     pending notes left for the next dream by the input's cap
 * @param crystalsRead      the crystals created since the last dream that the input held
 * @param pointersKept      pointers whose keywords retrieved their topic
 * @param pointersRepaired  pointers whose keywords were replaced by their crystal's
 * @param pointersDropped   pointers that retrieved nothing about their topic
 * @param pointersChecked   whether the pointers were checked (only with a crystal store)
 * @param tokensUsed        the tokens the dream model reported, empty offline or when unknown
 * @param started           when the dream started
 * @param duration          how long it took
 */
public record DreamReport(String resource, boolean committed, String reason, DreamGuard guard, int inputChars,
                          int outputChars, int notesConsumed, int notesDeferred, int crystalsRead, int pointersKept,
                          int pointersRepaired, int pointersDropped, boolean pointersChecked, OptionalInt tokensUsed,
                          Instant started, Duration duration) {

    public DreamReport {
        Ensure.notNull(resource, "resource");
        Ensure.notBlank(reason, "reason");
        Ensure.notNull(tokensUsed, "tokensUsed");
        Ensure.notNull(started, "started");
        Ensure.notNull(duration, "duration");
    }

    /** A dream that did not get as far as a synthesis (another dream runs, nothing new, ...). */
    static DreamReport skipped(String resource, String reason, Instant started, Duration duration) {
        return new DreamReport(resource, false, reason, null, 0, 0, 0, 0, 0, 0, 0, 0, false, OptionalInt.empty(),
                started, duration);
    }

    /** The guard that rejected the synthesis, if one did. */
    public Optional<DreamGuard> failedGuard() {
        return Optional.ofNullable(guard);
    }

    @Override
    public String toString() {
        return "DreamReport[" + resource + ", " + (committed ? "committed" : "not committed") + ": " + reason
                + (guard == null ? "" : " (" + guard + ")") + ", in=" + inputChars + ", out=" + outputChars
                + ", notes=" + notesConsumed + (notesDeferred > 0 ? "+" + notesDeferred + " deferred" : "")
                + ", crystals=" + crystalsRead + ", pointers kept/repaired/dropped=" + pointersKept + "/"
                + pointersRepaired + "/" + pointersDropped + (pointersChecked ? "" : " (unchecked)") + ", tokens="
                + (tokensUsed.isPresent() ? tokensUsed.getAsInt() : "n/a") + ", " + duration.toMillis() + " ms]";
    }
}
