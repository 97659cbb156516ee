package dev.workingmemory.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How often a cached scope asks its store whether another instance saved it: before every use (interval zero), or
 * at most once per interval. One per provider.
 *
 * <p>Immutable and thread-safe.
 */
public final class StoreCheck {

    private final long intervalNanos;

    public StoreCheck(Duration interval) {
        Ensure.notNull(interval, "interval");
        Ensure.that(!interval.isNegative(), "interval must not be negative, was " + interval);
        this.intervalNanos = TimeUnit.NANOSECONDS.convert(interval);
    }

    /** The time to remember as the last check. */
    long now() {
        return intervalNanos == 0 ? 0 : System.nanoTime();
    }

    /** Whether a scope last checked at {@code checkedAt} ({@link #now()} then) should look at the store again. */
    boolean due(long checkedAt) {
        return intervalNanos == 0 || System.nanoTime() - checkedAt >= intervalNanos;
    }
}
