package dev.workingmemory.jdbc;

import dev.workingmemory.internal.Attempts;
import dev.workingmemory.internal.Attempts.Outcome;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One pass of work on a remote service (an embedding model, an embedding store), held to the rule of
 * {@link Attempts} that tells an item the service refuses every time from a service that is down. A batch is tried at
 * once and, when that fails, item by item ({@link Attempts#oneByOne}). Whether the service is up is told by the pass:
 * before a pause, it is down when it took no work of the pass; after an item's last try, the last work it took must go
 * through again. An item refused alone in its pass thus waits like one of a service that is down, until it comes with
 * others.
 *
 * <p>Not thread-safe: one per pass, on one thread.
 */
final class Pass {

    /** Repeats the last work the service took in this pass; null: none yet. */
    private Runnable taken;

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
        return Attempts.oneByOne(items, failure, taken != null, new Attempts.Service<>() {
            @Override
            public void work(T item) {
                work.accept(List.of(item));
                taken = () -> work.accept(List.of(item));
            }

            @Override
            public RuntimeException down(boolean last, RuntimeException failure) {
                if (!last) {
                    return taken == null ? failure : null;
                }
                try {
                    taken.run();
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            }
        });
    }
}
