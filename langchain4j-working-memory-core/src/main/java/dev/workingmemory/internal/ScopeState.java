package dev.workingmemory.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.event.SaveFailed;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.layer.LayerContext;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The layers of one scope (one thread, or one resource), the lock that guards them, and their persistence.
 *
 * <p><b>Saving.</b> The scope's layers are saved together as one snapshot: at once when a layer writes durably
 * ({@link #layerWrite} with {@code durable}), else when the outermost write that changed something ends (no save
 * delay), or by one task the {@link SaveScheduler} runs a delay after the first unsaved change.
 *
 * <p><b>No lost updates.</b> Every layer write that changed something and is not saved yet is kept in an
 * {@link OperationJournal}. When a save meets a version conflict (another instance saved the scope), and when a
 * use finds that the stored version moved ({@link #refresh}), the stored state is loaded and the journal's
 * operations run again on it before anything is rendered or saved. A stored state found gone instead (deleted: the
 * resource forgotten, the thread deleted) is no concurrent save: the scope starts again from empty without replaying
 * the journal, so that nothing derived from the deleted state is saved or shown again, and says so
 * ({@link #forgotten}).
 *
 * <p>Thread-safe: the saver thread takes the same lock as callers.
 */
public final class ScopeState {

    private static final Logger log = LoggerFactory.getLogger(ScopeState.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORMAT_VERSION = 1;
    private static final String DOCUMENT_START = "{\"formatVersion\":" + FORMAT_VERSION + ",\"layers\":{";
    /** Conflicts in a row before a save gives up: other instances keep saving this scope faster than it reloads. */
    private static final int MAX_CONFLICTS = 64;
    /** The longest pause between two tries after conflicts in a row. */
    private static final long MAX_BACKOFF_MILLIS = 50;

    private final ReentrantLock lock = new ReentrantLock();
    private final LayerScope scope;
    private final String storeKey;
    private final WorkingMemoryStore store;
    private final SaveScheduler saver;
    private final StoreCheck storeCheck;
    private final List<LayerSlot> slots;
    /** The same slots in block order ({@link MemoryLayer#order()}), for {@link #reliefs}. */
    private final List<LayerSlot> inBlockOrder;
    private final OperationJournal journal;
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
    /** Whether the stored state was found deleted since this scope was loaded: it holds none of it any more. */
    private volatile boolean forgotten;
    /** Layer writes under way on this scope (nested ones included); only the outermost is journaled. */
    private int layerWriteDepth;
    /** The journal is being replayed on reloaded state: nothing is journaled or saved meanwhile. */
    private boolean replaying;
    /** When this scope last compared its version with the store's ({@link StoreCheck#now()}). */
    private long checkedAt;
    private final Listeners listeners;
    /** {@link #listeners} deaf while the journal is replayed: the replayed writes reported their events already. */
    private final Listeners events;
    private final MessageRules messageRules;
    /**
     * The names of the tools each memory of this scope (one for a thread, those of its threads for a resource) was
     * offered with its last request, as the provider's model listener saw it; a memory it has not seen is absent.
     */
    private final Map<MemoryKey, Set<String>> offeredTools = new ConcurrentHashMap<>();
    /** Incremented whenever {@link #offeredTools} changes. */
    private final AtomicLong toolChanges = new AtomicLong();

    public ScopeState(LayerScope scope, MemoryKey key, String storeKey, WorkingMemoryStore store,
                      List<MemoryLayerFactory> factories, Clock clock, SaveScheduler saver, StoreCheck storeCheck) {
        this(scope, key, storeKey, store, factories, clock, saver, storeCheck, Listeners.NONE,
                new MessageRules(null, LayerContext.DEFAULT_MAX_ANALYZED_CHARS));
    }

    public ScopeState(LayerScope scope, MemoryKey key, String storeKey, WorkingMemoryStore store,
                      List<MemoryLayerFactory> factories, Clock clock, SaveScheduler saver, StoreCheck storeCheck,
                      Listeners listeners, MessageRules messageRules) {
        this.listeners = listeners;
        this.messageRules = Ensure.notNull(messageRules, "messageRules");
        this.events = listeners.mutedWhile(() -> replaying);
        this.scope = scope;
        this.storeKey = storeKey;
        this.store = store;
        this.saver = saver;
        this.storeCheck = storeCheck;
        this.journal = new OperationJournal(storeKey);
        List<LayerSlot> created = new ArrayList<>(factories.size());
        for (MemoryLayerFactory factory : factories) {
            LayerSlot slot = new LayerSlot(this, key, clock, factory);
            MemoryLayer layer = factory.create(slot);
            if (layer == null || layer.scope() != scope) {
                throw new IllegalStateException("Layer factory " + factory + " declared scope " + scope
                        + " but created " + (layer == null ? "null" : "a " + layer.scope() + " layer '" + layer.name() + "'"));
            }
            slot.bind(layer);
            created.add(slot);
        }
        this.slots = Collections.unmodifiableList(created);
        List<LayerSlot> ordered = new ArrayList<>(created);
        ordered.sort(Comparator.comparingInt(slot -> slot.layer().order()));
        this.inBlockOrder = List.copyOf(ordered);
        Optional<Snapshot> stored;
        try {
            stored = store.load(storeKey);
        } catch (WorkingMemoryStoreException e) {
            throw new WorkingMemoryStoreException("Cannot load the working memory state '" + storeKey + "'", e);
        }
        stored.ifPresent(this::restore);
        for (LayerSlot slot : slots) {
            slot.layer().refresh(); // state kept outside the snapshot, read once before the first check is due
        }
        checkedAt = storeCheck.now();
    }

    public List<LayerSlot> slots() {
        return slots;
    }

    public LayerScope scope() {
        return scope;
    }

    /** Runs a layer's derived work on the saver thread after {@code delay}; false when saves are not deferred. */
    boolean runLater(Runnable task, java.time.Duration delay) {
        return !closed && saver.schedule(task, delay);
    }

    /** How the layers of this scope read messages. */
    MessageRules messageRules() {
        return messageRules;
    }

    /** The provider's listeners, deaf while this scope applies unsaved writes again (they reported their events). */
    public WorkingMemoryListener events() {
        return events;
    }

    /** The non-empty {@link MemoryLayer#relief() reliefs} of this scope's layers but {@code asking}'s, in block order. */
    List<String> reliefs(LayerSlot asking) {
        List<String> reliefs = new ArrayList<>();
        for (LayerSlot slot : inBlockOrder) {
            String relief = slot == asking ? "" : slot.layer().relief();
            if (!relief.isEmpty()) {
                reliefs.add(relief);
            }
        }
        return reliefs;
    }

    /**
     * Changes whenever a layer of this scope changes, also by a reload, and whenever what {@link #offersTool} answers
     * may have changed. Only ever grows.
     */
    public long version() {
        return version.get() + messageRules.modelTools().generation();
    }

    /** Changes whenever what {@link #offersTool} answers may have changed. Only ever grows. */
    long toolsVersion() {
        return toolChanges.get() + messageRules.modelTools().generation();
    }

    /**
     * Notes the tools a model was offered with a request of {@code memory} (a memory of this scope), so that a layer
     * names no other ({@link LayerContext#offersTool}). Takes no lock: a model listener calls it. A memory closed while
     * the listener reported it may stay here until the scope goes: its tools can only make the scope name fewer.
     */
    public void toolsOffered(MemoryKey memory, Set<String> toolNames) {
        Set<String> names = Set.copyOf(toolNames);
        if (!names.equals(offeredTools.put(memory, names))) {
            toolChanges.incrementAndGet(); // layers that named tools render again
            version.incrementAndGet();
        }
    }

    /** The tools {@code memory}'s last request carried, as the model listener saw it; empty when it saw none. */
    public Optional<Set<String>> toolsOffered(MemoryKey memory) {
        return Optional.ofNullable(offeredTools.get(memory));
    }

    /** Forgets the tools of {@code memory}, which is closed. Takes no lock. */
    public void toolsWithdrawn(MemoryKey memory) {
        if (offeredTools.remove(memory) != null) {
            toolChanges.incrementAndGet();
            version.incrementAndGet();
        }
    }

    /** The tool specifications' tokens to count for a memory whose requests the model listener has not matched. */
    public int toolTokensUnseen() {
        return messageRules.modelTools().toolTokensUnseen();
    }

    /**
     * Whether every memory of this scope was offered {@code toolName} with its last request the model listener saw;
     * for a scope none of whose requests it saw, what the provider assumes ({@link ModelTools}).
     */
    boolean offersTool(String toolName) {
        if (offeredTools.isEmpty()) {
            return messageRules.modelTools().offeredUnseen(toolName);
        }
        for (Set<String> offered : offeredTools.values()) {
            if (!offered.contains(toolName)) {
                return false;
            }
        }
        return true;
    }

    /** Runs {@code action} holding the lock. Throws {@link MemoryClosedException} once the scope is closed. */
    public <T> T read(Supplier<T> action) {
        lock.lock();
        try {
            enter();
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code action} holding the lock; saves at its end (when saves are not deferred) what layer writes inside
     * it changed. What {@code action} itself changes outside the layers (the message window) is not journaled.
     */
    public <T> T write(Supplier<T> action) {
        lock.lock();
        try {
            enter();
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

    /**
     * Takes in a state another instance saved meanwhile (the journal replayed on it), when the {@link StoreCheck}
     * says it is time to look. For a scope used without {@link #read} or {@link #write}, such as a resource scope
     * whose layers render inside the thread scope's lock.
     *
     * @throws MemoryClosedException when the scope is closed
     */
    public void refresh() {
        read(() -> null);
    }

    /** A write of one layer ({@link LayerSlot#write}, {@link LayerSlot#writeDurably}). */
    <T> T layerWrite(LayerSlot slot, Supplier<T> action, boolean durable) {
        lock.lock();
        try {
            enter();
            if (durable && layerWriteDepth == 0 && !replaying) {
                return durableWrite(slot, action);
            }
            T result = journaledWrite(slot, action);
            if (durable && layerWriteDepth == 0 && dirty && !replaying) {
                persistOrThrow(); // a durable write nested in another's action: saved when the outermost ends
            }
            return result;
        } finally {
            try {
                if (dirty && !saveScheduled && !replaying && lock.getHoldCount() == 1) {
                    persist("will retry on the next change");
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Lets {@code slot}'s layer observe {@code message}, as a write journaled only when it changed the layer: most
     * messages change nothing, and then nothing is allocated for the journal.
     */
    void observe(LayerSlot slot, ChatMessage message) {
        lock.lock();
        try {
            enter();
            long before = slot.version();
            layerWriteDepth++;
            try {
                slot.layer().onMessage(message);
            } finally {
                layerWriteDepth--;
            }
            if (layerWriteDepth == 0 && !replaying && slot.version() != before) {
                journal(slot, () -> {
                    slot.layer().onMessage(message);
                    return null;
                });
            }
        } finally {
            try {
                if (dirty && !saveScheduled && !replaying && lock.getHoldCount() == 1) {
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
        if (!saveScheduled && !replaying) {
            // The queued task references this scope strongly until it has run: the provider holds resource
            // scopes weakly, and a dirty one must not be collected before it is saved.
            saveScheduled = saver.schedule(this::scheduledSave);
        }
    }

    void refreshed(LayerSlot slot) {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("LayerContext.refreshed() must be called holding the lock (read or write)");
        }
        slot.bumpVersion();
        version.incrementAndGet();
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

    /**
     * Whether this scope found its stored state deleted elsewhere (its resource forgotten, its thread deleted) since it
     * was loaded: it dropped what it held and starts again from empty, but the memory it belongs to (its window, its
     * other scope) must be loaded again.
     */
    public boolean forgotten() {
        return forgotten;
    }

    /** Refuses further use and drops unsaved changes: the scope's stored state is being deleted. */
    public void discard() {
        lock.lock();
        try {
            closed = true;
            dirty = false;
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

    /** Replaces the state of the layers named in {@code layers} (used by fork), one journaled write per layer. */
    public void restoreLayers(ObjectNode layers) {
        write(() -> {
            for (LayerSlot slot : slots) {
                JsonNode snapshot = layers.get(slot.layer().name());
                if (snapshot != null) {
                    slot.write(() -> {
                        slot.layer().restore(snapshot.deepCopy());
                        slot.changed();
                        return null;
                    });
                }
            }
            return null;
        });
    }

    // ---- writes ----------------------------------------------------------------------------------------------

    /** Checks the scope is open and, on the outermost use, whether another instance saved it. Holding the lock. */
    private void enter() {
        if (closed) {
            throw new MemoryClosedException(storeKey);
        }
        if (lock.getHoldCount() == 1 && storeCheck.due(checkedAt)) {
            checkStore();
        }
    }

    /** Runs a layer's write and journals it when it is the outermost one and changed the layer. */
    private <T> T journaledWrite(LayerSlot slot, Supplier<T> action) {
        long before = slot.version();
        layerWriteDepth++;
        T result;
        try {
            result = action.get();
        } finally {
            layerWriteDepth--;
        }
        if (layerWriteDepth == 0 && !replaying && slot.version() != before) {
            journal(slot, action);
        }
        return result;
    }

    private void journal(LayerSlot slot, Supplier<?> action) {
        journal.add(slot, action);
        if (journal.isFull()) {
            // Bounds the journal without giving up replay: a scope changed this often is saved now.
            persist("will retry on the next change");
        }
    }

    /** A durable write: saved before returning, applied again on the stored state after each conflict. */
    private <T> T durableWrite(LayerSlot slot, Supplier<T> action) {
        String before = slot.snapshotMember(); // usually cached since the last save: no serialization
        for (int conflicts = 0; ; conflicts++) {
            long versionBefore = slot.version();
            T result = journaledWrite(slot, action);
            boolean changedLayer = slot.version() != versionBefore;
            if (!dirty) {
                return result;
            }
            try {
                save();
                return result;
            } catch (VersionConflictException e) {
                if (changedLayer) {
                    journal.removeLast(); // runs again below, on the reloaded state, so that its result is returned
                }
                if (conflicts + 1 >= MAX_CONFLICTS) {
                    undo(slot, before, false);
                    throw new WorkingMemoryStoreException("Could not save '" + storeKey + "': " + MAX_CONFLICTS
                            + " conflicts in a row with other instances saving it", e);
                }
                backOff(conflicts);
                reload();
                before = slot.snapshotMember();
            } catch (WorkingMemoryStoreException e) {
                undo(slot, before, changedLayer);
                listeners.onSaveFailed(new SaveFailed(storeKey, scope, e));
                throw e;
            }
        }
    }

    /** Puts {@code slot}'s layer back as it was ({@code before}, its snapshot member) before a write that failed. */
    private void undo(LayerSlot slot, String before, boolean journaled) {
        if (journaled) {
            journal.removeLast();
        }
        try {
            slot.layer().restore(JSON.readTree("{" + before + "}").get(slot.layer().name()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot read back the snapshot of layer '" + slot.layer().name() + "'", e);
        }
        slot.bumpVersion();
        version.incrementAndGet();
        dirty = !journal.isEmpty();
    }

    // ---- loading and saving ----------------------------------------------------------------------------------

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
     * Saves, reloading and replaying on conflicts.
     *
     * @param retry what happens to the changes when the store fails, for the log
     * @return false when the store failed; the state stays dirty
     */
    private boolean persist(String retry) {
        try {
            persistOrThrow();
            return true;
        } catch (WorkingMemoryStoreException e) {
            // The state stays in memory and dirty, to be saved again as retry says.
            log.error("Could not save the working memory state '{}'; {}", storeKey, retry, e);
            listeners.onSaveFailed(new SaveFailed(storeKey, scope, e));
            return false;
        }
    }

    private void persistOrThrow() {
        for (int conflicts = 0; ; conflicts++) {
            try {
                save();
                return;
            } catch (VersionConflictException e) {
                if (conflicts + 1 >= MAX_CONFLICTS) {
                    throw new WorkingMemoryStoreException("Could not save '" + storeKey + "': " + MAX_CONFLICTS
                            + " conflicts in a row with other instances saving it", e);
                }
                backOff(conflicts);
                reload();
            }
        }
    }

    /**
     * Waits a random while, growing with {@code conflicts}, before reloading: two instances writing one scope in a
     * tight loop otherwise keep meeting each other's saves in lockstep, and one of them starves.
     */
    static void backOff(int conflicts) {
        if (conflicts == 0) {
            return; // the first conflict is the usual case of one write elsewhere: reload at once
        }
        long bound = Math.min(MAX_BACKOFF_MILLIS, 1L << Math.min(conflicts, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(bound + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // kept for the caller; the save goes on, as it would without the pause
        }
    }

    /** One compare-and-set save of the current state. */
    private void save() {
        storedVersion = store.save(storeKey, storedVersion, document()).version();
        checkedAt = storeCheck.now();
        dirty = false;
        journal.clear();
    }

    /** Takes in the stored state if its version is not the one this scope last loaded or saved. */
    private void checkStore() {
        try {
            long stored = store.version(storeKey);
            checkedAt = storeCheck.now();
            if (stored != storedVersion) {
                reload();
            }
            for (int i = 0; i < slots.size(); i++) { // indexed: this runs on every use
                LayerSlot slot = slots.get(i);
                if (slot.layer().refresh()) {
                    refreshed(slot);
                }
            }
        } catch (WorkingMemoryStoreException e) {
            // A read must not fail a model call: the state held here is served, and saves retry as usual.
            log.warn("Cannot check whether '{}' was saved elsewhere; using the state held here", storeKey, e);
        }
    }

    /**
     * Loads the stored state (another instance saved it) and replays the journal on it: an append appends to what
     * is stored now. A journal that overflowed cannot be replayed; then this instance's state is kept and saved over
     * the stored one, with a warning.
     */
    private void reload() {
        Optional<Snapshot> stored = store.load(storeKey);
        long found = stored.map(Snapshot::version).orElse(0L);
        if (stored.isEmpty() && storedVersion > 0) {
            // Deleted (forgotten), not saved elsewhere: the unsaved writes were derived from what was deleted, and are
            // not replayed. The provider drops the memory at its next lookup (forgotten()).
            log.debug("State '{}' was deleted elsewhere; dropping {} unsaved change(s)", storeKey, journal.size());
            journal.clear();
            forgotten = true;
        }
        if (!journal.isReplayable()) {
            log.warn("State '{}' was saved elsewhere (version {}, expected {}), but too many unsaved changes were made "
                    + "here to apply them again; keeping this instance's state", storeKey, found, storedVersion);
            storedVersion = found;
            journal.clear();
            return;
        }
        log.debug("State '{}' was saved elsewhere (version {}, held {}); reloading and applying {} unsaved change(s) again",
                storeKey, found, storedVersion, journal.size());
        for (LayerSlot slot : slots) {
            slot.reset();
        }
        foreignMembers = "";
        storedVersion = 0;
        stored.ifPresent(this::restore);
        replaying = true;
        try {
            journal.replay();
        } finally {
            replaying = false;
        }
        for (LayerSlot slot : slots) {
            slot.bumpVersion();
        }
        version.incrementAndGet();
        dirty = !journal.isEmpty();
        if (dirty && !saveScheduled) {
            saveScheduled = saver.schedule(this::scheduledSave);
        }
        checkedAt = storeCheck.now();
    }

    /** Restores the layers from a stored snapshot. Holding the lock, or in the constructor. */
    private void restore(Snapshot stored) {
        storedVersion = stored.version();
        JsonNode layers;
        try {
            layers = JSON.readTree(stored.document()).get("layers");
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
     * {@code {"formatVersion":1,"layers":{...}}}: the text Jackson writes for the layers' snapshots (and the stored
     * snapshots of layers this configuration lacks) in such a document. Each layer's part is cached in its slot until
     * the layer changes, so that a change of one layer serializes that layer only (benchmarks/README.md: a new entity
     * re-serialized kilobytes of core memory).
     */
    private String document() {
        StringJoiner document = new StringJoiner(",", DOCUMENT_START, "}}");
        if (!foreignMembers.isEmpty()) {
            document.add(foreignMembers);
        }
        for (LayerSlot slot : slots) {
            document.add(slot.snapshotMember());
        }
        return document.toString();
    }

    /** {@code "name":snapshot}, a member of the {@code layers} object as Jackson writes it. */
    static String member(String name, JsonNode snapshot) {
        return TextNode.valueOf(name) + ":" + (snapshot == null ? "null" : snapshot.toString());
    }
}
