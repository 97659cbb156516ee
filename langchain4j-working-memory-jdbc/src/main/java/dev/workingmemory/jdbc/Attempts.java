package dev.workingmemory.jdbc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One pass of work on a remote service (an embedding model, an embedding store) and the rule that tells
 * an item the service refuses every time from a service that is down. A batch is tried at once and, when that fails,
 * item by item, so that an item it refuses holds back none of the others. An item failing alone is tried again, up to
 * {@value #ATTEMPTS} times with pauses from {@value #FIRST_PAUSE_MILLIS} ms, doubling (as the embedded store's indexer,
 * whose {@code Retries} is package-private); it counts as refused when the service took other work of the pass
 * meanwhile and still takes some after the last try (the last work it took, again). When it took no work of the pass,
 * or that last work no longer goes through, the service is down and nothing is refused: what failed waits for a later
 * pass. An item refused alone in its pass thus waits like one of a service that is down, until it comes with others.
 *
 * <p>Not thread-safe: one per pass, on one thread.
 */
final class Attempts {

    static final int ATTEMPTS = 4;
    static final long FIRST_PAUSE_MILLIS = 250;

    /** Repeats the last work the service took in this pass; null: none yet. */
    private Runnable taken;

    /**
     * What a batch gave.
     *
     * @param failed the items that failed at their last try, with why: refused when the service is up, left waiting
     *               (not tried to the end) when it is down
     * @param down   why the service took nothing more (it is down), or null
     */
    record Outcome<T>(Map<T, RuntimeException> failed, RuntimeException down) {

        /** The items the service refused at every attempt while it took other work, with its last refusal. */
        Map<T, RuntimeException> refused() {
            return down == null ? failed : Map.of();
        }
    }

    /**
     * Runs {@code work} on {@code items} at once, and when that fails on each alone, by the rule above. {@code work}
     * records what it did (it is called with all the items, or one); it throws when the service fails it.
     *
     * @throws InterruptedException when the thread is interrupted (closing) during a pause
     */
    <T> Outcome<T> run(List<T> items, Consumer<List<T>> work) throws InterruptedException {
        RuntimeException failure;
        try {
            work.accept(items);
            T first = items.get(0);
            taken = () -> work.accept(List.of(first));
            return new Outcome<>(Map.of(), null);
        } catch (RuntimeException e) {
            failure = e;
        }
        Map<T, RuntimeException> failing = new LinkedHashMap<>();
        RuntimeException batchFailure = failure;
        items.forEach(item -> failing.put(item, batchFailure));
        long pause = FIRST_PAUSE_MILLIS;
        // a batch of one item was its first try alone
        for (int attempt = items.size() == 1 ? 2 : 1; attempt <= ATTEMPTS; attempt++) {
            if (attempt > 1) {
                if (taken == null) {
                    return new Outcome<>(failing, failure);
                }
                Thread.sleep(pause);
                pause *= 2;
            }
            for (T item : new ArrayList<>(failing.keySet())) {
                try {
                    work.accept(List.of(item));
                    taken = () -> work.accept(List.of(item));
                    failing.remove(item);
                } catch (RuntimeException e) {
                    failing.put(item, e);
                    failure = e;
                }
            }
            if (failing.isEmpty()) {
                return new Outcome<>(Map.of(), null);
            }
        }
        try {
            taken.run(); // the service may have gone down meanwhile: then it refused nothing
        } catch (RuntimeException e) {
            return new Outcome<>(failing, e);
        }
        return new Outcome<>(failing, null);
    }
}
