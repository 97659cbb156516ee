package dev.workingmemory.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs a provider's background dream work on one daemon thread, {@code working-memory-dreams}, never on a caller's
 * or a model call's thread: dreams of the resources that are due, every dream interval, and the consolidation (due
 * salience auto-notes appended as notes), every consolidation interval. A task that fails is logged and runs again
 * at its next time. A task returns false when its provider is gone (collected without being closed): the scheduler
 * then stops, so that it never keeps a provider alive.
 *
 * <p>Thread-safe.
 */
public final class DreamScheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DreamScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    public DreamScheduler(Duration dreamInterval, BooleanSupplier dreams, Duration consolidationInterval,
                          BooleanSupplier consolidation) {
        Ensure.notNull(dreams, "dreams");
        Ensure.notNull(consolidation, "consolidation");
        this.executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "working-memory-dreams");
            thread.setDaemon(true);
            return thread;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        schedule("dreams", dreams, dreamInterval);
        schedule("consolidation", consolidation, consolidationInterval);
    }

    private void schedule(String name, BooleanSupplier task, Duration interval) {
        long nanos = TimeUnit.NANOSECONDS.convert(interval);
        executor.scheduleWithFixedDelay(() -> {
            try {
                if (!task.getAsBoolean()) {
                    executor.shutdown();
                }
            } catch (RuntimeException e) {
                log.error("The scheduled {} failed; they run again in {}", name, interval, e);
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /** Stops the scheduler and waits up to five seconds for a task under way (a dream is interrupted). */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("A scheduled dream task did not stop within 5 seconds of close()");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
