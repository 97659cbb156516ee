package dev.workingmemory.internal;

import org.slf4j.Logger;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A WARN logged at most once a minute: what a failing service (an embedding model, an application's embedding store)
 * or a full queue would otherwise repeat on every pass, add or search while it lasts. A warning logged after some were
 * held back says how many.
 *
 * <p>Not API. Thread-safe.
 */
public final class MinuteWarning {

    private static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Logger log;
    private final LongSupplier nanoTime;
    /** When the last warning was logged; guarded by this. */
    private long last;
    /** Warnings held back since the last one logged; guarded by this. */
    private long heldBack;

    public MinuteWarning(Logger log) {
        this(log, System::nanoTime);
    }

    /** With the time from {@code nanoTime} (a test's clock), as {@link System#nanoTime()} gives it. */
    MinuteWarning(Logger log, LongSupplier nanoTime) {
        this.log = Ensure.notNull(log, "log");
        this.nanoTime = nanoTime;
        this.last = nanoTime.getAsLong() - INTERVAL_NANOS;
    }

    /**
     * Logs {@code message} (an SLF4J pattern) with {@code arguments} as a WARN unless one was logged less than a
     * minute ago; a throwable as the last argument is logged as SLF4J logs it.
     */
    public void warn(String message, Object... arguments) {
        long held = take();
        if (held < 0) {
            return;
        }
        if (held == 0) {
            log.warn(message, arguments);
            return;
        }
        boolean thrown = arguments.length > 0 && arguments[arguments.length - 1] instanceof Throwable;
        int counted = thrown ? arguments.length - 1 : arguments.length;
        Object[] withCount = Arrays.copyOf(arguments, arguments.length + 1);
        withCount[counted] = held;
        if (thrown) {
            withCount[counted + 1] = arguments[counted];
        }
        log.warn(message + " ({} more like it held back since the last warning)", withCount);
    }

    /**
     * Whether a warning is due now, for a caller that decides under a lock and logs after it: true at most once a
     * minute, and a false counts as one held back.
     */
    public boolean due() {
        return take() >= 0;
    }

    /** -1 when a warning was logged less than a minute ago (counting this one held back), else how many were. */
    private synchronized long take() {
        long now = nanoTime.getAsLong();
        if (now - last < INTERVAL_NANOS) {
            heldBack++;
            return -1;
        }
        long held = heldBack;
        last = now;
        heldBack = 0;
        return held;
    }
}
