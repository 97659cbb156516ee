package dev.workingmemory.crystal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The crystals added but not yet indexed, and the scopes whose records must be compared with the index after a
 * restart, handed to the indexer thread in batches.
 *
 * <p>The order of one scope's crystals is kept; scopes a reader waits for ({@link #awaitScope}) go first. When
 * {@code capacity} crystals wait, {@link #add} waits for room (a WARN at most once a minute): nothing is lost and
 * memory stays bounded. Crystals recovered from the records (already recorded, to be indexed again) are not
 * counted against the capacity: at most one scope's worth is loaded at a time.
 *
 * <p>Thread-safe.
 */
final class PendingQueue {

    private static final Logger log = LoggerFactory.getLogger(PendingQueue.class);
    private static final long FULL_WARNING_INTERVAL = TimeUnit.MINUTES.toNanos(1);

    /** A crystal waiting to be indexed. */
    static final class Pending {
        final Crystal crystal;
        /** Read back from the records to be indexed again (not counted against the capacity). */
        final boolean fromRecords;
        /** Its seq once assigned, 0 before. Indexer thread (under the write lock) only. */
        long seq;
        /** Whether its record is written. Indexer thread (under the write lock) only. */
        boolean recorded;
        volatile boolean cancelled;
        private boolean done;

        Pending(Crystal crystal) {
            this.crystal = crystal;
            this.fromRecords = false;
        }

        Pending(CrystalRecords.Stored stored) {
            this.crystal = stored.crystal();
            this.fromRecords = true;
            this.seq = stored.seq();
            this.recorded = true;
        }
    }

    /** What the indexer does next. */
    sealed interface Work permits Batch, Reconcile, Idle, Stop {
    }

    record Batch(List<Pending> items) implements Work {
    }

    record Reconcile(String scope) implements Work {
    }

    record Idle() implements Work {
    }

    record Stop() implements Work {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition room = lock.newCondition();
    private final Condition progress = lock.newCondition();

    private final int capacity;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final List<Pending> taken = new ArrayList<>();
    private final Set<String> unreconciled = new LinkedHashSet<>();
    private String reconciling;
    private final Map<String, Integer> urgent = new HashMap<>();
    private int newCount;
    private boolean closed;
    private long lastFullWarning = System.nanoTime() - FULL_WARNING_INTERVAL;

    PendingQueue(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Queues new crystals, waiting for room when {@code capacity} are already waiting.
     *
     * @throws IllegalStateException when closed
     */
    void add(List<Crystal> crystals) {
        lock.lock();
        try {
            for (Crystal crystal : crystals) {
                while (newCount >= capacity && !closed) {
                    long now = System.nanoTime();
                    if (now - lastFullWarning >= FULL_WARNING_INTERVAL) {
                        lastFullWarning = now;
                        log.warn("{} crystals wait to be indexed: adding waits for the indexer to catch up", capacity);
                    }
                    room.awaitUninterruptibly();
                }
                if (closed) {
                    throw new IllegalStateException("The crystal store is closed");
                }
                queue.addLast(new Pending(crystal));
                newCount++;
            }
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Queues recorded crystals to be indexed again, ahead of everything waiting. */
    void addRecovered(List<Pending> recovered) {
        lock.lock();
        try {
            for (int i = recovered.size() - 1; i >= 0; i--) {
                queue.addFirst(recovered.get(i));
            }
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Marks scopes whose records must be compared with the index. */
    void addUnreconciled(Collection<String> scopes) {
        lock.lock();
        try {
            unreconciled.addAll(scopes);
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The indexer's next work, waiting up to {@code idle} for some.
     *
     * @return a batch of at most {@code max} crystals, a scope to reconcile, {@link Idle} after waiting in vain,
     *         or {@link Stop} once closed
     */
    Work take(int max, Duration idle) throws InterruptedException {
        lock.lock();
        try {
            long wait = idle.toNanos();
            while (true) {
                if (closed) {
                    return new Stop();
                }
                for (String scope : urgent.keySet()) {
                    if (unreconciled.remove(scope)) {
                        reconciling = scope;
                        return new Reconcile(scope);
                    }
                }
                if (!urgent.isEmpty()) {
                    List<Pending> batch = new ArrayList<>();
                    for (Iterator<Pending> it = queue.iterator(); it.hasNext() && batch.size() < max; ) {
                        Pending pending = it.next();
                        if (urgent.containsKey(pending.crystal.scope())) {
                            it.remove();
                            batch.add(pending);
                        }
                    }
                    if (!batch.isEmpty()) {
                        return taken(batch);
                    }
                }
                if (!queue.isEmpty()) {
                    List<Pending> batch = new ArrayList<>();
                    while (!queue.isEmpty() && batch.size() < max) {
                        batch.add(queue.pollFirst());
                    }
                    return taken(batch);
                }
                if (!unreconciled.isEmpty()) {
                    String scope = unreconciled.iterator().next();
                    unreconciled.remove(scope);
                    reconciling = scope;
                    return new Reconcile(scope);
                }
                if (wait <= 0) {
                    return new Idle();
                }
                wait = work.awaitNanos(wait);
            }
        } finally {
            lock.unlock();
        }
    }

    private Batch taken(List<Pending> batch) {
        taken.addAll(batch);
        for (Pending pending : batch) {
            if (!pending.fromRecords) {
                newCount--;
            }
        }
        room.signalAll();
        return new Batch(batch);
    }

    /** How many crystals wait to be indexed, the batch being indexed included. */
    int size() {
        lock.lock();
        try {
            return queue.size() + taken.size();
        } finally {
            lock.unlock();
        }
    }

    /** The indexer is done with a batch (indexed, or cancelled meanwhile). */
    void finished(List<Pending> batch) {
        lock.lock();
        try {
            taken.removeAll(batch);
            batch.forEach(pending -> pending.done = true);
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The indexer is done comparing a scope's records with the index. */
    void reconciled(String scope) {
        lock.lock();
        try {
            if (scope.equals(reconciling)) {
                reconciling = null;
            }
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every crystal of the scope queued before the call is indexed and the scope's records are
     * compared with the index, going ahead of other scopes.
     *
     * @return false when the wait timed out or the queue was closed first
     */
    boolean awaitScope(String scope, Duration timeout) {
        lock.lock();
        try {
            Pending last = lastOf(scope);
            if ((last == null || last.done) && !unreconciled.contains(scope) && !scope.equals(reconciling)) {
                return true;
            }
            urgent.merge(scope, 1, Integer::sum);
            work.signal();
            try {
                long wait = timeout.toNanos();
                while (!closed) {
                    if (!unreconciled.contains(scope) && !scope.equals(reconciling)) {
                        Pending newest = lastOf(scope); // includes what reconciling queued
                        if (newest == null || newest.done) {
                            return true;
                        }
                    }
                    if (wait <= 0) {
                        return false;
                    }
                    wait = progress.awaitNanos(wait);
                }
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                urgent.computeIfPresent(scope, (s, n) -> n == 1 ? null : n - 1);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The last crystal of the scope still waiting or being indexed; must hold the lock. */
    private Pending lastOf(String scope) {
        for (Iterator<Pending> it = queue.descendingIterator(); it.hasNext(); ) {
            Pending pending = it.next();
            if (pending.crystal.scope().equals(scope)) {
                return pending;
            }
        }
        for (int i = taken.size() - 1; i >= 0; i--) {
            if (taken.get(i).crystal.scope().equals(scope)) {
                return taken.get(i);
            }
        }
        return null;
    }

    /** @return the newest version of the crystal waiting or being indexed, if any */
    Optional<Crystal> pending(String id) {
        lock.lock();
        try {
            for (Iterator<Pending> it = queue.descendingIterator(); it.hasNext(); ) {
                Pending pending = it.next();
                if (pending.crystal.id().equals(id) && !pending.cancelled) {
                    return Optional.of(pending.crystal);
                }
            }
            for (int i = taken.size() - 1; i >= 0; i--) {
                Pending pending = taken.get(i);
                if (pending.crystal.id().equals(id) && !pending.cancelled) {
                    return Optional.of(pending.crystal);
                }
            }
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops the waiting crystals that match and marks those being indexed as cancelled (the indexer checks under
     * the store's write lock, so a delete that takes that lock next cannot be overtaken).
     */
    void cancel(Predicate<Crystal> matches) {
        lock.lock();
        try {
            for (Iterator<Pending> it = queue.iterator(); it.hasNext(); ) {
                Pending pending = it.next();
                if (matches.test(pending.crystal)) {
                    it.remove();
                    pending.cancelled = true;
                    pending.done = true;
                    if (!pending.fromRecords) {
                        newCount--;
                    }
                }
            }
            for (Pending pending : taken) {
                if (matches.test(pending.crystal)) {
                    pending.cancelled = true;
                }
            }
            room.signalAll();
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Forgets that a scope's records must be compared with the index (the scope was deleted). */
    void forgetUnreconciled(String scope) {
        lock.lock();
        try {
            unreconciled.remove(scope);
        } finally {
            lock.unlock();
        }
    }

    /** @return the scopes that may have recorded crystals not yet in the index, or records still to compare */
    Set<String> scopesBehind() {
        lock.lock();
        try {
            Set<String> scopes = new HashSet<>(unreconciled);
            if (reconciling != null) {
                scopes.add(reconciling);
            }
            for (Pending pending : queue) {
                if (pending.fromRecords) {
                    scopes.add(pending.crystal.scope());
                }
            }
            for (Pending pending : taken) {
                scopes.add(pending.crystal.scope()); // possibly recorded, not yet indexed
            }
            return scopes;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses further adds and wakes everyone. @return the new crystals that were still waiting */
    List<Pending> close() {
        lock.lock();
        try {
            closed = true;
            List<Pending> left = new ArrayList<>();
            for (Pending pending : queue) {
                if (!pending.fromRecords) {
                    left.add(pending);
                }
            }
            queue.clear();
            work.signalAll();
            room.signalAll();
            progress.signalAll();
            return left;
        } finally {
            lock.unlock();
        }
    }
}
