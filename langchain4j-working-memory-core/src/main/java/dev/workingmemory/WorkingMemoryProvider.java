package dev.workingmemory;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.blocks.CoreMemory;
import dev.workingmemory.blocks.CoreMemoryConfig;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.dream.AutoNote;
import dev.workingmemory.dream.DreamConfig;
import dev.workingmemory.dream.DreamEngine;
import dev.workingmemory.dream.DreamInsights;
import dev.workingmemory.dream.DreamLogEntry;
import dev.workingmemory.dream.DreamRecord;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.dream.SalienceLayer;
import dev.workingmemory.dream.SalienceLevels;
import dev.workingmemory.dream.StateLayer;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.context.ContextPressureConfig;
import dev.workingmemory.context.PressureListener;
import dev.workingmemory.context.ToolOutputCache;
import dev.workingmemory.context.ToolOutputCacheConfig;
import dev.workingmemory.context.ToolOutputCrystals;
import dev.workingmemory.entity.EntityMemory;
import dev.workingmemory.entity.EntityMemoryConfig;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.BlockRenderer;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.internal.ChatMemoryStoreConversation;
import dev.workingmemory.internal.Conversation;
import dev.workingmemory.internal.DreamScheduler;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.LayerSlot;
import dev.workingmemory.internal.Listeners;
import dev.workingmemory.internal.LoggedConversation;
import dev.workingmemory.internal.MemoryClosedException;
import dev.workingmemory.internal.MemoryForgottenException;
import dev.workingmemory.internal.MemorySearch;
import dev.workingmemory.internal.MessageRules;
import dev.workingmemory.internal.MessageWindow;
import dev.workingmemory.internal.ProviderCrystals;
import dev.workingmemory.internal.SaveScheduler;
import dev.workingmemory.internal.ScopeState;
import dev.workingmemory.internal.StoreCheck;
import dev.workingmemory.internal.TextPartsEstimator;
import dev.workingmemory.internal.UnpausedThreads;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.notes.NoteCrystals;
import dev.workingmemory.notes.NotesConfig;
import dev.workingmemory.notes.NotesLayer;
import dev.workingmemory.render.BlockBudget;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import dev.workingmemory.slots.SessionActivation;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.slots.SessionSlotsConfig;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.turns.PastTurns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * Gives every memory id its {@link WorkingMemory} and the {@link ChatMemory} that {@code AiServices}
 * uses with it.
 *
 * <pre>{@code
 * WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
 *         .store(new FileWorkingMemoryStore(Path.of("memory")))
 *         .maxMessages(20)
 *         .contextWindow(128_000)
 *         .build();
 * Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .chatMemoryProvider(memories)
 *         .tools(new CmsTools())
 *         .build();
 * }</pre>
 *
 * <p>Memories are kept in a bounded cache ({@link Builder#maxCachedMemories}); an evicted memory is saved
 * first and loaded again from the stores on its next use, so nothing is lost; its conversation counts as paused
 * ({@link Builder#pauseAfter}: what its window holds becomes past turns). Writes a caller is told were made
 * (core memory, scratchpad: {@link dev.workingmemory.layer.LayerContext#writeDurably}) are in the
 * {@link WorkingMemoryStore} when they return. State the memory derives by itself (entities) is saved behind the
 * turn: one save per scope (a thread, or a resource) a {@linkplain Builder#saveDelay save delay} after its first
 * unsaved change, on the provider's daemon thread {@code working-memory-saver}, so that the changes made meanwhile
 * cost one save. {@link #flush()} saves what is pending now; {@link #close()} saves it and stops the saver, so close
 * the provider before the JVM exits. Several providers (application instances) may share one store: a memory takes
 * in what another saved before it renders or writes ({@link Builder#storeCheckInterval}), and a save that conflicts
 * reloads the stored state and applies its own unsaved writes to it again, so no update is lost.
 * The conversation itself (the message window) is kept by the {@link WorkingMemoryStore} too, in each thread's
 * message log ({@link WorkingMemoryStore#appendMessages}): a message is in the store when {@code add} returns, a
 * restart continues the conversation, and instances sharing the store add to one conversation without erasing each
 * other's turns (each sees what the others added before its next use). A message that leaves the window becomes a past
 * turn once, whichever instance evicts it. A {@link Builder#chatMemoryStore ChatMemoryStore} you configure keeps the
 * messages instead, as LangChain4j's own memories do (see there for what that does not guarantee).
 *
 * <p>Thread-safe. The saver thread and callers contend only on the lock of the scope being saved; a save never
 * runs inside a write.
 */
public final class WorkingMemoryProvider implements ChatMemoryProvider, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkingMemoryProvider.class);
    private static final int MAX_RETRIES = 64;
    /** The n-th retry of {@link #withMemory} pauses a random time up to 2ⁿ⁻² times this, and never above the cap. */
    private static final long RETRY_PAUSE_NANOS = 100_000;
    private static final long MAX_RETRY_PAUSE_NANOS = 50_000_000;

    private final WorkingMemoryStore store;
    /** Where the memories' messages are kept: the store's message logs, or the application's ChatMemoryStore. */
    private final Conversation.Store conversations;
    private final UnpausedThreads unpaused;
    private final Integer maxMessages;
    private final Integer maxTokens;
    private final TokenCountEstimator tokenCountEstimator;
    private final BlockRenderer renderer;
    private final MemorySettings settings;
    private final List<MemoryLayerFactory> threadLayers;
    private final List<MemoryLayerFactory> resourceLayers;
    private final Function<Object, MemoryKey> keyMapper;
    private final Clock clock;
    private final EntityMemoryConfig entities;
    private final CoreMemoryConfig coreMemory;
    private final ScratchpadConfig scratchpad;
    private final NotesConfig notes;
    private final SessionSlotsConfig sessionSlots;
    private final ContextPressureConfig contextPressure;
    /** Null without context pressure. */
    private final ToolOutputCache toolOutputs;
    private final Cache<MemoryKey, WorkingMemory> memories;
    private final ToolSpecificationListener toolSpecificationListener;
    /**
     * Weak values: a resource's state lives while any of its thread memories does, or while a save of it is
     * scheduled (the queued task holds it strongly), so unsaved changes are never collected.
     */
    private final Cache<String, ScopeState> resources;
    private final SaveScheduler saver;
    private final StoreCheck storeCheck;
    private final DreamEngine dreams;
    /** {@code null} when dreams are not scheduled ({@link DreamConfig#scheduled()}). */
    private final DreamScheduler dreamScheduler;
    private final Listeners listeners;
    /** The long-term memory; null when built {@code withoutCrystals()}. */
    private final CrystalStore crystals;
    /** The crystal store this provider opened (and closes); null for the application's own or none. */
    private final CrystalStore ownCrystals;
    private final MemoryToolNames memoryToolNames = new MemoryToolNames();
    private final MessageRules messageRules;
    /**
     * Loads of a resource take its stripe's read lock and {@link #forget} its write lock, so that no memory of a
     * resource loads the state being deleted while it is forgotten (it would hold, and evict into crystals, what was
     * deleted).
     */
    private final ReadWriteLock[] loadFences = new ReadWriteLock[64];
    /**
     * The document {@link #forget} puts on the resource's key before it deletes anything and that goes with the key
     * last: while it is there, a memory loaded anywhere may be half deleted.
     */
    static final String FORGETTING = "forgetting";
    private volatile boolean closed;

    private WorkingMemoryProvider(Builder builder) {
        if (builder.maxMessages != null && builder.maxTokens != null) {
            throw new IllegalStateException("Choose a window by messages (maxMessages) or by tokens (maxTokens), not both");
        }
        this.store = builder.store != null ? builder.store : new InMemoryWorkingMemoryStore();
        this.maxTokens = builder.maxTokens;
        this.tokenCountEstimator = builder.tokenCountEstimator == null ? null
                : TextPartsEstimator.of(builder.tokenCountEstimator);
        this.maxMessages = builder.maxTokens == null && builder.maxMessages == null ? Integer.valueOf(20) : builder.maxMessages;
        int blockChars = builder.blockChars != null ? builder.blockChars : BlockBudget.forContextWindow(builder.contextWindow);
        this.renderer = new BlockRenderer(blockChars);
        TokenCountEstimator estimator = tokenCountEstimator != null ? tokenCountEstimator : CharsPerTokenEstimator.INSTANCE;
        builder.checkCrystalOptions();
        this.listeners = Listeners.of(builder.listeners);
        if (builder.withoutCrystals) {
            this.ownCrystals = null;
            this.crystals = null;
        } else if (builder.crystalStore != null) {
            this.ownCrystals = null;
            this.crystals = builder.crystalStore;
        } else {
            this.ownCrystals = store.openCrystalStore(builder.embeddingModel, builder.embeddingStore, listeners)
                    .orElseGet(() -> ProviderCrystals.open(null, builder.embeddingModel, builder.embeddingStore,
                            listeners));
            this.crystals = ownCrystals;
        }
        MemorySearch search = crystals == null ? null
                : new MemorySearch(crystals, estimator, builder.searchTokenBudget, builder.maxSearchQueryChars, listeners,
                builder.clock);
        this.messageRules = new MessageRules(memoryToolNames, builder.maxAnalyzedChars);
        this.keyMapper = builder.keyMapper;
        this.clock = builder.clock;
        this.entities = builder.entities;
        this.coreMemory = builder.coreMemory;
        this.scratchpad = builder.scratchpad;
        this.notes = builder.notes;
        this.sessionSlots = builder.sessionSlotsConfig();
        this.contextPressure = builder.contextPressure;
        this.saver = new SaveScheduler(builder.saveDelay);
        this.unpaused = new UnpausedThreads(store, builder.chatMemoryStore != null, saver);
        unpaused.handOverWith(this::tellLeftPause);
        this.settings = new MemorySettings(renderer, builder.clock, estimator, builder.contextWindow, search,
                builder.pauseAfter, unpaused);
        this.storeCheck = new StoreCheck(builder.storeCheckInterval);
        this.conversations = builder.chatMemoryStore != null
                ? ChatMemoryStoreConversation.in(builder.chatMemoryStore)
                : LoggedConversation.in(store, builder.clock, storeCheck, listeners);
        List<MemoryLayerFactory> all = new ArrayList<>();
        if (entities != null) {
            all.add(EntityMemory.factory(entities));
        }
        if (coreMemory != null) {
            all.add(CoreMemory.factory(coreMemory));
        }
        if (scratchpad != null) {
            all.add(Scratchpad.factory(scratchpad));
        }
        if (notes != null) {
            all.add(NotesLayer.factory(notes, store, crystals == null ? NoteCrystals.NONE : NoteCrystals.into(crystals)));
        }
        if (crystals != null && builder.pastTurns != Boolean.FALSE) {
            all.add(PastTurns.factory(crystals));
        }
        DreamEngine.Builder dreamEngine = DreamEngine.builder().store(store).config(builder.dreams)
                .contextWindow(builder.contextWindow).clock(builder.clock).tokenCountEstimator(estimator)
                .insights(this::dreamInsights).crystalStore(crystals).listener(listeners);
        if (builder.dreamModel != null) {
            dreamEngine.dreamModel(builder.dreamModel);
        }
        this.dreams = dreamEngine.build();
        all.add(StateLayer.factory(dreams));
        if (builder.salience) {
            all.add(SalienceLayer.factory(builder.dreams));
        }
        if (sessionSlots != null) {
            all.add(SessionSlots.factory(sessionSlots));
        }
        if (contextPressure != null) {
            ToolOutputCacheConfig cacheConfig = builder.toolOutputCache;
            if (crystals != null && cacheConfig.crystals() == ToolOutputCrystals.NONE) {
                cacheConfig = cacheConfig.withCrystals(crystals::add); // full outputs found by memory_search
            }
            this.toolOutputs = new ToolOutputCache(store, cacheConfig, builder.clock);
            all.add(ContextPressure.factory(contextPressure, toolOutputs, builder.pressureListener));
        } else {
            this.toolOutputs = null;
        }
        all.addAll(builder.layers);
        this.threadLayers = all.stream().filter(f -> f.scope() == LayerScope.THREAD).toList();
        this.resourceLayers = all.stream().filter(f -> f.scope() == LayerScope.RESOURCE).toList();
        this.memories = Caffeine.newBuilder()
                .maximumSize(builder.maxCachedMemories)
                // evict on the caller's thread, so that a memory is saved and closed before its next load
                .executor(Runnable::run)
                .evictionListener((MemoryKey key, WorkingMemory memory, RemovalCause cause) -> {
                    if (memory != null) {
                        memory.close();
                        log.debug("Evicted working memory {} ({})", key, cause);
                    }
                })
                .build();
        this.resources = Caffeine.newBuilder().weakValues().build();
        this.toolSpecificationListener = new ToolSpecificationListener(() -> memories.asMap().values(), estimator,
                messageRules.modelTools());
        for (int i = 0; i < loadFences.length; i++) {
            loadFences[i] = new ReentrantReadWriteLock();
        }
        this.dreamScheduler = builder.dreams.scheduled() ? scheduler(new WeakReference<>(this), builder.dreams) : null;
    }

    /** The scheduler's tasks reach the provider weakly: a provider collected without close() stops its scheduler. */
    private static DreamScheduler scheduler(WeakReference<WorkingMemoryProvider> provider, DreamConfig config) {
        return new DreamScheduler(config.interval(), () -> {
            WorkingMemoryProvider self = provider.get();
            if (self == null || self.closed) {
                return false;
            }
            self.dreams.dreamDue();
            return true;
        }, config.consolidationInterval(), () -> {
            WorkingMemoryProvider self = provider.get();
            if (self == null || self.closed) {
                return false;
            }
            self.consolidate();
            return true;
        });
    }

    /** A builder with the defaults the {@link Builder} describes. */
    public static Builder builder() {
        return new Builder();
    }

    /** The {@link ChatMemory} for {@code memoryId}, as {@code AiServices} asks for it. */
    @Override
    public ChatMemory get(Object memoryId) {
        Ensure.notNull(memoryId, "memoryId");
        ensureOpen();
        return new WorkingChatMemory(this, memoryId);
    }

    /** The {@link WorkingMemory} for {@code memoryId}, loaded from the stores when it is not in the cache. */
    public WorkingMemory memory(Object memoryId) {
        Ensure.notNull(memoryId, "memoryId");
        return memory(memoryId, keyOf(memoryId));
    }

    private WorkingMemory memory(Object memoryId, MemoryKey key) {
        ensureOpen();
        WorkingMemory cached = memories.getIfPresent(key);
        if (cached != null && !cached.threadState().forgotten() && !cached.resourceState().forgotten()) {
            return cached; // one that forget closes refuses use: the caller looks again, and waits below
        }
        if (cached != null) {
            dropLoaded(key.resource());
        }
        WorkingMemory loaded;
        // outside the cache's computation: forget invalidates entries while it holds the fence
        Lock fence = loadFence(key.resource()).readLock();
        fence.lock();
        try {
            loaded = memories.get(key, k -> load(memoryId, k));
        } finally {
            fence.unlock();
        }
        if (closed && loaded != cached) {
            // close() began after this lookup passed ensureOpen, and may have closed the cache's memories before this
            // one entered it: closed here, so that no memory stays usable, and unsaved, after close() returned
            memories.asMap().remove(key, loaded);
            loaded.close();
            loaded.resourceState().close();
            ensureOpen();
        }
        if (loaded != cached && store.getDocument(key.resourceStoreKey(), FORGETTING).isPresent()) {
            // Another instance is forgetting the resource (or stopped halfway): what was loaded may be half deleted.
            // Forgetting it here too finishes the deletion (and drops the crystals this load queued) before use.
            log.info("Resource '{}' is being forgotten elsewhere; finishing that before loading it", key.resource());
            forgetFenced(memoryId, key); // without the dream lease: the forget that marked the resource holds it
            return memory(memoryId, key);
        }
        if (loaded != cached) {
            unpaused.sweepOnce(loaded.resourceState(), key.resource());
        }
        return loaded;
    }

    /**
     * A thread a process that stopped left marked as not paused ({@link UnpausedThreads}): loaded, and its layers told
     * of the pause if it is quiet now (else its own check tells them when it is).
     */
    private void tellLeftPause(UnpausedThreads.Marked marked) {
        if (closed || memories.getIfPresent(marked.key()) != null) {
            return; // loaded here: its pause comes as any other
        }
        if (!keyOf(marked.memoryId()).equals(marked.key())) {
            log.warn("Not telling the pause left of {}: its memory id '{}' maps to another key now", marked.key(),
                    marked.memoryId());
            return;
        }
        try {
            memory(marked.memoryId(), marked.key()).tellPauseIfQuiet();
        } catch (IllegalStateException e) {
            log.debug("Not telling the pause left of {}: {}", marked.key(), e.toString()); // closed or forgotten
        }
    }

    private ReadWriteLock loadFence(String resource) {
        return loadFences[Math.floorMod(resource.hashCode(), loadFences.length)];
    }

    /**
     * The {@link WorkingMemory} of {@code memoryId} if it is loaded now, without loading it: for looking at a memory
     * without changing what the provider holds. A memory loaded under one id reads and saves its messages under that
     * id, so a tool that only knows a key must not load the memory with a guessed one.
     */
    public Optional<WorkingMemory> loadedMemory(Object memoryId) {
        Ensure.notNull(memoryId, "memoryId");
        ensureOpen();
        return Optional.ofNullable(memories.getIfPresent(keyOf(memoryId)));
    }

    /** The keys of the memories loaded now, in no particular order (an estimate while evictions are under way). */
    public List<MemoryKey> loadedKeys() {
        ensureOpen();
        return List.copyOf(memories.asMap().keySet());
    }

    /**
     * The threads of {@code resource} with messages since their last pause ({@link Builder#pauseAfter}), as the store
     * records them for every application instance: their windows are not in the long-term memory yet, so the user's
     * other conversations do not find them. A process that stopped without closing its provider leaves its threads
     * here until a provider loads the user. Sorted.
     */
    public List<String> threadsAwaitingPause(String resource) {
        Ensure.notNull(resource, "resource");
        ensureOpen();
        return unpaused.marked(resource).stream().map(marked -> marked.key().thread()).sorted().toList();
    }

    /** The key {@code memoryId} maps to. */
    public MemoryKey keyOf(Object memoryId) {
        Ensure.notNull(memoryId, "memoryId");
        MemoryKey key = memoryId instanceof MemoryKey given ? given : keyMapper.apply(memoryId);
        if (key == null) {
            throw new IllegalArgumentException("The memory key mapper returned null for memory id " + memoryId);
        }
        return key;
    }

    /**
     * Prepares the memory of a sub-agent: {@code childId}'s resource gets a copy of the resource-scoped
     * state of {@code parentId}'s resource: its layers (a resource-scoped scratchpad, ...), its pending notes and its
     * state document (without the dream history). Thread-scoped state (entities, core memory, a thread-scoped
     * scratchpad, messages) is not copied. When both ids share a resource, nothing needs copying.
     *
     * @return the child's memory
     * @throws IllegalStateException when the child's resource holds state of its own (pending notes, a state document
     *                               or a resource-scoped layer that shows something): a fork would replace it
     */
    public WorkingMemory fork(Object parentId, Object childId) {
        WorkingMemory parent = memory(parentId);
        WorkingMemory child = memory(childId);
        String from = parent.key().resource();
        String to = child.key().resource();
        if (from.equals(to)) {
            return child;
        }
        if (!holdsNothing(child)) {
            throw new IllegalStateException("Cannot fork '" + from + "' into '" + to + "': it holds notes, a state"
                    + " document or other state of its own, which the copy would replace. Fork into a new resource, or"
                    + " forget '" + to + "' first.");
        }
        child.resourceState().restoreLayers(parent.resourceState().snapshotLayers());
        if (notes != null) {
            child.notes().copy(parent.notes().notes());
        }
        if (dreams != null) {
            dreams.copyState(from, to);
        }
        return child;
    }

    private boolean holdsNothing(WorkingMemory memory) {
        if (notes != null && !memory.notes().notes().isEmpty()) {
            return false;
        }
        if (dreams != null && dreams.state(memory.key().resource()).isPresent()) {
            return false;
        }
        return memory.resourceState().read(() -> memory.layers().stream()
                .filter(layer -> layer.scope() == LayerScope.RESOURCE)
                .allMatch(layer -> layer.render(Integer.MAX_VALUE).isEmpty()));
    }

    /**
     * Dreams the resource of {@code memoryId} now (seed 000): its state document is rewritten from the old state, the
     * pending notes, the crystals since the last dream and the salience, by the {@linkplain Builder#dreamModel dream
     * model} or offline. Runs on the calling thread (the synthesis on the engine's thread, within the timeout) and
     * never throws for what a dream may meet: the report says whether it committed and why.
     */
    public DreamReport dream(Object memoryId) {
        ensureOpen();
        return dreams.dream(keyOf(memoryId).resource());
    }

    /**
     * Rolls back the last committed dream of the resource of {@code memoryId}: the state before it is restored and the
     * notes it consumed are pending again.
     *
     * @return false when there is no dream left to roll back ({@link DreamConfig#recordsKept()} are kept)
     * @throws IllegalStateException when a dream of that resource is running
     */
    public boolean rollbackDream(Object memoryId) {
        ensureOpen();
        return dreams.rollback(keyOf(memoryId).resource());
    }

    /**
     * The state document of the resource of {@code memoryId} as stored ({@code MEMORY.md}: what the last committed
     * dream wrote, or a hand-written seed), empty before the first dream. The memory id is resolved to its resource as
     * {@link #dream} and {@link #rollbackDream} resolve it ({@link #keyOf}), so any thread's memory id of a resource
     * reads the same document.
     */
    public Optional<String> dreamState(Object memoryId) {
        ensureOpen();
        return dreams.state(keyOf(memoryId).resource());
    }

    /**
     * The committed dreams of the resource of {@code memoryId} still kept ({@link DreamConfig#recordsKept()}), oldest
     * first: what {@link #rollbackDream} can undo. Resolved like {@link #dreamState}.
     */
    public List<DreamRecord> dreamHistory(Object memoryId) {
        ensureOpen();
        return dreams.history(keyOf(memoryId).resource());
    }

    /**
     * The last dreams of the resource of {@code memoryId} that got as far as a synthesis — committed, rejected by a
     * collapse guard, or failed — oldest first, each with its report and, once rolled back, when
     * ({@link DreamEngine#log}). Resolved like {@link #dreamState}.
     */
    public List<DreamLogEntry> dreamLog(Object memoryId) {
        ensureOpen();
        return dreams.log(keyOf(memoryId).resource());
    }

    /**
     * Searches the long-term memory of the resource of {@code memoryId} as {@link WorkingMemory#search} and
     * {@code memory_search} do, without loading a memory. Resolved like {@link #dreamState}.
     *
     * @throws IllegalArgumentException for a blank or too long query or a bad limit, saying what to change
     * @throws IllegalStateException    when the provider was built {@code withoutCrystals()}
     */
    public List<MemoryHit> search(Object memoryId, String query, int limit) {
        ensureOpen();
        if (settings.search() == null) {
            throw new IllegalStateException("This provider keeps no long-term memory to search: it was built"
                    + " withoutCrystals()");
        }
        return settings.search().search(keyOf(memoryId).crystalScope(), query, limit);
    }

    /**
     * The dream engine: dream history, the stored state, the dream configuration. Its methods take a resource
     * ({@link MemoryKey#resource()}), not a memory id: {@code dreamEngine().state(keyOf(memoryId).resource())} is
     * {@link #dreamState dreamState(memoryId)}, {@code history(…)} is {@link #dreamHistory}.
     */
    public DreamEngine dreamEngine() {
        return dreams;
    }

    /**
     * What a dream of {@code resource} learns from the memories in the cache: the salience levels of the resource, the
     * entities of its threads, most frequent first, and the items of their session slots (zero levels and none when
     * it is not loaded).
     */
    private DreamInsights dreamInsights(String resource) {
        SalienceLevels levels = SalienceLevels.NONE;
        ScopeState scope = resources.getIfPresent(resource);
        if (scope != null) {
            for (LayerSlot slot : scope.slots()) {
                if (slot.layer() instanceof SalienceLayer salience) {
                    levels = salience.levels();
                }
            }
        }
        Map<String, Integer> entities = new LinkedHashMap<>();
        Set<String> slotItems = new LinkedHashSet<>();
        for (WorkingMemory memory : memories.asMap().values()) {
            if (memory.key().resource().equals(resource)) {
                try {
                    for (Entity entity : memory.entities()) {
                        entities.merge("\"" + entity.name() + "\" (" + entity.type() + " " + entity.id() + ")", 1,
                                Integer::sum);
                    }
                    memory.layer(SessionSlots.class).ifPresent(slots -> slots.slotNames().forEach(slot ->
                            slots.items(slot).forEach(item -> slotItems.add(slot + ": " + item))));
                } catch (MemoryClosedException e) {
                    // evicted meanwhile: its entities are saved, and not needed for this dream
                }
            }
        }
        List<String> frequent = entities.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).map(Map.Entry::getKey).toList();
        return new DreamInsights(levels, frequent, List.copyOf(slotItems));
    }

    /**
     * Appends the salience auto-notes that are due, once per loaded resource (the scheduler's consolidation).
     * Package-private for the tests that stand for a conversation's minutes passing.
     */
    void consolidate() {
        Set<String> done = new HashSet<>();
        for (WorkingMemory memory : memories.asMap().values()) {
            if (closed) {
                return;
            }
            if (!done.add(memory.key().resource()) || notes == null) {
                continue;
            }
            try {
                memory.layer(SalienceLayer.class).ifPresent(salience -> {
                    List<AutoNote> due = salience.takeAutoNotes();
                    if (memory.resourceState().forgotten()) {
                        // its levels were raised by what was said before the resource was forgotten elsewhere
                        dropLoaded(memory.key().resource());
                        return;
                    }
                    for (AutoNote note : due) {
                        memory.notes().note(note.text(), note.importance(), List.of(AutoNote.TAG));
                    }
                });
            } catch (MemoryClosedException e) {
                // evicted meanwhile: its levels were saved and are noted when it is loaded again
            } catch (RuntimeException e) {
                log.warn("Could not write the salience auto-notes of '{}'", memory.key().resource(), e);
            }
        }
    }

    /**
     * Deletes everything of the resource {@code memoryId} maps to, in every thread: its resource-scoped and
     * thread-scoped state, notes, documents and leases in the {@link WorkingMemoryStore} (for the file store, the
     * key directories; the messages with them), its crystals (records and index entries), the messages in a configured
     * {@link ChatMemoryStore}, and its cached memories. Afterwards nothing of it is found: {@link WorkingMemory#search} returns nothing, a new
     * {@link #memory} starts empty.
     *
     * <p>A {@link WorkingMemory} of that resource still held by a caller is dropped first (what it had not saved is
     * never written) and refuses further use with an {@link IllegalStateException}; get the
     * memory again from the provider, which starts it empty. Messages are deleted under the memory ids this provider
     * knows for the resource: {@code memoryId}, the ids of its cached memories, and the {@link MemoryKey} of each of
     * its threads in the store (plus the resource's name for the default thread, as the default key mapper maps it);
     * messages an application's own {@code ChatMemoryStore} keeps under other ids must be deleted there.
     *
     * <p><b>A resource in use.</b> The user may go on talking meanwhile, through this provider or another instance on
     * the same store. Once {@code forget} returns, nothing said in a turn that finished before it began comes back in
     * the resource's crystals, stored messages or state, or in what {@code messages()} and the block show, on any
     * instance:
     * <ul>
     *   <li>This provider loads no memory of the resource while it forgets it (a use waits), so none holds what is
     *       being deleted.</li>
     *   <li>Another instance finds out at its next use of a memory of the resource, from the checks it makes before
     *       every use anyway (its thread's message log and its state's version, as often as
     *       {@link Builder#storeCheckInterval} says): it drops its memories of the resource, saved or not, without
     *       writing anything of them, and loads them again, empty. A memory loaded while a forget is under way (the
     *       forget marks the resource first and unmarks it last) finishes that forget before it is used.</li>
     *   <li>Crystals that another instance queued before the forget are not written after it (the JDBC crystal store
     *       records when a scope was deleted; the embedded one lives in one JVM, where the forget drops them; an
     *       application's own {@link Builder#crystalStore} shared by instances must see to it itself).</li>
     *   <li>A dream of the resource running anywhere is waited for (at most {@link DreamConfig#leaseTtl()}), and none
     *       starts until the forget is done.</li>
     * </ul>
     * Not guaranteed: a turn running while {@code forget} runs may keep what it adds after the delete (a new memory,
     * which starts empty, holds it) and lose the rest. With a {@link Builder#storeCheckInterval} above zero, another
     * instance may show the old state until its next check (it writes none of it: appends and saves meet the
     * deletion first). With an application's {@link Builder#chatMemoryStore ChatMemoryStore}, other instances are not
     * told: their cached windows keep the old messages and write them back with their next change; forget a resource
     * served so only where no other instance has it loaded. Another instance finds out by numbers (a log's last
     * entry, a state's version) that start again after a delete: one that does not look before a third instance has
     * written the same thread back past where it had seen it misses the deletion. A pruned tool output another
     * instance was writing to its cache (a document, and its crystals) at the moment of the delete may be written
     * after it.
     *
     * @throws WorkingMemoryStoreException when the store cannot delete it; forget it again (a memory loaded meanwhile
     *                                     finishes the forget first)
     */
    public void forget(Object memoryId) {
        Ensure.notNull(memoryId, "memoryId");
        ensureOpen();
        MemoryKey key = keyOf(memoryId);
        // before the fence: waiting for a dream must not hold up the loads of other resources
        if (!dreams.holdOff(key.resource())) {
            log.warn("A dream of '{}' still held its lease after {}; forgetting it all the same", key.resource(),
                    dreams.config().leaseTtl());
        }
        forgetFenced(memoryId, key);
    }

    /** Deletes the resource of {@code key}, holding its load fence: no memory of it loads meanwhile. */
    private void forgetFenced(Object memoryId, MemoryKey key) {
        Lock fence = loadFence(key.resource()).writeLock();
        fence.lock();
        try {
            forget(memoryId, key);
        } finally {
            fence.unlock();
        }
        log.info("Forgot resource '{}': its state, notes, documents, messages and crystals are deleted",
                key.resource());
    }

    private void forget(Object memoryId, MemoryKey key) {
        String resource = key.resource();
        store.putDocument(key.resourceStoreKey(), FORGETTING, clock.instant().toString());
        Set<Object> memoryIds = new LinkedHashSet<>();
        memoryIds.add(memoryId);
        memoryIds.addAll(dropLoaded(resource));
        String threadKeyPrefix = MemoryKey.of(resource, "").threadStoreKey();
        if (toolOutputs != null) {
            toolOutputs.forgetWaiting(threadKeyPrefix); // also a thread the store holds nothing of yet
        }
        for (String stored : store.keys()) {
            if (stored.startsWith(threadKeyPrefix)) {
                String thread = stored.substring(threadKeyPrefix.length());
                memoryIds.add(MemoryKey.of(resource, thread));
                if (toolOutputs != null) {
                    toolOutputs.forget(MemoryKey.of(resource, thread)); // no cached output lands after the delete
                }
                if (thread.equals(MemoryKey.DEFAULT_THREAD)) {
                    memoryIds.add(resource);
                }
                store.delete(stored);
            }
        }
        memoryIds.forEach(conversations::delete);
        if (crystals != null) {
            crystals.deleteScope(key.crystalScope());
        }
        store.delete(key.resourceStoreKey()); // last: with it goes the FORGETTING document
    }

    /** The entity tracking configuration, empty when the provider was built without entity tracking. */
    public Optional<EntityMemoryConfig> entityConfig() {
        return Optional.ofNullable(entities);
    }

    /** The core memory configuration, empty when the provider was built without core memory. */
    public Optional<CoreMemoryConfig> coreMemoryConfig() {
        return Optional.ofNullable(coreMemory);
    }

    /** The scratchpad configuration, empty when the provider was built without a scratchpad. */
    public Optional<ScratchpadConfig> scratchpadConfig() {
        return Optional.ofNullable(scratchpad);
    }

    /** The notes configuration, empty when the provider was built without notes. */
    public Optional<NotesConfig> notesConfig() {
        return Optional.ofNullable(notes);
    }

    /**
     * The long-term memory (notes, archived notes and past turns as crystals) that {@link WorkingMemory#search} and
     * {@code memory_search} search; empty when the provider was built {@code withoutCrystals()}. A store the provider
     * opened itself is closed by {@link #close()} (with the last provider on its directory): do not close it.
     */
    public Optional<CrystalStore> crystalStore() {
        return Optional.ofNullable(crystals);
    }

    /** The clock the memories read: the time of notes, of messages (past turns) and of their dates. */
    public Clock clock() {
        return clock;
    }

    /** The session slots configuration (seed 003, tier 2), empty when the provider was built without them. */
    public Optional<SessionSlotsConfig> sessionSlotsConfig() {
        return Optional.ofNullable(sessionSlots);
    }

    /**
     * The context pressure configuration (seed 003, tiers 3 and 4: tool-output pruning and pressure), empty when the
     * provider was built without it.
     */
    public Optional<ContextPressureConfig> contextPressureConfig() {
        return Optional.ofNullable(contextPressure);
    }

    /**
     * Deletes the memory of {@code memoryId}: its thread-scoped state (entities, core memory, session slots, pressure,
     * a thread scratchpad), its cached tool outputs and its messages, from the stores and from this provider.
     * Resource-scoped state (notes, a resource scratchpad, long-term crystals), shared with the resource's other threads,
     * stays: {@link #forget} deletes a whole resource. Do not use
     * the memory while it is being deleted; using it afterwards starts it empty.
     *
     * @throws WorkingMemoryStoreException when the store cannot delete it
     */
    public void delete(Object memoryId) {
        MemoryKey key = keyOf(memoryId);
        ensureOpen();
        WorkingMemory memory = memories.asMap().remove(key);
        if (memory != null) {
            memory.discard();
        }
        if (toolOutputs != null) {
            toolOutputs.forget(key); // no cached output is written after the delete
        }
        store.delete(key.threadStoreKey());
        conversations.delete(memory != null ? memory.memoryId() : memoryId);
        unpaused.unmarkThread(key); // nothing left to tell
    }

    /**
     * The store that keeps the memories' state, notes and documents (the one given to the builder, or the provider's
     * own in-memory store). Writing to it behind the provider's back bypasses the memories' locks: read it.
     */
    public WorkingMemoryStore store() {
        return store;
    }

    /**
     * The names of the memory's own tools, whose results the memory neither prunes nor mines: the tools module registers
     * its tools here when their beans are created ({@link MemoryToolNames}).
     */
    public MemoryToolNames memoryToolNames() {
        return memoryToolNames;
    }

    /**
     * A listener to add to the chat model ({@code OpenAiChatModel.builder().listeners(List.of(...))}; a Spring
     * application gets it as a bean): it tells each memory how many tokens the tool specifications of its requests
     * take, which {@code ChatMemory} never sees and the model counts against its context window, so that context
     * pressure counts them (an agent with the memory's tools sends about 2,500 tokens of them). Without it pressure
     * measures the messages and the block only: give a {@link Builder#contextWindow} that leaves room for the tools.
     * It also tells each memory the names of those tools, so that the texts the memory adds (a pruned output's pointer,
     * the notes' and the state's search hints, pressure's advice) name only tools the model has: those of the memory's
     * last request; for a memory it has not seen a request of yet, those that every request it saw carried. The same
     * listener each time; it never fails the model's call.
     */
    public ChatModelListener chatModelListener() {
        return toolSpecificationListener;
    }

    /**
     * The model's context window in tokens, which the block and the requests are sized for
     * ({@link Builder#contextWindow}).
     */
    public int contextWindow() {
        return settings.contextWindow();
    }

    /** The most characters of one message analysed on the request path ({@link Builder#maxAnalyzedChars}). */
    public int maxAnalyzedChars() {
        return messageRules.maxAnalyzedChars();
    }

    /** The block's size in characters. */
    public int blockBudget() {
        return renderer.totalChars();
    }

    /** How many memories are loaded now (an estimate while evictions are under way); 0 after {@link #close()}. */
    public long cachedMemories() {
        return memories.estimatedSize();
    }

    /**
     * The crystals (notes, past turns, ...) waiting to be indexed in the long-term memory ({@link
     * CrystalStore#pendingCount()}); 0 without crystals and after {@link #close()}.
     */
    public long pendingCrystals() {
        return crystals == null || closed ? 0 : crystals.pendingCount();
    }

    /**
     * The notes not yet consumed by a dream, over the resources loaded now (their notes as last read from the store);
     * 0 without notes and after {@link #close()}.
     */
    public long pendingNotes() {
        if (notes == null || closed) {
            return 0;
        }
        long pending = 0;
        for (ScopeState resource : resources.asMap().values()) {
            for (LayerSlot slot : resource.slots()) {
                if (slot.layer() instanceof NotesLayer layer) {
                    try {
                        pending += layer.notes().size();
                    } catch (MemoryClosedException e) {
                        // evicted meanwhile: its notes are counted when it is loaded again
                    }
                }
            }
        }
        return pending;
    }

    /**
     * Saves the pending layer state of every cached memory, thread-scoped and resource-scoped, now, on the calling
     * thread, and returns when it is saved. Use it where the state must be in the store at a known point (before
     * another process reads it, in a shutdown step that runs before {@link #close()}); otherwise the saver does this
     * {@linkplain Builder#saveDelay a delay} after each change. Does nothing after {@link #close()}, which saved
     * everything.
     *
     * @throws WorkingMemoryStoreException when some state could not be saved (each failure is logged); that state
     *                                     stays in memory and is saved again as after any failed save
     */
    public void flush() {
        if (closed) {
            return;
        }
        int failed = 0;
        for (WorkingMemory memory : memories.asMap().values()) {
            failed += memory.threadState().flush() ? 0 : 1;
        }
        for (ScopeState resource : resources.asMap().values()) {
            failed += resource.flush() ? 0 : 1;
        }
        if (failed > 0) {
            throw new WorkingMemoryStoreException("Could not save the working memory state of " + failed
                    + " scope(s); see the log. It stays in memory and is saved again later");
        }
    }

    /**
     * Saves every cached memory, releases them and stops the saver thread; returns when all of it is done. The
     * conversations of the cached memories count as paused ({@link Builder#pauseAfter}): their windows' exchanges not
     * made into past turns yet are handed to the crystal store first (which the provider closes after, when it is its
     * own: the embedded store records what it has not indexed and indexes it after the next start). The provider
     * cannot be used afterwards.
     */
    @Override
    public void close() {
        closed = true;
        if (dreamScheduler != null) {
            dreamScheduler.close();
        }
        memories.asMap().values().forEach(WorkingMemory::close);
        memories.invalidateAll();
        resources.asMap().values().forEach(ScopeState::close);
        resources.invalidateAll();
        // Every scope is saved and closed, so the saves still queued would do nothing: drop them.
        saver.close();
        dreams.close();
        if (ownCrystals != null) {
            ownCrystals.close(); // the application's own crystal store stays open
        }
        if (toolOutputs != null) {
            toolOutputs.close();
        }
    }

    /**
     * Runs {@code operation} on the memory of {@code memoryId}. When the provider evicts that memory between
     * the lookup and the operation (the evicted instance refuses use before changing anything), the operation
     * runs again on the memory loaded from the store, after a random pause from the second retry on that doubles
     * up to 50 ms (callers that keep evicting each other's memories would otherwise retry in step). Use this rather
     * than {@link #memory(Object)} for work that may race with eviction, such as tool calls.
     *
     * @throws IllegalStateException when the memory was evicted on each of 64 attempts
     */
    public <T> T withMemory(Object memoryId, Function<WorkingMemory, T> operation) {
        return withMemory(memoryId, keyOf(memoryId), operation);
    }

    /** {@link #withMemory(Object, Function)} with the key of {@code memoryId} already known ({@link WorkingChatMemory}). */
    <T> T withMemory(Object memoryId, MemoryKey key, Function<WorkingMemory, T> operation) {
        Ensure.notNull(operation, "operation");
        for (int attempt = 1; ; attempt++) {
            WorkingMemory memory = memory(memoryId, key);
            try {
                return operation.apply(memory);
            } catch (MemoryClosedException | MemoryForgottenException e) {
                // Evicted between lookup and use: the next lookup loads the saved state.
                if (e instanceof MemoryForgottenException) {
                    dropLoaded(key.resource()); // the next lookup loads what is stored now: nothing said before
                }
                if (attempt == MAX_RETRIES) {
                    throw e;
                }
                if (attempt > 1) {
                    // Twice in a row: callers are evicting each other's memories (more in use than the cache holds).
                    // A random pause lets one of them finish instead of all retrying in step.
                    // Doubling: three threads sharing a cache of one, on two loaded cores, were evicted 16 times in a row.
                    long bound = Math.min(MAX_RETRY_PAUSE_NANOS, RETRY_PAUSE_NANOS << Math.min(attempt - 2, 20));
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(bound));
                }
            }
        }
    }

    /**
     * Drops the loaded memories of {@code resource} and its resource state without saving them: it is being forgotten
     * here, or one of them found its conversation or its state deleted elsewhere ({@link MemoryForgottenException},
     * {@link ScopeState#forgotten}). What they hold, saved or not, was derived from what is deleted. Their queued tool
     * outputs are dropped too (a thread may not be in the store yet, saved behind the turn, its outputs queued).
     *
     * @return the memory ids of the memories dropped
     */
    private Set<Object> dropLoaded(String resource) {
        Set<Object> memoryIds = new LinkedHashSet<>();
        for (var cached : memories.asMap().entrySet()) {
            if (cached.getKey().resource().equals(resource)
                    && memories.asMap().remove(cached.getKey(), cached.getValue())) {
                memoryIds.add(cached.getValue().memoryId());
                cached.getValue().discard();
                if (toolOutputs != null) {
                    toolOutputs.forget(cached.getKey());
                }
            }
        }
        ScopeState resourceState = resources.getIfPresent(resource);
        if (resourceState != null) {
            resources.asMap().remove(resource, resourceState);
            resourceState.discard();
        }
        log.debug("Dropped the loaded memories of resource '{}' without saving them", resource);
        return memoryIds;
    }

    private WorkingMemory load(Object memoryId, MemoryKey key) {
        ScopeState resource = resources.get(key.resource(), r -> new ScopeState(LayerScope.RESOURCE, key,
                key.resourceStoreKey(), store, resourceLayers, clock, saver, storeCheck, listeners, messageRules));
        ScopeState thread = new ScopeState(LayerScope.THREAD, key, key.threadStoreKey(), store, threadLayers, clock, saver,
                storeCheck, listeners, messageRules);
        MessageWindow window = maxTokens != null
                ? MessageWindow.ofTokens(maxTokens, tokenCountEstimator)
                : MessageWindow.ofMessages(maxMessages);
        return new WorkingMemory(memoryId, key, thread, resource, conversations.open(memoryId, key, window), settings);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("This WorkingMemoryProvider is closed");
        }
    }

    /**
     * Builds a {@link WorkingMemoryProvider}. By default: everything in memory, a window of 20 messages,
     * a block budget for a 128K-token context window, entity tracking, core memory, a free-text
     * thread-scoped scratchpad, notes, session slots and context pressure (tool results pruned, full outputs cached),
     * layer state saved a second after it changes. Not thread-safe.
     */
    public static final class Builder {

        private WorkingMemoryStore store;
        private ChatMemoryStore chatMemoryStore;
        private Integer maxMessages;
        private Integer maxTokens;
        private TokenCountEstimator tokenCountEstimator;
        private int contextWindow = 128_000;
        private Integer blockChars;
        private EntityMemoryConfig entities = EntityMemoryConfig.defaults();
        private CoreMemoryConfig coreMemory = CoreMemoryConfig.defaults();
        private ScratchpadConfig scratchpad = ScratchpadConfig.defaults();
        private NotesConfig notes = NotesConfig.defaults();
        private boolean salience = true;
        private SessionSlotsConfig sessionSlots = SessionSlotsConfig.defaults();
        /** Null: decided by evidence (the session slots' own activation). */
        private Boolean codingAgent;
        private ContextPressureConfig contextPressure = ContextPressureConfig.defaults();
        private ToolOutputCacheConfig toolOutputCache = ToolOutputCacheConfig.defaults();
        private PressureListener pressureListener = PressureListener.NONE;
        private final List<MemoryLayerFactory> layers = new ArrayList<>();
        private Function<Object, MemoryKey> keyMapper = id -> MemoryKey.of(String.valueOf(id));
        private int maxCachedMemories = 10_000;
        private Clock clock = Clock.systemUTC();
        private Duration saveDelay = Duration.ofSeconds(1);
        private Duration pauseAfter = Duration.ofMinutes(10);
        private Duration storeCheckInterval = Duration.ZERO;
        private ChatModel dreamModel;
        private DreamConfig dreams = DreamConfig.defaults();
        private final List<WorkingMemoryListener> listeners = new ArrayList<>();
        private EmbeddingModel embeddingModel;
        private EmbeddingStore<TextSegment> embeddingStore;
        private CrystalStore crystalStore;
        private boolean withoutCrystals;
        /** Null: not chosen (on when there are crystals). */
        private Boolean pastTurns;
        private int searchTokenBudget = 600;
        private int maxSearchQueryChars = 1_000;
        private int maxAnalyzedChars = LayerContext.DEFAULT_MAX_ANALYZED_CHARS;

        private Builder() {
        }

        /**
         * The most characters of one message the layers analyse on the request path ({@code add} and {@code messages()}:
         * entity parsing aside, which has its own limit, {@link EntityMemoryConfig}): session extraction and its evidence
         * rule, salience, pruning and the pool read a longer message as its first and last halves of this many and the
         * first ten error lines between them ({@code [ERROR]}, {@code FAILED}, ...:
         * {@link dev.workingmemory.layer.AnalyzedText}), so that one huge message or tool result costs bounded work
         * (see the README for what a megabyte costs). Nothing said is lost: the message stays whole in the window, the
         * message store and the tool-output cache. Default 65,536.
         *
         * @throws IllegalArgumentException unless at least 1,024
         */
        public Builder maxAnalyzedChars(int chars) {
            Ensure.that(chars >= 1_024, "maxAnalyzedChars must be at least 1024, was " + chars);
            this.maxAnalyzedChars = chars;
            return this;
        }

        /**
         * The model that dreams (seed 000): it rewrites each user's state document from the old state and what was
         * noted since. Without one, dreams are offline and extractive ({@code OfflineDreamSynthesizer}).
         */
        public Builder dreamModel(ChatModel model) {
            this.dreamModel = Ensure.notNull(model, "model");
            return this;
        }

        /** When and how dreams run; default {@link DreamConfig#defaults()}. */
        public Builder dreams(DreamConfig config) {
            this.dreams = Ensure.notNull(config, "config");
            return this;
        }

        /**
         * Adds a listener that hears what the memories do (entities tracked, notes appended, blocks rendered, failed
         * saves, …); call again to add more. A listener that throws is logged and skipped, never rethrown.
         */
        public Builder listener(WorkingMemoryListener listener) {
            listeners.add(Ensure.notNull(listener, "listener"));
            return this;
        }

        /** Where layer state is saved; default {@link InMemoryWorkingMemoryStore}. */
        public Builder store(WorkingMemoryStore store) {
            this.store = Ensure.notNull(store, "store");
            return this;
        }

        /**
         * Keeps the messages in a LangChain4j {@link ChatMemoryStore} instead of the {@link #store}'s message logs:
         * read once when a memory is loaded, and written whole ({@code updateMessages}) synchronously on every change of
         * its window, as LangChain4j's own chat memories do. Use it to keep messages where existing code reads them.
         * It guarantees less than the default across application instances: an instance does not see the messages
         * another added while its memory stays loaded, and the instance that writes last replaces what the other
         * wrote (turns are lost when two instances serve one conversation). Without it, the {@link WorkingMemoryStore}
         * keeps them ({@link WorkingMemoryStore#appendMessages}).
         */
        public Builder chatMemoryStore(ChatMemoryStore chatMemoryStore) {
            this.chatMemoryStore = Ensure.notNull(chatMemoryStore, "chatMemoryStore");
            return this;
        }

        /** Keeps at most this many messages besides the system message; default 20. */
        public Builder maxMessages(int maxMessages) {
            this.maxMessages = Ensure.positive(maxMessages, "maxMessages");
            return this;
        }

        /**
         * Keeps messages worth at most this many tokens besides the system message, counted by {@code estimator}, which
         * also becomes the {@link #tokenCountEstimator}.
         */
        public Builder maxTokens(int maxTokens, TokenCountEstimator estimator) {
            this.maxTokens = Ensure.positive(maxTokens, "maxTokens");
            this.tokenCountEstimator = Ensure.notNull(estimator, "estimator");
            return this;
        }

        /**
         * How the memory counts the tokens of a request against the {@link #contextWindow} (and of the window with
         * {@link #maxTokens}): the model's own estimator, such as LangChain4j's {@code OpenAiTokenCountEstimator}.
         * Without one, a token per four characters.
         */
        public Builder tokenCountEstimator(TokenCountEstimator estimator) {
            this.tokenCountEstimator = Ensure.notNull(estimator, "estimator");
            return this;
        }

        /**
         * The model's context window in tokens, which sizes the block (seed 000's table) and against which context
         * pressure is measured; default 128,000.
         */
        public Builder contextWindow(int contextWindowTokens) {
            this.contextWindow = Ensure.positive(contextWindowTokens, "contextWindowTokens");
            return this;
        }

        /** The block's size in characters, overriding the size derived from {@link #contextWindow}. */
        public Builder blockBudget(int chars) {
            this.blockChars = Ensure.positive(chars, "chars");
            return this;
        }

        /** How entities are found in tool results and kept; on by default with {@link EntityMemoryConfig#defaults()}. */
        public Builder entities(EntityMemoryConfig config) {
            this.entities = Ensure.notNull(config, "config");
            return this;
        }

        /** Turns the entity layer off: no {@code <entities>} in the block, tool results are not mined. */
        public Builder withoutEntities() {
            this.entities = null;
            return this;
        }

        /** The core memory's blocks and their limits; on by default with {@link CoreMemoryConfig#defaults()}. */
        public Builder coreMemory(CoreMemoryConfig config) {
            this.coreMemory = Ensure.notNull(config, "config");
            return this;
        }

        /** Turns core memory off, and with it its tools ({@code core_memory_update}, {@code core_memory_read}). */
        public Builder withoutCoreMemory() {
            this.coreMemory = null;
            return this;
        }

        /**
         * The scratchpad: free text or a JSON object, its scope, schema and budget; on by default with
         * {@link ScratchpadConfig#defaults()} (free text, thread-scoped).
         */
        public Builder scratchpad(ScratchpadConfig config) {
            this.scratchpad = Ensure.notNull(config, "config");
            return this;
        }

        /** Turns the scratchpad off, and with it its tool ({@code updateWorkingMemory}). */
        public Builder withoutScratchpad() {
            this.scratchpad = null;
            return this;
        }

        /** How notes are kept (seeds 000 and 004); notes are on by default with {@link NotesConfig#defaults()}. */
        public Builder notes(NotesConfig config) {
            this.notes = Ensure.notNull(config, "config");
            return this;
        }

        /** Turns notes off, and with them their tool ({@code working_memory_note}). */
        public Builder withoutNotes() {
            this.notes = null;
            return this;
        }

        /**
         * The session (seed 003, tier 2): typed slots (error, decision, todo, dependency) and a decaying pool, filled
         * from tool results and messages; on by default with {@link SessionSlotsConfig#defaults()}.
         */
        public Builder sessionSlots(SessionSlotsConfig config) {
            this.sessionSlots = Ensure.notNull(config, "config");
            return this;
        }

        /**
         * Turns salience off (seed 000's hormones: no levels scored on messages, no {@code [AUTO]} notes, a neutral
         * mood line); it scores every user and assistant message and tool result, on by default.
         */
        public Builder withoutSalience() {
            this.salience = false;
            return this;
        }

        /** Turns the session slots off, and with them their tools ({@code working_memory_add}, ...). */
        public Builder withoutSessionSlots() {
            this.sessionSlots = null;
            return this;
        }

        /**
         * Whether the memories serve a coding agent, which decides when the session slots (seed 003's coding tier)
         * act. {@code true}: from the first message. {@code false}: never by themselves (they hold what the model adds
         * with {@code working_memory_add}). Not called (the default): once a memory has evidence, a tool result that
         * is a coding agent's output: a compiler's, a build's or a test run's, a stack trace, a diff, git's status, a
         * listing of a code base, code ({@link SessionActivation#codingEvidence()}). Until then a memory extracts no
         * session item and pays nothing for the tier, so that a chat assistant or a CMS agent never shows a coding
         * session. Same as {@code sessionSlots(config)} with {@link SessionSlotsConfig.Builder#activation}.
         *
         * @throws IllegalStateException at {@link #build()} when {@code true} meets {@link #withoutSessionSlots()}
         */
        public Builder codingAgent(boolean codingAgent) {
            this.codingAgent = codingAgent;
            return this;
        }

        /** The session slots' configuration with {@link #codingAgent} applied. */
        private SessionSlotsConfig sessionSlotsConfig() {
            if (codingAgent == null) {
                return sessionSlots;
            }
            if (sessionSlots == null) {
                if (codingAgent) {
                    throw new IllegalStateException("codingAgent(true) contradicts withoutSessionSlots(): a coding"
                            + " agent's session needs its slots");
                }
                return null;
            }
            return sessionSlots.withActivation(codingAgent ? SessionActivation.always() : SessionActivation.never());
        }

        /**
         * Context pressure (seed 003, tiers 3 and 4): tool results pruned for the model by the pressure of each request
         * against the {@link #contextWindow}, a {@code <pressure>} element from 75%, interventions from 90%; on by
         * default with {@link ContextPressureConfig#defaults()}.
         */
        public Builder contextPressure(ContextPressureConfig config) {
            this.contextPressure = Ensure.notNull(config, "config");
            return this;
        }

        /** Turns context pressure and tool-output pruning off: tool results are sent as they are. */
        public Builder withoutContextPressure() {
            this.contextPressure = null;
            return this;
        }

        /** How full outputs of pruned tool results are cached and swept; default {@link ToolOutputCacheConfig#defaults()}. */
        public Builder toolOutputCache(ToolOutputCacheConfig config) {
            this.toolOutputCache = Ensure.notNull(config, "config");
            return this;
        }

        /** Told whenever context pressure made a memory intervene; default none. */
        public Builder pressureListener(PressureListener listener) {
            this.pressureListener = Ensure.notNull(listener, "listener");
            return this;
        }

        /** Adds a layer of your own; its name must differ from every other layer's. */
        public Builder layer(MemoryLayerFactory factory) {
            layers.add(Ensure.notNull(factory, "factory"));
            return this;
        }

        /** Maps a memory id that is not a {@link MemoryKey}; default: the id's string is the resource, thread "default". */
        public Builder memoryKeyMapper(Function<Object, MemoryKey> keyMapper) {
            this.keyMapper = Ensure.notNull(keyMapper, "keyMapper");
            return this;
        }

        /** How many memories stay loaded; default 10,000. */
        public Builder maxCachedMemories(int maxCachedMemories) {
            this.maxCachedMemories = Ensure.positive(maxCachedMemories, "maxCachedMemories");
            return this;
        }

        /**
         * The clock the memories read the time from (when a conversation pauses, the dates of crystals and notes, a
         * day a query counts back to); default {@link Clock#systemUTC()}. Tests give a fixed or moving one.
         */
        public Builder clock(Clock clock) {
            this.clock = Ensure.notNull(clock, "clock");
            return this;
        }

        /**
         * How long after its first unsaved change a scope's derived layer state (entities; writes made with
         * {@link dev.workingmemory.layer.LayerContext#write}) is saved to the {@link WorkingMemoryStore}; default one
         * second. Durable writes (core memory, scratchpad) do not wait for it. The save runs on the provider's daemon thread {@code working-memory-saver} and saves
         * every change made until then, so a turn does not wait for serializing and saving. It takes the scope's
         * lock like any caller: calls on that scope wait while it saves, calls on other scopes do not. A save that
         * fails is logged and tried again after the same delay. Changes not yet saved live only in memory:
         * {@link WorkingMemoryProvider#flush()} and {@link WorkingMemoryProvider#close()} save them, and evicting a
         * memory saves its thread-scoped state. {@link Duration#ZERO} saves synchronously at the end of each call
         * that changed something, on the caller's thread, with no saver thread (a failed save is then tried again on
         * the next change). Messages are not affected: each is in the store when {@code add} returns (see
         * {@link #chatMemoryStore} for the alternative).
         *
         * @throws IllegalArgumentException when {@code delay} is null or negative
         */
        public Builder saveDelay(Duration delay) {
            Ensure.notNull(delay, "saveDelay");
            Ensure.that(!delay.isNegative(), "saveDelay must not be negative, was " + delay);
            this.saveDelay = delay;
            return this;
        }

        /**
         * How long a conversation goes without a message (on the provider's {@link #clock}) before it counts as paused;
         * default ten minutes. A pause is when what the window still holds becomes long-term memory too
         * ({@link dev.workingmemory.layer.MemoryLayer#onPause}): past turns make crystals of it, so that another
         * conversation of the user can {@code memory_search} a chat too short to have left the window, and dreams read
         * it. The window keeps it; the crystals are replaced (same ids) when it leaves. A memory unloaded from the
         * cache, or open when the provider closes, counts as paused then. The check runs on the provider's saver
         * thread: with {@code saveDelay(Duration.ZERO)} only unloading counts. A thread with messages since its last
         * pause is marked in the store (a document {@code unpaused-…} under its user's key), so that the pauses a
         * process that died did not tell are told after the next load of a memory of that user, or the next pause of
         * one of its conversations, by whichever provider it is in.
         *
         * @throws IllegalArgumentException when {@code pause} is null, zero or negative
         */
        public Builder pauseAfter(Duration pause) {
            Ensure.notNull(pause, "pauseAfter");
            Ensure.that(!pause.isNegative() && !pause.isZero(), "pauseAfter must be positive, was " + pause);
            this.pauseAfter = pause;
            return this;
        }

        /**
         * How often a cached memory asks the {@link WorkingMemoryStore} whether another application instance saved
         * its state since this one last loaded or saved it; when so, the stored state is loaded and this instance's
         * unsaved changes are applied to it again before the memory renders or writes. Default {@link Duration#ZERO}:
         * before every use ({@link WorkingMemoryStore#version} is one map lookup in memory and one {@code stat} for
         * the file store). A longer interval saves those checks for stores where they cost a round trip, at the
         * price of rendering a state up to that old; writes never lose an update either way (compare-and-set).
         *
         * @throws IllegalArgumentException when {@code interval} is null or negative
         */
        public Builder storeCheckInterval(Duration interval) {
            Ensure.notNull(interval, "storeCheckInterval");
            Ensure.that(!interval.isNegative(), "storeCheckInterval must not be negative, was " + interval);
            this.storeCheckInterval = interval;
            return this;
        }

        /**
         * The model that embeds crystals and search queries for the provider's own crystal store; default in-process
         * all-MiniLM-L6-v2 (offline, loaded on first use). Providers of one JVM on one file store share its crystals,
         * so they must be given the same instance (or none).
         */
        public Builder embeddingModel(EmbeddingModel embeddingModel) {
            this.embeddingModel = Ensure.notNull(embeddingModel, "embeddingModel");
            return this;
        }

        /**
         * Where the provider's own crystal store keeps the vectors (pgvector, Qdrant, ...) instead of its Lucene index;
         * see {@link EmbeddedCrystalStore.Builder#embeddingStore} for what it must support and what happens to an entry
         * it refuses every time (its crystal is found by its words only, with an ERROR). The provider does not close
         * it.
         */
        public Builder embeddingStore(EmbeddingStore<TextSegment> embeddingStore) {
            this.embeddingStore = Ensure.notNull(embeddingStore, "embeddingStore");
            return this;
        }

        /**
         * The application's own long-term memory instead of the provider's: notes, archived notes and past turns go
         * there, searches read it. The provider never closes it. Contradicts {@link #embeddingModel} and
         * {@link #embeddingStore} (configure those on that store).
         *
         * <p>Without it the provider opens the one its {@link WorkingMemoryStore} gives
         * ({@link WorkingMemoryStore#openCrystalStore}, with this builder's embedding model and store), and closes it.
         * The file store gives an {@link EmbeddedCrystalStore} in its {@link WorkingMemoryStore#crystalDirectory()
         * crystal directory} ({@code <root>/.crystals}), shared by the providers of this JVM on that store and closed
         * with the last of them; when another process holds that directory, this provider keeps its crystals in memory
         * (a WARN says what is lost). The JDBC store gives crystals in its database, shared by every instance. With a
         * store that gives none (in memory) the provider keeps them in memory, gone on {@link #close()}.
         */
        public Builder crystalStore(CrystalStore crystalStore) {
            this.crystalStore = Ensure.notNull(crystalStore, "crystalStore");
            return this;
        }

        /** No long-term memory: notes are not searchable, past turns are not kept, {@code memory_search} is off. */
        public Builder withoutCrystals() {
            this.withoutCrystals = true;
            return this;
        }

        /**
         * Whether the messages that leave the window become crystals of past turns ({@link PastTurns}); default true
         * (when there are crystals).
         */
        public Builder pastTurns(boolean pastTurns) {
            this.pastTurns = pastTurns;
            return this;
        }

        /**
         * How many tokens (by the {@link #tokenCountEstimator}) the texts of one search's hits may take together;
         * default 600.
         */
        public Builder searchTokenBudget(int tokens) {
            this.searchTokenBudget = Ensure.positive(tokens, "tokens");
            return this;
        }

        /** The longest search query accepted, in characters; default 1,000 (at most 4,000). */
        public Builder maxSearchQueryChars(int chars) {
            Ensure.that(chars > 0 && chars <= 4_000, "maxSearchQueryChars must be within 1 and 4000, was " + chars);
            this.maxSearchQueryChars = chars;
            return this;
        }

        private void checkCrystalOptions() {
            if (crystalStore != null && (embeddingModel != null || embeddingStore != null)) {
                throw new IllegalStateException("Choose a crystalStore or the provider's own crystal store with an "
                        + (embeddingModel != null ? "embeddingModel" : "embeddingStore")
                        + ", not both: configure the embedding model and store on your CrystalStore");
            }
            if (withoutCrystals && (crystalStore != null || embeddingModel != null || embeddingStore != null
                    || pastTurns == Boolean.TRUE)) {
                throw new IllegalStateException("withoutCrystals() contradicts "
                        + (crystalStore != null ? "crystalStore" : embeddingModel != null ? "embeddingModel"
                        : embeddingStore != null ? "embeddingStore" : "pastTurns(true)")
                        + ": past turns and searchable notes need crystals");
            }
        }

        /**
         * Builds the provider; close it when done (it runs background threads and keeps its crystal store open).
         *
         * @throws IllegalStateException when options contradict each other (a window by messages and by tokens)
         */
        public WorkingMemoryProvider build() {
            return new WorkingMemoryProvider(this);
        }
    }
}
