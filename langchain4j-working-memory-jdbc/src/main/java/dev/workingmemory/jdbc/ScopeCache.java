package dev.workingmemory.jdbc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.langchain4j.data.embedding.Embedding;
import dev.workingmemory.crystal.ScopeIndex;
import dev.workingmemory.jdbc.CrystalTable.Changes;
import dev.workingmemory.jdbc.CrystalTable.Row;
import dev.workingmemory.jdbc.CrystalTable.Version;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * This instance's indexes of the scopes it searched lately: a {@link ScopeIndex} per scope (the embedded store's
 * keyword index and ranking, the scope's vectors scanned), loaded from the crystal table on the scope's first search
 * and caught up on later ones by the scope's change number: one query of a row when nothing changed, the changed rows
 * and removals when something did, the whole scope again when its history was reset. Bounded by the indexes' estimated
 * heap; Caffeine evicts the least valuable first.
 *
 * <p>Thread-safe. A scope is loaded by one thread at a time, and no scope waits for another's load; one scope's
 * catch-ups run one at a time, its searches in parallel with them.
 */
final class ScopeCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ScopeCache.class);

    private final CrystalTable table;
    private final IntSupplier dimension;
    private final long maxBytes;
    private final Cache<String, Cached> scopes;
    /**
     * A lock per scope being loaded, so a scope is loaded once at a time and no other scope waits for it: with locks
     * shared by hash stripes, a user's scope whose id fell in another's stripe (any id can be made to) waited for that
     * user's whole load, seconds for a large history, on each of its searches that loaded.
     */
    private final ConcurrentHashMap<String, LoadLock> loading = new ConcurrentHashMap<>();
    private final AtomicBoolean warnedLarge = new AtomicBoolean();
    private final AtomicBoolean warnedDimension = new AtomicBoolean();

    /**
     * @param dimension the dimension of the embedding model's vectors (asked once it is needed): a stored vector of
     *                  another is taken as missing, to be made again by this model
     * @param maxBytes  the most heap the indexes may take together (estimated)
     */
    ScopeCache(CrystalTable table, IntSupplier dimension, long maxBytes) {
        this.table = table;
        this.dimension = dimension;
        this.maxBytes = maxBytes;
        this.scopes = Caffeine.newBuilder()
                .maximumWeight(Math.max(1, maxBytes / 1024))
                .weigher((String scope, Cached cached) -> cached.weight())
                .removalListener((String scope, Cached cached, RemovalCause cause) -> {
                    if (cached != null) {
                        cached.evicted();
                    }
                })
                .build();
    }

    /**
     * The scope's index as the table holds the scope at the time of the call (loaded or caught up), kept usable until
     * the lease is closed (an index evicted meanwhile is released then).
     */
    Lease acquire(String scope) {
        while (true) {
            Cached cached = scopes.getIfPresent(scope);
            if (cached == null || !cached.acquire()) {
                cached = load(scope);
            }
            if (catchUp(cached)) {
                return new Lease(cached);
            }
            cached.release(); // its history was reset: load it again
            scopes.asMap().remove(scope, cached);
        }
    }

    /** Drops the scope's index (its crystals were deleted). */
    void invalidate(String scope) {
        scopes.invalidate(scope);
    }

    /** @return the heap the cached indexes take, estimated */
    long bytes() {
        scopes.cleanUp();
        return scopes.asMap().values().stream().mapToLong(cached -> cached.bytes).sum();
    }

    /** @return the scopes whose index is cached */
    Collection<String> scopes() {
        return List.copyOf(scopes.asMap().keySet());
    }

    /** @return a loaded and acquired index of the scope, cached unless another thread cached one first */
    private Cached load(String scope) {
        LoadLock lock = loading.compute(scope, (s, held) -> (held == null ? new LoadLock() : held).join());
        lock.lock();
        try {
            Cached cached = scopes.getIfPresent(scope);
            if (cached != null && cached.acquire()) {
                return cached;
            }
            long start = System.nanoTime();
            Version version = table.version(scope).orElse(new Version(0, 0));
            cached = new Cached(ScopeIndex.create(scope), version);
            Cached loaded = cached;
            try {
                table.load(scope, rows -> loaded.apply(rows, List.of(), dimension));
            } catch (RuntimeException e) {
                cached.index.close();
                throw e;
            }
            cached.acquire();
            cached.weigh();
            log.debug("Loaded the {} crystals of scope '{}' in {} ms ({} KB)", cached.index.size(), scope,
                    (System.nanoTime() - start) / 1_000_000, cached.bytes / 1024);
            if (cached.bytes > maxBytes && !warnedLarge.getAndSet(true)) {
                log.warn("The crystals of a scope take {} MB in memory, more than the crystal cache's {} MB: such a"
                        + " scope is loaded again for each search; give the cache more room", cached.bytes >> 20,
                        maxBytes >> 20);
            }
            scopes.put(scope, cached);
            return cached;
        } finally {
            lock.unlock();
            loading.computeIfPresent(scope, (s, held) -> held.leave() ? null : held);
        }
    }

    /** The lock of one scope's load, and how many threads hold or wait for it (guarded by the map's compute). */
    private static final class LoadLock extends ReentrantLock {

        private static final long serialVersionUID = 1L;

        private int users;

        LoadLock join() {
            users++;
            return this;
        }

        /** @return true when no other thread holds or waits for it: it leaves the map */
        boolean leave() {
            return --users == 0;
        }
    }

    /** Brings the index up to the table's version of its scope; false when the scope's history was reset. */
    private boolean catchUp(Cached cached) {
        cached.lock.lock();
        try {
            String scope = cached.index.scope();
            Version version = table.version(scope).orElse(new Version(0, 0));
            if (version.reset() != cached.reset) {
                return false;
            }
            if (version.change() != cached.change) {
                Changes changes = table.changes(scope, cached.change);
                cached.apply(changes.rows(), changes.removed(), dimension);
                // the changes read may go past the version read first: read again next time (applying is idempotent)
                cached.change = version.change();
                cached.weigh();
            }
            return true;
        } catch (RuntimeException e) {
            cached.release();
            throw e;
        } finally {
            cached.lock.unlock();
        }
    }

    /** Releases every index. */
    @Override
    public void close() {
        scopes.invalidateAll();
        scopes.cleanUp();
    }

    /** One scope's cached index. */
    final class Cached {

        final ScopeIndex index;
        /** Held to catch up or to add vectors, one thread at a time. */
        final ReentrantLock lock = new ReentrantLock();
        /** The change of the scope the index holds, and the reset it was loaded after; guarded by {@link #lock}. */
        long change;
        final long reset;
        /**
         * The crystals without a vector of their current text (or of this model's dimension) that are to get one (not
         * keywords only); guarded by lock.
         */
        final Map<String, Row> withoutVector = new HashMap<>();
        volatile long bytes;
        /** The bytes its weight in the cache was computed from. */
        private volatile long weighed;
        private int users;
        private boolean evicted;
        private boolean closed;

        Cached(ScopeIndex index, Version version) {
            this.index = index;
            this.change = version.change();
            this.reset = version.reset();
        }

        /** Applies crystals read from the table (with their vectors, if any) and removals. */
        void apply(List<Row> rows, Collection<String> removed, IntSupplier dimension) {
            List<ScopeIndex.Entry> entries = new ArrayList<>(rows.size());
            for (Row row : rows) {
                float[] vector = row.vector();
                if (vector != null && vector.length != dimension.getAsInt()) {
                    if (!warnedDimension.getAndSet(true)) {
                        log.warn("Crystal vectors of {} dimensions are stored where the embedding model makes {}:"
                                + " every instance must embed with the same model; they are embedded again by this one"
                                + " when their scope is searched", vector.length, dimension.getAsInt());
                    }
                    vector = null;
                }
                entries.add(new ScopeIndex.Entry(row.crystal(), vector == null ? null : Embedding.from(vector)));
                if (vector == null && !row.keywordsOnly() && !row.crystal().keywordsOnly()) {
                    withoutVector.put(row.crystal().id(), row);
                } else {
                    withoutVector.remove(row.crystal().id());
                }
            }
            removed.forEach(withoutVector::remove);
            index.update(entries, removed);
        }

        /** Measures the index again; the cache weighs it again when the lease ends. */
        void weigh() {
            bytes = index.ramBytesUsed() + withoutVector.size() * 256L;
        }

        /** Its weight in the cache: kilobytes, rounded up. */
        int weight() {
            long measured = bytes;
            weighed = measured;
            return (int) Math.min(Integer.MAX_VALUE, (measured + 1023) / 1024);
        }

        synchronized boolean acquire() {
            if (closed) {
                return false;
            }
            users++;
            return true;
        }

        synchronized void release() {
            if (--users == 0 && evicted) {
                close();
            }
        }

        synchronized void evicted() {
            evicted = true;
            if (users == 0) {
                close();
            }
        }

        private void close() {
            if (!closed) {
                closed = true;
                index.close();
            }
        }
    }

    /** An index in use: closing the lease lets it be released once evicted. */
    final class Lease implements AutoCloseable {

        private final Cached cached;
        private boolean released;

        private Lease(Cached cached) {
            this.cached = cached;
        }

        Cached cached() {
            return cached;
        }

        ScopeIndex index() {
            return cached.index;
        }

        @Override
        public void close() {
            if (!released) {
                released = true;
                if (cached.bytes != cached.weighed) { // it grew or shrank: weighed again (and maybe evicted)
                    scopes.asMap().replace(cached.index.scope(), cached, cached);
                }
                cached.release();
            }
        }
    }
}
