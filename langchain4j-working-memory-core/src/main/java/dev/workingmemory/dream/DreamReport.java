package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one dream of a resource did: whether it committed a new state and why (not), the collapse guards that judged
 * the synthesis and the one that rejected it if one did, the sizes in and out, what happened to the notes and the
 * pointers, the tokens the dream model reported and how long it took. {@link #summary()} says it in a few lines.
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
 * @param guardChecks       the collapse guards that judged the synthesis, in the order they ran, each passed or
 *                          not with what it measured: every guard for a committed dream; the guards that passed and
 *                          then the one that failed ({@link #failedGuard()}) for a rejected one; none when the dream
 *                          ended before a synthesis was judged (nothing new, a busy lease, a failing or timed-out
 *                          synthesis)
 * @param pointerOutcomes   what the pointer check did with each pointer of the synthesized state, in order (kept,
 *                          repaired or dropped, and why); empty when the pointers were not checked. When not empty,
 *                          the three counts are its counts.
 */
public record DreamReport(String resource, boolean committed, String reason, DreamGuard guard, int inputChars,
                          int outputChars, int notesConsumed, int notesDeferred, int crystalsRead, int pointersKept,
                          int pointersRepaired, int pointersDropped, boolean pointersChecked, OptionalInt tokensUsed,
                          Instant started, Duration duration, List<GuardCheck> guardChecks,
                          List<PointerOutcome> pointerOutcomes) {

    /**
     * Checks the components and copies the lists; an {@link IllegalArgumentException} for a null object (other than
     * {@code guard}), a blank {@code reason}, guard checks that do not all pass but a last one failing by
     * {@code guard}, or pointer counts other than those of {@code pointerOutcomes} when it is not empty.
     */
    public DreamReport {
        Ensure.notNull(resource, "resource");
        Ensure.notBlank(reason, "reason");
        Ensure.notNull(tokensUsed, "tokensUsed");
        Ensure.notNull(started, "started");
        Ensure.notNull(duration, "duration");
        guardChecks = List.copyOf(Ensure.notNull(guardChecks, "guardChecks"));
        Ensure.that(consistent(guard, guardChecks), "The guard checks " + guardChecks
                + " must all pass, except a last one failing by the rejecting guard " + guard);
        pointerOutcomes = List.copyOf(Ensure.notNull(pointerOutcomes, "pointerOutcomes"));
        Ensure.that(pointerOutcomes.isEmpty() || count(pointerOutcomes, PointerOutcome.Action.KEPT) == pointersKept
                        && count(pointerOutcomes, PointerOutcome.Action.REPAIRED) == pointersRepaired
                        && count(pointerOutcomes, PointerOutcome.Action.DROPPED) == pointersDropped,
                () -> "The pointer counts " + pointersKept + "/" + pointersRepaired + "/" + pointersDropped
                        + " must be those of the pointer outcomes");
    }

    /** A report without the pointer outcomes ({@link #pointerOutcomes()} empty). */
    public DreamReport(String resource, boolean committed, String reason, DreamGuard guard, int inputChars,
                       int outputChars, int notesConsumed, int notesDeferred, int crystalsRead, int pointersKept,
                       int pointersRepaired, int pointersDropped, boolean pointersChecked, OptionalInt tokensUsed,
                       Instant started, Duration duration, List<GuardCheck> guardChecks) {
        this(resource, committed, reason, guard, inputChars, outputChars, notesConsumed, notesDeferred, crystalsRead,
                pointersKept, pointersRepaired, pointersDropped, pointersChecked, tokensUsed, started, duration,
                guardChecks, List.of());
    }

    /** A report without the record of the guards that ran ({@link #guardChecks()} empty). */
    public DreamReport(String resource, boolean committed, String reason, DreamGuard guard, int inputChars,
                       int outputChars, int notesConsumed, int notesDeferred, int crystalsRead, int pointersKept,
                       int pointersRepaired, int pointersDropped, boolean pointersChecked, OptionalInt tokensUsed,
                       Instant started, Duration duration) {
        this(resource, committed, reason, guard, inputChars, outputChars, notesConsumed, notesDeferred, crystalsRead,
                pointersKept, pointersRepaired, pointersDropped, pointersChecked, tokensUsed, started, duration,
                List.of(), List.of());
    }

    /**
     * Whether the dream got as far as a synthesis (committed, rejected by a guard, or failed or timed out in it); not
     * when it was skipped before one: nothing new, another dream of the resource running, the store failing.
     */
    public boolean reachedSynthesis() {
        return committed || guard != null || inputChars > 0;
    }

    /** A dream that did not get as far as a synthesis (another dream runs, nothing new, ...). */
    static DreamReport skipped(String resource, String reason, Instant started, Duration duration) {
        return new DreamReport(resource, false, reason, null, 0, 0, 0, 0, 0, 0, 0, 0, false, OptionalInt.empty(),
                started, duration, List.of(), List.of());
    }

    private static long count(List<PointerOutcome> outcomes, PointerOutcome.Action action) {
        return outcomes.stream().filter(outcome -> outcome.action() == action).count();
    }

    /** Without a rejecting guard every check passed; with one, the checks (if any) end with its failure. */
    private static boolean consistent(DreamGuard guard, List<GuardCheck> checks) {
        if (checks.isEmpty()) {
            return true;
        }
        int last = checks.size() - 1;
        boolean passedBefore = checks.subList(0, last).stream().allMatch(GuardCheck::passed);
        GuardCheck end = checks.get(last);
        return passedBefore && (guard == null ? end.passed() : !end.passed() && end.guard() == guard);
    }

    /** The guards the synthesis passed, in the order they ran (all of them when the dream committed). */
    public List<DreamGuard> passedGuards() {
        return guardChecks.stream().filter(GuardCheck::passed).map(GuardCheck::guard).toList();
    }

    /**
     * The report in a few lines for people: the outcome and why, what was consumed and read, each guard that ran
     * with what it measured, the pointers, the tokens and the time. For example:
     * <pre>
     * Dream of 'maya' committed: Committed
     *   consumed 3 notes, read 3 new crystals, 852 chars in, 620 chars out
     *   guards: 5 of 5 passed
     *     MISSING_SECTION passed: all 7 sections present
     *     …
     *   pointers kept/repaired/dropped: 1/0/0
     *   tokens: n/a, 14 ms
     * </pre>
     */
    public String summary() {
        StringBuilder text = new StringBuilder("Dream of '").append(resource).append("' ")
                .append(committed ? "committed: " : "not committed: ").append(reason)
                .append("\n  consumed ").append(notesConsumed).append(notesConsumed == 1 ? " note" : " notes")
                .append(notesDeferred > 0 ? " (" + notesDeferred + " deferred)" : "")
                .append(", read ").append(crystalsRead).append(crystalsRead == 1 ? " new crystal, " : " new crystals, ")
                .append(inputChars).append(" chars in, ").append(outputChars).append(" chars out");
        if (guardChecks.isEmpty()) {
            text.append("\n  guards: none ran (no synthesis was judged)");
        } else {
            text.append("\n  guards: ").append(passedGuards().size()).append(" of ").append(guardChecks.size())
                    .append(" passed").append(guard == null ? "" : ", rejected by " + guard);
            guardChecks.forEach(check -> text.append("\n    ").append(check));
        }
        return text.append("\n  pointers kept/repaired/dropped: ").append(pointersKept).append('/')
                .append(pointersRepaired).append('/').append(pointersDropped)
                .append(pointersChecked ? "" : " (not checked)")
                .append("\n  tokens: ").append(tokensUsed.isPresent() ? tokensUsed.getAsInt() : "n/a")
                .append(", ").append(duration.toMillis()).append(" ms").toString();
    }

    /** The guard that rejected the synthesis, if one did. */
    public Optional<DreamGuard> failedGuard() {
        return Optional.ofNullable(guard);
    }

    @Override
    public String toString() {
        return "DreamReport[" + resource + ", " + (committed ? "committed" : "not committed") + ": " + reason
                + (guard == null ? "" : " (" + guard + ")") + ", guards passed="
                + passedGuards().size() + "/" + guardChecks.size() + ", in=" + inputChars + ", out=" + outputChars
                + ", notes=" + notesConsumed + (notesDeferred > 0 ? "+" + notesDeferred + " deferred" : "")
                + ", crystals=" + crystalsRead + ", pointers kept/repaired/dropped=" + pointersKept + "/"
                + pointersRepaired + "/" + pointersDropped + (pointersChecked ? "" : " (unchecked)") + ", tokens="
                + (tokensUsed.isPresent() ? tokensUsed.getAsInt() : "n/a") + ", " + duration.toMillis() + " ms]";
    }
}
