package dev.workingmemory.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rule that tells an item a remote service (an embedding model, an embedding store) refuses every time from a
 * service that is down, once a batch of items failed: each item is tried alone, up to {@value #ATTEMPTS} times in all
 * (the batch counting as the first try of a batch of one) with pauses from {@value #FIRST_PAUSE_MILLIS} ms doubling,
 * so that an item the service refuses holds back none of the others. An item counts as refused only when the service
 * is still up after its last try; when it is down, nothing is refused (a service going down midway included) and what
 * failed waits for its caller. How the service is asked whether it is up is the caller's ({@link Service#down}): the
 * embedded store's indexer embeds a text again each time, the JDBC store's passes count the work taken in the pass and
 * repeat some only after the last try. Shared by both so that the rule is stated once.
 *
 * <p>Not API. Thread-safe (stateless; the service is used on the calling thread).
 */
public final class Attempts {

    public static final int ATTEMPTS = 4;
    public static final long FIRST_PAUSE_MILLIS = 250;

    private Attempts() {
    }

    /** The caller's side: the work on one item, and how it tells the service is down. */
    public interface Service<T> {

        /** Does the work on one item, recording what it did; throws when the service fails it. */
        void work(T item);

        /**
         * Whether the service is down: asked before a pause that follows an attempt in which it took no item
         * ({@code last} false), and after the last try ({@code last} true).
         *
         * @param failure the last failure of an item
         * @return null when it is up, else why it is down
         */
        RuntimeException down(boolean last, RuntimeException failure);

        /** Pauses between attempts; @return false when asked to stop: the items wait, as for a service down */
        default boolean pause(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return true;
        }

        /** Whether the item is still to be done: one that is not is dropped after an attempt. */
        default boolean wanted(T item) {
            return true;
        }
    }

    /**
     * What the items tried one by one gave.
     *
     * @param failed the items that failed at their last try, with why: refused when the service is up, left waiting
     *               (not tried to the end) when it is down
     * @param down   why the service took nothing more (it is down, or the pause was stopped), or null
     */
    public record Outcome<T>(Map<T, RuntimeException> failed, RuntimeException down) {

        /** The items the service refused at every attempt while it was up, with its last refusal. */
        public Map<T, RuntimeException> refused() {
            return down == null ? failed : Map.of();
        }
    }

    /**
     * Tries each item of a batch that failed alone, by the rule above.
     *
     * @param batchFailure why the batch failed
     * @param upNow        whether the service is known up now: then it is not asked before the first pause
     * @throws InterruptedException when the thread is interrupted during a pause
     */
    public static <T> Outcome<T> oneByOne(List<T> items, RuntimeException batchFailure, boolean upNow,
                                          Service<T> service) throws InterruptedException {
        Map<T, RuntimeException> failing = new LinkedHashMap<>();
        items.forEach(item -> failing.put(item, batchFailure));
        RuntimeException failure = batchFailure;
        boolean tookSome = upNow;
        long pause = FIRST_PAUSE_MILLIS;
        // a batch of one item was its first try alone
        for (int attempt = items.size() == 1 ? 2 : 1; attempt <= ATTEMPTS; attempt++) {
            if (attempt > 1) {
                RuntimeException down = tookSome ? null : service.down(false, failure);
                if (down != null) {
                    return new Outcome<>(failing, down);
                }
                if (!service.pause(pause)) {
                    return new Outcome<>(failing, failure);
                }
                pause *= 2;
            }
            tookSome = false;
            for (Map.Entry<T, RuntimeException> item : failing.entrySet()) {
                try {
                    service.work(item.getKey());
                    item.setValue(null);
                    tookSome = true;
                } catch (RuntimeException e) {
                    item.setValue(e);
                    failure = e;
                }
            }
            failing.entrySet().removeIf(item -> item.getValue() == null || !service.wanted(item.getKey()));
            if (failing.isEmpty()) {
                return new Outcome<>(Map.of(), null);
            }
        }
        return new Outcome<>(failing, service.down(true, failure)); // it may have gone down meanwhile
    }
}
