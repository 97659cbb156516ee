package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.List;
import java.util.Optional;

/**
 * What the {@link CollapseGuards} decided about a synthesized state: passed, or the guard that failed and why; with
 * the candidate as parsed (the document to commit when it passed) and each guard that ran, in order.
 *
 * <p>Immutable and thread-safe.
 *
 * @param failed    the guard that rejected the state, {@code null} when it passed
 * @param reason    {@code "passed"}, or why the guard rejected it
 * @param candidate the synthesized state as parsed
 * @param checks    the guards that ran, in order: every guard when the state passed; the guards that passed and then
 *                  the one that failed when it did (the guards after it did not run)
 */
public record GuardVerdict(DreamGuard failed, String reason, StateDocument candidate, List<GuardCheck> checks) {

    /** Rejects a null {@code reason}, {@code candidate} or {@code checks} with an {@link IllegalArgumentException} and copies the checks. */
    public GuardVerdict {
        Ensure.notNull(reason, "reason");
        Ensure.notNull(candidate, "candidate");
        checks = List.copyOf(Ensure.notNull(checks, "checks"));
    }

    /** A verdict without the record of the guards that ran ({@link #checks()} empty). */
    public GuardVerdict(DreamGuard failed, String reason, StateDocument candidate) {
        this(failed, reason, candidate, List.of());
    }

    static GuardVerdict pass(StateDocument candidate, List<GuardCheck> checks) {
        return new GuardVerdict(null, "passed", candidate, checks);
    }

    static GuardVerdict fail(DreamGuard guard, String reason, StateDocument candidate, List<GuardCheck> checks) {
        return new GuardVerdict(Ensure.notNull(guard, "guard"), reason, candidate, checks);
    }

    /** Whether the state passed every guard ({@code failed} is null). */
    public boolean passed() {
        return failed == null;
    }

    /** The guard that rejected the state, if one did. */
    public Optional<DreamGuard> failedGuard() {
        return Optional.ofNullable(failed);
    }

    @Override
    public String toString() {
        return passed() ? "passed" : failed + ": " + reason;
    }
}
