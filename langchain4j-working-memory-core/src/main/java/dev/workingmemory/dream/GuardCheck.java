package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

/**
 * One collapse guard's judgement of a synthesized state: which guard, whether the state passed it, and what it
 * measured (for example {@code "1,234 characters of substance, at least 50 required"}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param guard  the guard
 * @param passed whether the state passed it
 * @param detail what the guard measured against its threshold, in one sentence
 */
public record GuardCheck(DreamGuard guard, boolean passed, String detail) {

    /** Rejects a null {@code guard} or a blank {@code detail} with an {@link IllegalArgumentException}. */
    public GuardCheck {
        Ensure.notNull(guard, "guard");
        Ensure.notBlank(detail, "detail");
    }

    static GuardCheck pass(DreamGuard guard, String detail) {
        return new GuardCheck(guard, true, detail);
    }

    static GuardCheck fail(DreamGuard guard, String detail) {
        return new GuardCheck(guard, false, detail);
    }

    /** {@code "MASS_DROP passed: kept 2,345 of 2,500 characters (94%), at least 50% required"}. */
    @Override
    public String toString() {
        return guard + (passed ? " passed: " : " FAILED: ") + detail;
    }
}
