package dev.workingmemory.jdbc;

import org.slf4j.Logger;

import java.util.concurrent.TimeUnit;

/**
 * A WARN logged at most once a minute: what a failing service (the embedding model, an application's embedding
 * store) would otherwise repeat on every pass or search while it is down.
 *
 * <p>Thread-safe; two threads may both log at the minute's turn, which costs one line more.
 */
final class MinuteWarning {

    private static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Logger log;
    private volatile long last = System.nanoTime() - INTERVAL_NANOS;

    MinuteWarning(Logger log) {
        this.log = log;
    }

    /** Logs {@code message} with {@code arguments} as a WARN unless one was logged less than a minute ago. */
    void warn(String message, Object... arguments) {
        long now = System.nanoTime();
        if (now - last >= INTERVAL_NANOS) {
            last = now;
            log.warn(message, arguments);
        }
    }
}
