package dev.workingmemory.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Waits for what a background thread (the indexer, the tool-output cache's writer) does behind a call. */
public final class Await {

    private Await() {
    }

    /** Polls {@code condition} every 10 ms until it holds, failing the test with {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        assertThat(condition.getAsBoolean()).as("%s within %s", what, timeout).isTrue();
    }
}
