package dev.workingmemory.crystal;

import dev.workingmemory.internal.Attempts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the crystal store's background threads retry what fails: at once, then after a pause that doubles from
 * {@value #FIRST_PAUSE_MILLIS} ms up to {@value #MAX_PAUSE_MILLIS} ms, each failure logged (WARN), until the action
 * succeeds or the thread is asked to stop.
 *
 * <p>One per thread; {@link #stop} may be called from any thread.
 */
final class Retries {

    private static final Logger log = LoggerFactory.getLogger(Retries.class);
    static final long FIRST_PAUSE_MILLIS = 250;
    static final long MAX_PAUSE_MILLIS = 30_000;
    /**
     * How many times one crystal is tried (the pauses between them those of {@link #retry}: 1.75 s in all) before
     * what fails for it alone is given up: its embedding (while the model embeds other texts), or its vector's copy in
     * an application's embedding store (while that store takes others).
     */
    static final int SINGLE_ATTEMPTS = Attempts.ATTEMPTS;

    private volatile boolean stopping;

    interface Action {
        void run() throws Exception;
    }

    /** Asks the thread to stop retrying and pausing. */
    void stop() {
        stopping = true;
    }

    /** Runs the action until it succeeds; @return false when asked to stop first */
    boolean retry(String what, Action action) throws InterruptedException {
        long pause = FIRST_PAUSE_MILLIS;
        while (true) {
            try {
                action.run();
                return true;
            } catch (Exception e) {
                log.warn("Cannot {} ({}); retrying in {} ms", what, e.toString(), pause, e);
                if (!pause(pause)) {
                    return false;
                }
                pause = next(pause);
            }
        }
    }

    /** The pause after one of {@code pause}. */
    static long next(long pause) {
        return Math.min(pause * 2, MAX_PAUSE_MILLIS);
    }

    /** @return false when asked to stop */
    boolean pause(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (!stopping && System.nanoTime() < end) {
            Thread.sleep(Math.min(50, millis));
        }
        return !stopping;
    }

    boolean stopping() {
        return stopping;
    }
}
