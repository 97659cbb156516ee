package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.internal.MinuteWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The crystals added to a {@link JdbcCrystalStore} and not written yet. {@link #add} only queues them, waiting for room
 * when {@value #CAPACITY} wait (a WARN at most once a minute); the daemon thread {@value #THREAD_NAME} writes what is
 * queued, up to {@value #BATCH} crystals in one transaction, as soon as it can, and again after a failure (pausing
 * 250 ms, doubling up to 30 s) until it succeeds or the store closes; a crystal whose scope was deleted whole after it
 * was queued, by any instance, is dropped then ({@link CrystalTable#upsert}). A reader of a scope waits for the
 * scope's queued crystals ({@link #awaitScope}); {@link #pending} answers for a crystal not written yet.
 *
 * <p>Thread-safe.
 */
final class RowWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RowWriter.class);

    static final String THREAD_NAME = "crystal-writer";
    static final int CAPACITY = 10_000;
    private static final int BATCH = 500;
    private static final long FIRST_PAUSE_MILLIS = 250;
    private static final long MAX_PAUSE_MILLIS = 30_000;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final CrystalTable table;
    /** Told of each batch written, with the time its write took; on the writer thread. */
    private final BiConsumer<List<Crystal>, Duration> written;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private List<Crystal> writing = List.of();
    /** Per scope, its crystals queued or being written. */
    private final Map<String, Integer> waiting = new HashMap<>();
    private final Thread thread;
    private boolean closed;
    private volatile boolean stopping;
    private final MinuteWarning fullWarning = new MinuteWarning(log);

    RowWriter(CrystalTable table, BiConsumer<List<Crystal>, Duration> written) {
        this.table = table;
        this.written = written;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues crystals to be written, waiting for room when {@value #CAPACITY} wait.
     *
     * @throws IllegalStateException when closed
     */
    void add(List<Crystal> crystals) {
        lock.lock();
        try {
            for (Crystal crystal : crystals) {
                while (queue.size() >= CAPACITY && !closed) {
                    fullWarning.warn("{} crystals wait to be written to the database: adding waits for room", CAPACITY);
                    // the writer may sleep on the queue this add found empty and filled: wake it, or both wait for ever
                    changed.signalAll();
                    changed.awaitUninterruptibly();
                }
                if (closed) {
                    throw new IllegalStateException("The crystal store is closed");
                }
                queue.addLast(new Queued(crystal, System.nanoTime()));
                waiting.merge(crystal.scope(), 1, Integer::sum);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return the latest crystal of this id queued or being written, if any */
    Optional<Crystal> pending(String id) {
        lock.lock();
        try {
            Iterator<Queued> newestFirst = queue.descendingIterator();
            while (newestFirst.hasNext()) {
                Crystal crystal = newestFirst.next().crystal();
                if (crystal.id().equals(id)) {
                    return Optional.of(crystal);
                }
            }
            for (int i = writing.size() - 1; i >= 0; i--) {
                if (writing.get(i).id().equals(id)) {
                    return Optional.of(writing.get(i));
                }
            }
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** @return how many crystals are queued or being written */
    int size() {
        lock.lock();
        try {
            return queue.size() + writing.size();
        } finally {
            lock.unlock();
        }
    }

    /** Takes queued crystals out (those already being written are not). */
    void cancel(Predicate<Crystal> doomed) {
        lock.lock();
        try {
            for (Iterator<Queued> crystals = queue.iterator(); crystals.hasNext(); ) {
                Crystal crystal = crystals.next().crystal();
                if (doomed.test(crystal)) {
                    crystals.remove();
                    written(crystal);
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return true once no crystal of the scope is queued or being written; false when the timeout came first */
    boolean awaitScope(String scope, Duration timeout) {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (waiting.containsKey(scope) && !stopping) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = changed.awaitNanos(remaining);
            }
            return !waiting.containsKey(scope);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** A crystal queued, and when ({@link System#nanoTime()}): one queued before its scope was deleted is dropped. */
    private record Queued(Crystal crystal, long at) {
    }

    private void written(Crystal crystal) {
        waiting.computeIfPresent(crystal.scope(), (scope, count) -> count == 1 ? null : count - 1);
    }

    private void run() {
        while (true) {
            List<Crystal> batch;
            long[] queuedAt;
            lock.lock();
            try {
                while (queue.isEmpty() && !closed) {
                    changed.awaitUninterruptibly();
                }
                if (queue.isEmpty() || stopping) {
                    return;
                }
                batch = new ArrayList<>(Math.min(BATCH, queue.size()));
                queuedAt = new long[Math.min(BATCH, queue.size())];
                while (batch.size() < BATCH && !queue.isEmpty()) {
                    Queued next = queue.pollFirst();
                    queuedAt[batch.size()] = next.at();
                    batch.add(next.crystal());
                }
                writing = batch;
                changed.signalAll(); // room for adds
            } finally {
                lock.unlock();
            }
            long start = System.nanoTime();
            boolean done = write(batch, queuedAt);
            lock.lock();
            try {
                writing = List.of();
                if (done) {
                    batch.forEach(this::written);
                } else {
                    for (int i = 0; i < batch.size(); i++) {
                        queue.add(new Queued(batch.get(i), queuedAt[i])); // not written: counted as lost by close
                    }
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            if (!done) {
                return;
            }
            try {
                written.accept(batch, Duration.ofNanos(System.nanoTime() - start));
            } catch (RuntimeException e) {
                log.warn("Told that {} crystals were written, a callback failed", batch.size(), e);
            }
        }
    }

    /** @return false when the store closed before the batch could be written */
    private boolean write(List<Crystal> batch, long[] queuedAt) {
        long pause = FIRST_PAUSE_MILLIS;
        while (true) {
            try {
                int left = table.upsert(batch, queuedAt);
                if (left > 0) {
                    log.debug("{} crystals queued before their user was forgotten were not written", left);
                }
                return true;
            } catch (RuntimeException e) {
                if (stopping) {
                    return false;
                }
                log.warn("Cannot write {} crystals to the database ({}); retrying in {} ms", batch.size(), e.toString(),
                        pause);
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause);
                while (!stopping && System.nanoTime() < end) {
                    try {
                        Thread.sleep(Math.min(50, pause));
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
                pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
            }
        }
    }

    /**
     * Writes what is queued (for up to 30 s) and stops the thread; crystals it could not write by then are lost, with
     * an ERROR (the notes among them are made crystals again when their memory is next loaded).
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopping = true;
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int lost = size();
        if (lost > 0) {
            log.error("{} crystals could not be written to the database before the store closed; they are lost (notes"
                    + " among them are made crystals again when their memory is next loaded)", lost);
        }
    }
}
