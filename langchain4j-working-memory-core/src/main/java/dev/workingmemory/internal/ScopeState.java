package dev.workingmemory.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.store.Snapshot;
import dev.workingmemory.store.VersionConflictException;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The layers of one scope (one thread, or one resource), the lock that guards them, and their
 * persistence: the scope's layers are saved together as one snapshot, either when the outermost
 * {@link #write} that changed something ends, or, when the {@link SaveScheduler} defers saves, by one task
 * scheduled at the first unsaved change, which saves every change made until it runs.
 *
 * <p>Thread-safe: the saver thread takes the same lock as callers.
 */
public final class ScopeState {

    private static final Logger log = LoggerFactory.getLogger(ScopeState.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORMAT_VERSION = 1;
    private static final String DOCUMENT_START = "{\"formatVersion\":" + FORMAT_VERSION + ",\"layers\":{";

    private final ReentrantLock lock = new ReentrantLock();
    private final LayerScope scope;
    private final String storeKey;
    private final WorkingMemoryStore store;
    private final SaveScheduler saver;
    private final List<LayerSlot> slots;
    /** Incremented on every change of any layer; read without the lock to validate render caches. */
    private final AtomicLong version = new AtomicLong();
    private long storedVersion;
    /**
     * Snapshots of layers this configuration does not have, as members of the saved {@code layers} object, kept so
     * that saving does not lose them; {@code ""} when there are none.
     */
    private String foreignMembers = "";
    private boolean dirty;
    /** A scheduled save is queued and has not started; while true, writes leave saving to it. */
    private boolean saveScheduled;
    private boolean closed;

    public ScopeState(LayerScope scope, MemoryKey key, String storeKey, WorkingMemoryStore store,
                      List<MemoryLayerFactory> factories, Clock clock, SaveScheduler saver) {
        this.scope = scope;
        this.storeKey = storeKey;
        this.store = store;
        this.saver = saver;
        List<LayerSlot> created = new ArrayList<>(factories.size());
        for (MemoryLayerFactory factory : factories) {
            LayerSlot slot = new LayerSlot(this, key, clock);
            MemoryLayer layer = factory.create(slot);
            if (layer == null || layer.scope() != scope) {
                throw new IllegalStateException("Layer factory " + factory + " declared scope " + scope
                        + " but created " + (layer == null ? "null" : "a " + layer.scope() + " layer '" + layer.name() + "'"));
            }
            slot.bind(layer);
            created.add(slot);
        }
        this.slots = Collections.unmodifiableList(created);
        load();
    }

    public List<LayerSlot> slots() {
        return slots;
    }

    public LayerScope scope() {
        return scope;
    }

    /** Changes whenever a layer of this scope changes. */
    public long version() {
        return version.get();
    }

    /** Runs {@code action} holding the lock. Throws {@link MemoryClosedException} once the scope is closed. */
    public <T> T read(Supplier<T> action) {
        lock.lock();
        try {
            if (closed) {
                throw new MemoryClosedException(storeKey);
            }
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    public <T> T write(Supplier<T> action) {
        lock.lock();
        try {
            if (closed) {
                throw new MemoryClosedException(storeKey);
            }
            return action.get();
        } finally {
            try {
                if (dirty && !saveScheduled && lock.getHoldCount() == 1) {
                    persist("will retry on the next change");
                }
            } finally {
                lock.unlock();
            }
        }
    }

    void changed(LayerSlot slot) {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("LayerContext.changed() must be called inside LayerContext.write()");
        }
        slot.bumpVersion();
        version.incrementAndGet();
        dirty = true;
        if (!saveScheduled) {
            // The queued task references this scope strongly until it has run: the provider holds resource
            // scopes weakly, and a dirty one must not be collected before it is saved.
            saveScheduled = saver.schedule(this::scheduledSave);
        }
    }

    /** The scheduled save, on the saver thread. A failed save is tried again after the delay. */
    private void scheduledSave() {
        lock.lock();
        try {
            saveScheduled = false;
            if (!dirty || closed) {
                return;
            }
            String retry = "will retry in " + saver.delay();
            try {
                persist(retry);
            } catch (RuntimeException e) {
                // Not a store failure (a layer's snapshot failed?); the executor would swallow it silently.
                log.error("Could not save the working memory state '{}'; {}", storeKey, retry, e);
            }
            if (dirty) {
                saveScheduled = saver.schedule(this::scheduledSave);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Saves pending changes now, on the calling thread. Does nothing when nothing is pending, when the scope is
     * closed, or inside a write of the calling thread (whose end, or the scheduled save, saves them).
     *
     * @return false when the save failed (logged); the changes stay pending and are saved later as usual
     */
    public boolean flush() {
        lock.lock();
        try {
            if (!dirty || closed || lock.getHoldCount() > 1) {
                return true;
            }
            return persist(saveScheduled ? "will retry in " + saver.delay() : "will retry on the next change");
        } finally {
            lock.unlock();
        }
    }

    /** Saves pending changes and refuses further writes: a new instance will load the saved state. */
    public void close() {
        close(() -> { });
    }

    /**
     * {@link #close()}, running {@code lastWrite} first, holding the lock, unless the scope is already closed: what
     * the owner of the scope saves along with it, with no write of another thread in between.
     */
    public void close(Runnable lastWrite) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            lastWrite.run();
            if (dirty) {
                persist("its changes since the last save are lost");
            }
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    /** The snapshots of this scope's layers, by layer name. */
    public ObjectNode snapshotLayers() {
        return read(() -> {
            ObjectNode layers = JSON.createObjectNode();
            for (LayerSlot slot : slots) {
                layers.set(slot.layer().name(), slot.layer().snapshot());
            }
            return layers;
        });
    }

    /** Replaces the state of the layers named in {@code layers} (used by fork). */
    public void restoreLayers(ObjectNode layers) {
        write(() -> {
            for (LayerSlot slot : slots) {
                JsonNode snapshot = layers.get(slot.layer().name());
                if (snapshot != null) {
                    slot.layer().restore(snapshot.deepCopy());
                    slot.changed();
                }
            }
            return null;
        });
    }

    private void load() {
        Optional<Snapshot> stored;
        try {
            stored = store.load(storeKey);
        } catch (WorkingMemoryStoreException e) {
            throw new WorkingMemoryStoreException("Cannot load the working memory state '" + storeKey + "'", e);
        }
        if (stored.isEmpty()) {
            return;
        }
        storedVersion = stored.get().version();
        JsonNode layers;
        try {
            layers = JSON.readTree(stored.get().document()).get("layers");
        } catch (JsonProcessingException e) {
            layers = null;
        }
        if (layers == null || !layers.isObject()) {
            log.warn("The stored state of '{}' (version {}) is unreadable; starting from empty", storeKey, storedVersion);
            return;
        }
        ObjectNode remaining = ((ObjectNode) layers).deepCopy();
        for (LayerSlot slot : slots) {
            JsonNode snapshot = remaining.remove(slot.layer().name());
            if (snapshot != null) {
                try {
                    slot.layer().restore(snapshot);
                } catch (RuntimeException e) {
                    log.warn("Layer '{}' could not restore its state of '{}'; it starts empty", slot.layer().name(), storeKey, e);
                }
            }
        }
        StringJoiner members = new StringJoiner(",");
        remaining.fields().forEachRemaining(layer -> members.add(member(layer.getKey(), layer.getValue())));
        foreignMembers = members.toString();
    }

    /**
     * Saves {@code {"formatVersion":1,"layers":{...}}}: the text Jackson writes for the layers' snapshots (and the
     * stored snapshots of layers this configuration lacks) in such a document. Each layer's part is cached in its
     * slot until the layer changes, so that a change of one layer serializes that layer only (benchmarks/README.md:
     * a new entity re-serialized kilobytes of core memory).
     *
     * @param retry what happens to the changes when the store fails, for the log
     * @return false when the store failed; the state stays dirty
     */
    private boolean persist(String retry) {
        StringJoiner document = new StringJoiner(",", DOCUMENT_START, "}}");
        if (!foreignMembers.isEmpty()) {
            document.add(foreignMembers);
        }
        for (LayerSlot slot : slots) {
            document.add(slot.snapshotMember());
        }
        String text = document.toString();
        try {
            storedVersion = save(text);
            dirty = false;
            return true;
        } catch (WorkingMemoryStoreException e) {
            // The state stays in memory and dirty, to be saved again as retry says.
            log.error("Could not save the working memory state '{}'; {}", storeKey, retry, e);
            return false;
        }
    }

    /** {@code "name":snapshot}, a member of the {@code layers} object as Jackson writes it. */
    static String member(String name, JsonNode snapshot) {
        return TextNode.valueOf(name) + ":" + (snapshot == null ? "null" : snapshot.toString());
    }

    private long save(String text) {
        try {
            return store.save(storeKey, storedVersion, text).version();
        } catch (VersionConflictException e) {
            // Another provider instance saved this key. This instance holds the state its users just changed,
            // so it wins; shared multi-instance stores coordinate through their own locking (see the store docs).
            log.warn("State '{}' was saved elsewhere (stored version {}, expected {}); overwriting with this instance's state",
                    storeKey, e.actualVersion(), storedVersion);
            return store.save(storeKey, e.actualVersion(), text).version();
        }
    }
}
