package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.Optional;

/**
 * What the {@link CollapseGuards} decided about a synthesized state: passed, or the guard that failed and why; with
 * the candidate as parsed (the document to commit when it passed).
 *
 * <p>Immutable and thread-safe.
 */
public record GuardVerdict(DreamGuard failed, String reason, StateDocument candidate) {

    public GuardVerdict {
        Ensure.notNull(reason, "reason");
        Ensure.notNull(candidate, "candidate");
    }

    static GuardVerdict pass(StateDocument candidate) {
        return new GuardVerdict(null, "passed", candidate);
    }

    static GuardVerdict fail(DreamGuard guard, String reason, StateDocument candidate) {
        return new GuardVerdict(Ensure.notNull(guard, "guard"), reason, candidate);
    }

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
