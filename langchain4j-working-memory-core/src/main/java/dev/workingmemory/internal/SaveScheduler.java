package dev.workingmemory.internal;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * When a {@link ScopeState} saves its changes: at the end of the changing write (delay zero), or on one daemon
 * thread, {@code working-memory-saver}, a delay after the first unsaved change. One per provider.
 *
 * <p>Thread-safe.
 */
public final class SaveScheduler {

    private static final String THREAD_NAME = "working-memory-saver";
    /** An idle provider that is never closed keeps no thread. */
    private static final long IDLE_SECONDS = 10;

    private final Duration delay;
    private final long delayNanos;
    private final ScheduledThreadPoolExecutor executor;

    public SaveScheduler(Duration delay) {
        Ensure.notNull(delay, "delay");
        Ensure.that(!delay.isNegative(), "delay must not be negative, was " + delay);
        this.delay = delay;
        this.delayNanos = TimeUnit.NANOSECONDS.convert(delay); // saturates instead of overflowing
        if (delay.isZero()) {
            this.executor = null;
            return;
        }
        this.executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        });
        executor.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
        // The last worker stays while a task is queued (ThreadPoolExecutor.getTask), so no save is stranded.
        executor.allowCoreThreadTimeOut(true);
        // close() cancels saves that are still waiting; the provider has saved their scopes by then.
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    Duration delay() {
        return delay;
    }

    /**
     * Runs {@code save} after the delay on the saver thread. The queued task holds {@code save}, and so whatever it
     * captures, strongly until it has run.
     *
     * @return false when saves are not deferred or the scheduler is closed: the caller saves itself
     */
    boolean schedule(Runnable save) {
        if (executor == null) {
            return false;
        }
        try {
            executor.schedule(save, delayNanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Runs {@code task} on the saver thread after {@code delay} (zero: as soon as the thread is free): derived work a
     * layer does behind the turn ({@link dev.workingmemory.layer.LayerContext#runLater}).
     *
     * @return false when saves are not deferred or the scheduler is closed: the caller does the work itself
     */
    boolean schedule(Runnable task, Duration delay) {
        if (executor == null) {
            return false;
        }
        try {
            executor.schedule(task, TimeUnit.NANOSECONDS.convert(delay), TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Drops the saves still waiting and waits for one that is running. Call after saving every scope. */
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            executor.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
