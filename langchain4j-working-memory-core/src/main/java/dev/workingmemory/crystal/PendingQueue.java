package dev.workingmemory.crystal;

import dev.workingmemory.internal.MinuteWarning;
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
 * The crystals added and not yet indexed, handed to the indexer thread in batches and to the recorder thread to be
 * recorded; and the scopes whose records the indexer must read back ({@link CatchUps}) or compare with the index.
 *
 * <p><b>{@link #add} never waits.</b> Each crystal gets its sequence number (the order of adds) and is queued for the
 * indexer while fewer than {@code capacity} new crystals wait in memory. Beyond that, in a store with records, it
 * is <i>deferred</i>: handed to the recorder only, which appends it to its scope's record file and drops it from
 * memory; the indexer reads it back from there ({@link Work CatchUp}) once it has indexed what waits in memory, a
 * scope a reader waits for first. Once deferring starts it goes on until every deferred crystal is read back, so
 * the order of adds is kept. A store without records (in memory) keeps every crystal in its queue: beyond the
 * capacity memory grows by what is added (as much as the index will hold once they are indexed). Either way a WARN
 * says so once per minute at most. Crystals read back from the records are not counted against the capacity, and at
 * most one read's worth ({@link #READ_BACK} crystals) is loaded at a time.
 *
 * <p>The order of one scope's crystals is kept; scopes a reader waits for ({@link #awaitScope}) go first.
 *
 * <p>Thread-safe.
 */
final class PendingQueue {

    private static final Logger log = LoggerFactory.getLogger(PendingQueue.class);
    /** How many records the indexer reads back at once (and holds in memory). */
    static final int READ_BACK = 1_024;

    /** A crystal waiting to be recorded or indexed. */
    static final class Pending {
        final Crystal crystal;
        /** Its sequence number: the order of adds (a later record of an id replaces an earlier one). */
        final long seq;
        /** Read back from the records to be indexed (not counted against the capacity). */
        final boolean fromRecords;
        /** Added beyond the capacity: recorded, then dropped from memory and read back from the records. */
        final boolean deferred;
        /** Whether its record is written. Under the writer's lock only. */
        boolean recorded;
        /**
         * Whether the index refused it ({@link RefusedByIndex}): left out, and not written again when its batch is
         * retried. Under the writer's lock only.
         */
        boolean refused;
        /**
         * Whether its vector is not written: refused by the index, or by an application's embedding store
         * {@link Retries#SINGLE_ATTEMPTS} times; indexed for keywords only. Under the writer's lock only.
         */
        boolean vectorRefused;
        /**
         * How many writes of its batch an application's embedding store refused its vector in while it took others
         * or answered a read. Under the writer's lock only.
         */
        int vectorFailures;
        volatile boolean cancelled;
        private boolean done;

        Pending(Crystal crystal, long seq, boolean deferred) {
            this.crystal = crystal;
            this.seq = seq;
            this.fromRecords = false;
            this.deferred = deferred;
        }

        Pending(CrystalRecords.Stored stored) {
            this.crystal = stored.crystal();
            this.seq = stored.seq();
            this.fromRecords = true;
            this.deferred = false;
            this.recorded = true;
        }
    }

    /** What the indexer does next. */
    sealed interface Work permits Batch, Reconcile, CatchUp, Idle, Stop {
    }

    record Batch(List<Pending> items) implements Work {
    }

    record Reconcile(String scope) implements Work {
    }

    /** Read the scope's records from {@code offset} and queue what the index lacks. */
    record CatchUp(String scope, long offset) implements Work {
    }

    record Idle() implements Work {
    }

    record Stop() implements Work {
    }

    /** What an {@link #add} did: how many crystals it deferred, and whether to say so (deferring started with it). */
    record Added(int deferred, boolean warn) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition recording = lock.newCondition();
    private final Condition progress = lock.newCondition();

    private final int capacity;
    /** Whether crystals are recorded (a store with a directory): beyond the capacity they are deferred. */
    private final boolean recorded;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final List<Pending> taken = new ArrayList<>();
    /** New crystals not recorded yet, in the order of adds, deferred ones included; none without records. */
    private final ArrayDeque<Pending> unrecorded = new ArrayDeque<>();
    /** The batch the recorder is writing. */
    private List<Pending> recordingNow = List.of();
    /** The newest new crystal of each id in {@link #queue} or {@link #taken}. */
    private final Map<String, Pending> newest = new HashMap<>();
    private final CatchUps catchUps = new CatchUps();
    private final Set<String> unreconciled = new LinkedHashSet<>();
    private String reconciling;
    private final Map<String, Integer> urgent = new HashMap<>();
    private long nextSeq;
    private int newCount;
    private int fromRecordsWaiting;
    private boolean deferring;
    private long deferringSince;
    private long deferredInEpisode;
    private boolean closed;
    /** Whether the indexer waits for the embedding model to come back: then no read waits for the indexer. */
    private boolean modelDown;
    private final MinuteWarning deferringWarning = new MinuteWarning(log);

    /**
     * @param nextSeq  the sequence number of the first crystal added
     * @param recorded whether the store records crystals (has a directory)
     */
    PendingQueue(int capacity, long nextSeq, boolean recorded) {
        this.capacity = capacity;
        this.nextSeq = nextSeq;
        this.recorded = recorded;
    }

    /**
     * Queues new crystals, or defers them to the records beyond the capacity; never waits for the indexer.
     *
     * @throws IllegalStateException when closed
     */
    Added add(List<Crystal> crystals) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("The crystal store is closed");
            }
            int deferred = 0;
            boolean started = false;
            for (Crystal crystal : crystals) {
                boolean full = newCount >= capacity;
                if (recorded && (deferring || full)) {
                    if (!deferring) {
                        deferring = true;
                        started = true;
                        deferringSince = System.nanoTime();
                        deferredInEpisode = 0;
                    }
                    Pending pending = new Pending(crystal, nextSeq++, true);
                    unrecorded.addLast(pending);
                    catchUps.deferred(crystal);
                    deferredInEpisode++;
                    deferred++;
                } else {
                    Pending pending = new Pending(crystal, nextSeq++, false);
                    queue.addLast(pending);
                    newest.put(crystal.id(), pending);
                    newCount++;
                    if (recorded) {
                        unrecorded.addLast(pending);
                    } else if (full) {
                        deferred++;
                    }
                }
            }
            // one WARN as deferring starts (in memory: as the queue first goes beyond its bound), once a minute at most
            boolean warn = (started || (!recorded && deferred > 0)) && deferringWarning.due();
            work.signal();
            recording.signal();
            return new Added(deferred, warn);
        } finally {
            lock.unlock();
        }
    }

    /** Queues crystals read back from the records, ahead of everything waiting. */
    void addRecovered(List<Pending> recovered) {
        lock.lock();
        try {
            for (int i = recovered.size() - 1; i >= 0; i--) {
                queue.addFirst(recovered.get(i));
            }
            fromRecordsWaiting += recovered.size();
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

    // ---- the recorder --------------------------------------------------------------------------------

    /**
     * The recorder's next crystals to record, waiting up to {@code idle} for some.
     *
     * @return at most {@code max} crystals in the order of adds (empty after waiting in vain), or null once closed
     */
    List<Pending> takeUnrecorded(int max, Duration idle) throws InterruptedException {
        lock.lock();
        try {
            long wait = idle.toNanos();
            while (unrecorded.isEmpty() && !closed && wait > 0) {
                wait = recording.awaitNanos(wait);
            }
            if (closed) {
                return null;
            }
            List<Pending> batch = new ArrayList<>(Math.min(max, unrecorded.size()));
            while (!unrecorded.isEmpty() && batch.size() < max) {
                batch.add(unrecorded.pollFirst());
            }
            recordingNow = batch;
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The recorder wrote its batch (called under the writer's lock, with the record files' offsets where each
     * scope's records of the batch begin): deferred crystals leave memory and their scopes are to be read back.
     */
    void recorded(Map<String, Long> deferredFrom) {
        lock.lock();
        try {
            recordingNow = List.of();
            deferredFrom.forEach(catchUps::readFrom);
            stopDeferringWhenCaughtUp();
            work.signal();
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- the indexer ---------------------------------------------------------------------------------

    /**
     * The indexer's next work, waiting up to {@code idle} for some.
     *
     * @return a batch of at most {@code max} crystals, a scope to reconcile or read back, {@link Idle} after waiting
     *         in vain, or {@link Stop} once closed
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
                if (fromRecordsWaiting == 0) { // at most one read back in memory at a time
                    String scope = catchUps.next(urgent.keySet());
                    if (scope != null && urgent.containsKey(scope)) {
                        return new CatchUp(scope, catchUps.start(scope));
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
                String scope = catchUps.next(List.of());
                if (scope != null) {
                    return new CatchUp(scope, catchUps.start(scope));
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
            if (pending.fromRecords) {
                fromRecordsWaiting--;
            } else {
                newCount--;
            }
        }
        return new Batch(batch);
    }

    /** How many crystals wait to be indexed: in memory, being indexed, and deferred to the records. */
    int size() {
        lock.lock();
        try {
            return queue.size() + taken.size() + catchUps.deferredCount();
        } finally {
            lock.unlock();
        }
    }

    /** The indexer is done with a batch (indexed, or cancelled meanwhile). */
    void finished(List<Pending> batch) {
        lock.lock();
        try {
            taken.removeAll(batch);
            for (Pending pending : batch) {
                pending.done = true;
                newest.remove(pending.crystal.id(), pending);
            }
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The indexer is done comparing a scope's records with the index (and registered a read back when needed). */
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
     * The scope's record file holds records from {@code offset} on that the index may lack (called under the
     * writer's lock).
     */
    void readBackFrom(String scope, long offset) {
        lock.lock();
        try {
            catchUps.readFrom(scope, offset);
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The scope's record file was rewritten: a read back pending for it starts over (called under the writer's lock). */
    void rewritten(String scope) {
        lock.lock();
        try {
            catchUps.rewritten(scope);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The indexer read a scope's records back to {@code end} (called under the writer's lock, after queuing what the
     * index lacked).
     */
    void readBack(String scope, long end, boolean all, List<CrystalRecords.Stored> read) {
        lock.lock();
        try {
            catchUps.finished(scope, end, all, read);
            stopDeferringWhenCaughtUp();
            progress.signalAll();
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Must hold the lock. */
    private void stopDeferringWhenCaughtUp() {
        if (deferring && catchUps.idle() && unrecorded.stream().noneMatch(pending -> pending.deferred)
                && recordingNow.stream().noneMatch(pending -> pending.deferred)) {
            deferring = false;
            log.info("The crystal indexer caught up: the {} crystal(s) recorded while it was behind are queued or"
                            + " indexed ({} s)", deferredInEpisode,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - deferringSince));
        }
    }

    /** Whether {@code seq} is older than a crystal of that id added and waiting in memory. */
    boolean newerWaiting(String id, long seq) {
        lock.lock();
        try {
            Pending pending = newest.get(id);
            return pending != null && pending.seq > seq;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The indexer waits for the embedding model to come back (it is down), or no longer does. While it waits, no read
     * waits for it: what it holds back may be indexed in seconds or in hours.
     */
    void modelDown(boolean down) {
        lock.lock();
        try {
            if (modelDown != down) {
                modelDown = down;
                progress.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether the indexer waits for the embedding model to come back. */
    boolean modelDown() {
        lock.lock();
        try {
            return modelDown;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every crystal of the scope added before the call is indexed (those deferred to the records
     * included) and the scope's records are compared with the index, going ahead of other scopes; not while the
     * indexer waits for the embedding model ({@link #modelDown(boolean)}).
     *
     * @return false when the wait timed out, the embedding model is down, or the queue was closed first
     */
    boolean awaitScope(String scope, Duration timeout) {
        lock.lock();
        try {
            if (!busy(scope)) {
                return true;
            }
            if (modelDown) {
                return false;
            }
            urgent.merge(scope, 1, Integer::sum);
            work.signal();
            try {
                long wait = timeout.toNanos();
                while (!closed) {
                    if (!busy(scope)) {
                        return true;
                    }
                    if (wait <= 0 || modelDown) {
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

    /** Whether crystals of the scope wait (in memory, to be recorded, to be read back) or its records are compared. */
    private boolean busy(String scope) {
        if (unreconciled.contains(scope) || scope.equals(reconciling) || catchUps.behind(scope)) {
            return true;
        }
        Pending last = lastOf(scope);
        if (last != null && !last.done) {
            return true;
        }
        for (Pending pending : recordingNow) {
            if (pending.deferred && !pending.cancelled && pending.crystal.scope().equals(scope)) {
                return true;
            }
        }
        for (Pending pending : unrecorded) {
            if (pending.deferred && pending.crystal.scope().equals(scope)) {
                return true;
            }
        }
        return false;
    }

    /** The last crystal of the scope waiting in memory or being indexed; must hold the lock. */
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

    /** @return the newest version of the crystal waiting in memory (to be recorded or indexed), if any */
    Optional<Crystal> pending(String id) {
        lock.lock();
        try {
            for (Iterator<Pending> it = unrecorded.descendingIterator(); it.hasNext(); ) {
                Pending pending = it.next();
                if (pending.deferred && pending.crystal.id().equals(id) && !pending.cancelled) {
                    return Optional.of(pending.crystal); // added after any of that id waiting in the queue
                }
            }
            for (Pending pending : recordingNow) {
                if (pending.deferred && pending.crystal.id().equals(id) && !pending.cancelled) {
                    return Optional.of(pending.crystal);
                }
            }
            Pending newer = newest.get(id);
            if (newer != null && !newer.cancelled) {
                return Optional.of(newer.crystal);
            }
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

    /** @return the scope of a crystal deferred to the records and not read back yet, or null */
    String deferredScope(String id) {
        lock.lock();
        try {
            return catchUps.scopeOf(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops the waiting crystals that match and marks those being recorded or indexed as cancelled (the writer checks
     * under its lock, so a delete that takes that lock next cannot be overtaken).
     */
    void cancel(Predicate<Crystal> matches) {
        lock.lock();
        try {
            for (Iterator<Pending> it = queue.iterator(); it.hasNext(); ) {
                Pending pending = it.next();
                if (matches.test(pending.crystal)) {
                    it.remove();
                    cancelled(pending);
                    if (pending.fromRecords) {
                        fromRecordsWaiting--;
                    } else {
                        newCount--;
                    }
                }
            }
            for (Iterator<Pending> it = unrecorded.iterator(); it.hasNext(); ) {
                Pending pending = it.next();
                if (matches.test(pending.crystal)) {
                    it.remove();
                    cancelled(pending);
                    if (pending.deferred) {
                        catchUps.dropped(pending.crystal);
                    }
                }
            }
            for (Pending pending : recordingNow) {
                if (matches.test(pending.crystal)) {
                    pending.cancelled = true;
                }
            }
            for (Pending pending : taken) {
                if (matches.test(pending.crystal)) {
                    pending.cancelled = true;
                }
            }
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void cancelled(Pending pending) {
        pending.cancelled = true;
        pending.done = true;
        newest.remove(pending.crystal.id(), pending);
    }

    /** The crystals of a scope with these ids were deleted from its records (under the writer's lock). */
    void deleted(String scope, Set<String> ids) {
        lock.lock();
        try {
            catchUps.deleted(scope, ids);
            catchUps.rewritten(scope);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets everything left to read or compare of a scope (the scope was deleted). */
    void forgetScope(String scope) {
        lock.lock();
        try {
            unreconciled.remove(scope);
            catchUps.forget(scope);
            stopDeferringWhenCaughtUp();
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return the scopes that may have recorded crystals not yet in the index, or records still to compare: no
     *         index commit may mark them as indexed
     */
    Set<String> scopesBehind() {
        return scopesBehind(false);
    }

    /**
     * {@link #scopesBehind()} for the commit on close, where every crystal not recorded yet is recorded first: one
     * already indexed then leaves its scope's records and index alike, so it does not hold the scope back.
     */
    Set<String> scopesBehindOnClose() {
        return scopesBehind(true);
    }

    private Set<String> scopesBehind(boolean closing) {
        lock.lock();
        try {
            Set<String> scopes = new HashSet<>(unreconciled);
            if (reconciling != null) {
                scopes.add(reconciling);
            }
            scopes.addAll(catchUps.scopes());
            for (Pending pending : queue) {
                scopes.add(pending.crystal.scope()); // recorded by the recorder, perhaps, and not indexed
            }
            for (Pending pending : taken) {
                scopes.add(pending.crystal.scope());
            }
            for (Pending pending : recordingNow) {
                if (!(closing && indexed(pending))) {
                    scopes.add(pending.crystal.scope());
                }
            }
            for (Pending pending : unrecorded) {
                if (!(closing && indexed(pending))) {
                    scopes.add(pending.crystal.scope());
                }
            }
            return scopes;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the indexer wrote the crystal (done, and neither cancelled nor deferred); must hold the lock. */
    private boolean indexed(Pending pending) {
        return pending.done && !pending.cancelled && !pending.deferred && !taken.contains(pending);
    }

    /** The next sequence number (what the index commit keeps, so that numbers never repeat after a restart). */
    long nextSeq() {
        lock.lock();
        try {
            return nextSeq;
        } finally {
            lock.unlock();
        }
    }

    /** Makes the next sequence number at least {@code seq} (records found with higher numbers). */
    void advanceSeq(long seq) {
        lock.lock();
        try {
            nextSeq = Math.max(nextSeq, seq);
        } finally {
            lock.unlock();
        }
    }

    /** Whether adds are deferred to the records now. */
    boolean deferring() {
        lock.lock();
        try {
            return deferring;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses further adds and wakes everyone.
     *
     * @return the new crystals not recorded yet (those waiting in memory, and deferred ones), to be recorded on close
     */
    List<Pending> close() {
        lock.lock();
        try {
            closed = true;
            List<Pending> left = new ArrayList<>();
            for (Pending pending : unrecorded) {
                if (!pending.cancelled) {
                    left.add(pending);
                }
            }
            if (!recorded) {
                for (Pending pending : queue) {
                    if (!pending.fromRecords && !pending.cancelled) {
                        left.add(pending);
                    }
                }
            }
            work.signalAll();
            recording.signalAll();
            progress.signalAll();
            return left;
        } finally {
            lock.unlock();
        }
    }
}
