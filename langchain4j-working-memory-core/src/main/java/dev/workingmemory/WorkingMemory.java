package dev.workingmemory;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.blocks.CoreMemory;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.entity.EntityMemory;
import dev.workingmemory.event.BlockRendered;
import dev.workingmemory.internal.BlockRenderer;
import dev.workingmemory.internal.Conversation;
import dev.workingmemory.internal.LayerSlot;
import dev.workingmemory.internal.MemorySearch;
import dev.workingmemory.internal.MemoryClosedException;
import dev.workingmemory.internal.Pauses;
import dev.workingmemory.internal.ScopeState;
import dev.workingmemory.internal.ShapedRequest;
import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.RequestShaper;
import dev.workingmemory.layer.WindowMessages;
import dev.workingmemory.notes.NotesLayer;
import dev.workingmemory.render.LayerShare;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.slots.SessionSlots;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The working memory of one {@link MemoryKey}: its layers (entities, core memory, scratchpad, ...),
 * its message window and the {@code <working_memory>} block rendered from the layers.
 *
 * <p>Get it from {@link WorkingMemoryProvider#memory(Object)} each time you need it rather than
 * keeping it: the provider may evict an idle memory (saving it first) and load it again later, and an
 * evicted instance refuses further use with an {@link IllegalStateException}, as does one whose resource was
 * {@linkplain WorkingMemoryProvider#forget forgotten}.
 *
 * <p>Thread-safe: each scope's state is guarded by one lock; the layers' methods take it.
 */
public final class WorkingMemory {

    private static final Logger log = LoggerFactory.getLogger(WorkingMemory.class);

    private final Object memoryId;
    private final MemoryKey key;
    private final ScopeState thread;
    private final ScopeState resource;
    private final List<LayerSlot> slots;
    /** The layers that shape requests ({@link RequestShaper}), in block order. */
    private final List<RequestShaper> shapers;
    /** The message window and where it is kept. */
    private final Conversation conversation;
    /** Tells the layers when the conversation pauses. */
    private final Pauses pauses;
    private final MemorySettings settings;

    private long renderedThreadVersion = -1;
    private long renderedResourceVersion = -1;
    /** The block's lines as last rendered; empty when every layer is empty. */
    private List<String> blockLines = List.of();
    /** The characters each layer needed and was given when the block was last rendered, in {@link #slots} order. */
    private int[] neededChars = new int[0];
    private int[] usedChars = new int[0];
    /**
     * What {@link #messages()} returned last, for {@link #lastRequest()}; null before the first call. Written holding
     * the thread's lock, read without it by {@link #sentFirst}.
     */
    private volatile Sent lastSent;
    /**
     * The tool specifications' tokens of this memory's last request a model listener saw (ToolSpecificationListener);
     * -1 before it saw one, when the provider's guess counts ({@link ScopeState#toolTokensUnseen}).
     */
    private volatile int toolTokens = -1;
    /**
     * The tokens the user message of this memory's last request held beyond the one the memory holds, as a model
     * listener saw it (ToolSpecificationListener): what {@code AiServices} adds to the message it sends but does not
     * store, as with {@code storeRetrievedContentInChatMemory(false)}; 0 when the memory holds the message sent.
     */
    private volatile int userTokensUnseen;
    /** The block as text, joined from {@link #blockLines} when first asked for. */
    private String block;
    /** The system message {@link #systemWithBlock} was built from ({@code null}: none). */
    private SystemMessage systemSource;
    /** The system message with the current block appended; {@code null} until built for the current lines. */
    private SystemMessage systemWithBlock;

    WorkingMemory(Object memoryId, MemoryKey key, ScopeState thread, ScopeState resource, Conversation conversation,
                  MemorySettings settings) {
        this.memoryId = memoryId;
        this.key = key;
        this.thread = thread;
        this.resource = resource;
        this.conversation = conversation;
        this.settings = settings;
        List<LayerSlot> all = new ArrayList<>(thread.slots());
        all.addAll(resource.slots());
        all.sort(Comparator.comparingInt(slot -> slot.layer().order()));
        Set<String> names = new HashSet<>();
        for (LayerSlot slot : all) {
            if (!names.add(slot.layer().name())) {
                throw new IllegalStateException("Two layers are named '" + slot.layer().name() + "'; layer names must be unique");
            }
        }
        this.slots = List.copyOf(all);
        this.shapers = slots.stream().map(LayerSlot::layer)
                .filter(RequestShaper.class::isInstance).map(RequestShaper.class::cast).toList();
        conversation.window().onEviction(settings.clock(), this::evicted);
        conversation.load();
        this.pauses = new Pauses(key, memoryId, settings.unpaused(), thread, resource, conversation, slots,
                settings.clock(), settings.pauseAfter());
    }

    /** The memory id this memory was first requested with; {@link dev.langchain4j.memory.ChatMemory#id()} returns it. */
    public Object memoryId() {
        return memoryId;
    }

    /** The key this memory was mapped to from {@link #memoryId()}: its resource and thread. */
    public MemoryKey key() {
        return key;
    }

    /**
     * The {@code <working_memory>} block as the model sees it in the system message, or {@code ""} when
     * every layer is empty. Rendered again only when a layer changed.
     */
    public String render() {
        return thread.read(() -> {
            renderIfChanged();
            if (block == null) {
                block = BlockRenderer.join(null, blockLines);
            }
            return block;
        });
    }

    /**
     * The names of the tools the model was offered with this memory's last request, as the provider's
     * {@code chatModelListener()} saw it: the only tools the memory's texts name to the model
     * ({@link dev.workingmemory.layer.LayerContext#offersTool}). Empty when the listener has seen no request of this
     * memory since it was loaded (a model without the listener, or none made yet).
     */
    public Optional<Set<String>> toolsOffered() {
        return thread.toolsOffered(key);
    }

    /**
     * The request this memory last handed to the model ({@code messages()}, as {@code AiServices} calls it before each
     * model call): the system message with the block exactly as sent, each layer's share of the block, the messages as
     * sent and their estimated tokens. Empty before the first call since the memory was loaded; not saved (a memory
     * loaded again starts without one). For inspection: the estimate is computed when asked.
     */
    public Optional<SentRequest> lastRequest() {
        Sent sent = thread.read(() -> lastSent);
        if (sent == null) {
            return Optional.empty();
        }
        List<LayerShare> layers = new ArrayList<>(slots.size());
        for (int i = 0; i < slots.size() && i < sent.needed().length; i++) {
            MemoryLayer layer = slots.get(i).layer();
            layers.add(new LayerShare(layer.name(), layer.priority(), layer.budget().minChars(),
                    layer.budget().maxChars(), sent.needed()[i], sent.used()[i]));
        }
        int tokens = sent.system() == null ? 0 : settings.tokenCountEstimator().estimateTokenCountInMessage(sent.system());
        if (!sent.messages().isEmpty()) {
            tokens += settings.tokenCountEstimator().estimateTokenCountInMessages(sent.messages());
        }
        return Optional.of(new SentRequest(sent.time(), sent.system() == null ? "" : sent.system().text(),
                BlockRenderer.join(null, sent.blockLines()), settings.renderer().totalChars(), layers, sent.messages(),
                tokens));
    }

    /** What {@link #messages()} returned, held as it was (the block's lines and shares are replaced, never changed). */
    private record Sent(Instant time, SystemMessage system, List<ChatMessage> messages, List<String> blockLines,
                        int[] needed, int[] used) {
    }

    /** The tracked entities, most recent first; empty when entity tracking is disabled. */
    public List<Entity> entities() {
        return layer(EntityMemory.class).map(EntityMemory::entities).orElse(List.of());
    }

    /**
     * The entity layer.
     *
     * @throws IllegalStateException when the provider was built without it
     */
    public EntityMemory entityMemory() {
        return required(EntityMemory.class, "entity tracking");
    }

    /**
     * The core memory blocks.
     *
     * @throws IllegalStateException when the provider was built without them
     */
    public CoreMemory coreMemory() {
        return required(CoreMemory.class, "core memory");
    }

    /**
     * The scratchpad.
     *
     * @throws IllegalStateException when the provider was built without it
     */
    public Scratchpad scratchpad() {
        return required(Scratchpad.class, "the scratchpad");
    }

    /**
     * The notes not yet consumed by a dream.
     *
     * @throws IllegalStateException when the provider was built without notes
     */
    public NotesLayer notes() {
        return required(NotesLayer.class, "notes");
    }

    /**
     * Searches the long-term memory of this memory's resource (notes, archived notes, past turns, ... of every thread
     * of the resource, never another resource's) by meaning and by keyword, as {@code memory_search} does: the best
     * hits first, at most {@code limit}, whose texts together stay within the provider's
     * {@linkplain WorkingMemoryProvider.Builder#searchTokenBudget token budget} (a hit too long for what is left is
     * skipped and a shorter one after it may still be taken). A hit is a passage (of a past turn, a note, a tool
     * output); one per whole comes first, and the newer of two hits that state the same thing ranks above the older,
     * which is marked {@linkplain MemoryHit#earlierThan() earlier}. The whole a hit belongs to is read with
     * {@link #read}. Sees every crystal of the resource made before the call (it may wait for their embedding), but
     * for what was made of this memory's window that the window still shows (at a pause: {@link
     * MemoryLayer#wholesInWindow}); holds no lock of this memory while it searches.
     *
     * @param query what to look for: not blank, at most {@link WorkingMemoryProvider.Builder#maxSearchQueryChars}
     *              characters
     * @param limit 1 to 100
     * @throws IllegalArgumentException for a blank or too long query or a bad limit, saying what to change
     * @throws IllegalStateException    when the provider was built {@code withoutCrystals()}, or this memory was
     *                                  evicted or forgotten
     */
    public List<MemoryHit> search(String query, int limit) {
        MemorySearch search = longTermMemory("search");
        return search.search(key.crystalScope(), query, limit, thread.read(this::wholesInWindow));
    }

    /** What the layers made into crystals of the window's messages: the model reads it there. Holding the lock. */
    private Set<String> wholesInWindow() {
        WindowMessages window = conversation.window().messages();
        Set<String> wholes = Set.of();
        for (LayerSlot slot : slots) {
            try {
                Set<String> made = slot.layer().wholesInWindow(window);
                if (!made.isEmpty()) {
                    if (wholes.isEmpty()) {
                        wholes = new HashSet<>();
                    }
                    wholes.addAll(made);
                }
            } catch (RuntimeException e) {
                log.warn("Layer '{}' failed to tell what of the window of {} it made into crystals; searching all",
                        slot.layer().name(), key, e);
            }
        }
        return wholes;
    }

    /**
     * Reads the whole a search hit belongs to (the exchange of a past turn, a note, a tool output), passage by
     * passage in order: the passages of {@code <whole>#0}, {@code #1}, ... for a hit {@code <whole>#<n>}, the crystal
     * alone for a hit that is whole. Only this memory's resource is read: an id of another resource reads nothing.
     *
     * @param id    a hit's id ({@link MemoryHit#id()}), or the whole's
     * @param from  the first passage to read, from 0
     * @param count how many passages at most, 1 to {@value MemorySearch#MAX_READ}
     * @return the passages read; empty when there is no such crystal (or none from {@code from} on)
     * @throws IllegalArgumentException for a blank id or a bad {@code from} or {@code count}
     * @throws IllegalStateException    as {@link #search}
     */
    public List<Crystal> read(String id, int from, int count) {
        return longTermMemory("read").read(key.crystalScope(), id, from, count);
    }

    /** The provider's long-term memory, for a use of this memory that is still allowed; {@code what}: the use. */
    private MemorySearch longTermMemory(String what) {
        MemorySearch search = settings.search();
        if (search == null) {
            throw new IllegalStateException("This working memory keeps no long-term memory to " + what + ": the"
                    + " WorkingMemoryProvider was built withoutCrystals()");
        }
        thread.read(() -> null); // refuses use once evicted or forgotten
        return search;
    }

    /**
     * The session slots and pool (seed 003, tier 2).
     *
     * @throws IllegalStateException when the provider was built without them
     */
    public SessionSlots sessionSlots() {
        return required(SessionSlots.class, "session slots");
    }

    /**
     * Context pressure and tool-output pruning (seed 003, tiers 3 and 4).
     *
     * @throws IllegalStateException when turned off
     */
    public ContextPressure contextPressure() {
        return required(ContextPressure.class, "context pressure");
    }

    /** The layer of the given type, if this memory has one. */
    public <L extends MemoryLayer> Optional<L> layer(Class<L> type) {
        for (LayerSlot slot : slots) {
            if (type.isInstance(slot.layer())) {
                return Optional.of(type.cast(slot.layer()));
            }
        }
        return Optional.empty();
    }

    /** All layers, in the order they appear in the block. */
    public List<MemoryLayer> layers() {
        return slots.stream().map(LayerSlot::layer).toList();
    }

    /**
     * The names of the layers that act for this memory now ({@link MemoryLayer#active()}), in block order: all but
     * those still waiting for their evidence, such as the session slots of a memory that has seen no coding agent's
     * tool output yet. Read-only.
     */
    public List<String> activeLayers() {
        List<String> active = new ArrayList<>(slots.size());
        for (LayerSlot slot : slots) {
            if (slot.layer().active()) {
                active.add(slot.layer().name());
            }
        }
        return active;
    }

    private <L extends MemoryLayer> L required(Class<L> type, String what) {
        return layer(type).orElseThrow(() -> new IllegalStateException(
                "This working memory has no " + what + ": the WorkingMemoryProvider was built without it"));
    }

    void add(ChatMessage message) {
        thread.write(() -> {
            conversation.add(message); // kept when it returns
            if (!(message instanceof SystemMessage)) {
                pauses.added();
                try {
                    // under one hold of the resource's lock: the resource's state is checked against the store once
                    // per message, not once per resource layer (thread, then resource: the order messages() takes)
                    resource.write(() -> {
                        for (LayerSlot slot : slots) {
                            observe(slot, message);
                        }
                        return null;
                    });
                } catch (MemoryClosedException e) {
                    log.warn("The layers of {} did not observe a {} message: its resource was closed meanwhile", key,
                            message.type());
                }
            }
            return null;
        });
    }

    List<ChatMessage> messages() {
        return thread.read(() -> {
            conversation.refresh(); // what other instances added since
            renderIfChanged();
            SystemMessage system = systemMessage();
            List<ChatMessage> view;
            if (shapers.isEmpty()) {
                view = conversation.window().view();
            } else {
                ShapedRequest request = new ShapedRequest(system, conversation, settings.tokenCountEstimator(),
                        settings.contextWindow(), toolTokens >= 0 ? toolTokens : thread.toolTokensUnseen(),
                        userTokensUnseen);
                shape(request);
                system = request.systemMessage();
                view = request.messages();
            }
            List<ChatMessage> out = new ArrayList<>(view.size() + 1);
            if (system != null) {
                out.add(system);
            }
            out.addAll(view);
            // copied: the view may be the live window, which the next add changes
            lastSent = new Sent(settings.clock().instant(), system, List.copyOf(view), blockLines, neededChars,
                    usedChars);
            return out;
        });
    }

    /** Whether {@code first} (by identity) starts what {@code messages()} returned last. Takes no lock. */
    boolean sentFirst(ChatMessage first) {
        Sent sent = lastSent;
        if (sent == null) {
            return false;
        }
        return sent.system() != null ? sent.system() == first
                : !sent.messages().isEmpty() && sent.messages().get(0) == first;
    }

    /**
     * The user message a model received last in a request of this memory: when it is not the newest user message the
     * memory holds (AiServices sends its retrieved contents or output format with it and stores the user's text
     * alone), what it holds more counts in the next measures of context pressure. Takes the thread's lock to read the
     * window.
     */
    void userMessageSent(UserMessage sent) {
        userTokensUnseen = thread.read(() -> {
            List<ChatMessage> view = conversation.window().view();
            for (int i = view.size() - 1; i >= 0; i--) {
                if (view.get(i) instanceof UserMessage held) {
                    if (held == sent || held.equals(sent)) {
                        return 0;
                    }
                    TokenCountEstimator estimator = settings.tokenCountEstimator();
                    return Math.max(0, estimator.estimateTokenCountInMessage(sent)
                            - estimator.estimateTokenCountInMessage(held));
                }
            }
            return 0;
        });
    }

    /**
     * The tool specifications a model received with this memory's last request: their tokens, and their names, which
     * the layers' texts may name ({@link dev.workingmemory.layer.LayerContext#offersTool}).
     */
    void toolSpecificationsSent(int tokens, Set<String> toolNames) {
        toolTokens = tokens;
        for (RequestShaper shaper : shapers) {
            try {
                shaper.toolSpecificationsSent(tokens);
            } catch (RuntimeException e) {
                log.warn("A request shaper of {} failed on the tools sent", key, e);
            }
        }
        thread.toolsOffered(key, toolNames);
        resource.toolsOffered(key, toolNames);
    }

    /** Lets every shaper shape the request, then renders the block again if a layer changed meanwhile. */
    private void shape(ShapedRequest request) {
        for (RequestShaper shaper : shapers) {
            try {
                shaper.shape(request);
            } catch (RuntimeException e) {
                log.warn("Layer '{}' failed to shape a request of {}; sending it as it stands",
                        ((MemoryLayer) shaper).name(), key, e);
            }
        }
        if (thread.version() != renderedThreadVersion || resource.version() != renderedResourceVersion) {
            renderIfChanged();
            request.systemMessage(systemMessage());
        }
    }

    void replaceMessages(List<ChatMessage> messages) {
        thread.write(() -> {
            conversation.replace(messages);
            return null;
        });
    }

    void clearMessages() {
        thread.write(() -> {
            conversation.clear();
            return null;
        });
    }

    /**
     * Tells the layers of the pause a process that stopped left untold, if the conversation is quiet now
     * ({@link dev.workingmemory.internal.UnpausedThreads}).
     */
    void tellPauseIfQuiet() {
        thread.write(() -> {
            pauses.tellIfQuiet();
            return null;
        });
    }

    /** Saves the unsaved layer state (messages are kept as they change) and refuses further use. */
    void close() {
        thread.close(pauses::unloading);
        resource.toolsWithdrawn(key);
    }

    /** Refuses further use without saving anything: the memory is being deleted. */
    void discard() {
        thread.discard();
        resource.toolsWithdrawn(key);
    }

    ScopeState threadState() {
        return thread;
    }

    ScopeState resourceState() {
        return resource;
    }

    private void observe(LayerSlot slot, ChatMessage message) {
        MemoryLayer layer = slot.layer();
        try {
            // A write of the layer, so that it runs again on a state another instance saved meanwhile.
            slot.observe(message);
        } catch (RuntimeException e) {
            log.warn("Layer '{}' failed to observe a {} message of {}", layer.name(), message.type(), key, e);
        }
    }

    /**
     * Hands messages that left the window to every layer. Called holding the thread lock: inside an add, or while the
     * conversation takes in what other instances added (or is loaded).
     */
    private void evicted(List<EvictedMessage> messages, WindowMessages remaining) {
        for (LayerSlot slot : slots) {
            try {
                slot.layer().onEvicted(messages, remaining);
            } catch (RuntimeException e) {
                log.warn("Layer '{}' failed to take {} message(s) that left the window of {}", slot.layer().name(),
                        messages.size(), key, e);
            }
        }
    }

    /** Renders the block again if a layer changed since the last time. Called holding the thread lock. */
    private void renderIfChanged() {
        resource.refresh(); // the thread scope's own check ran when its lock was taken
        long threadVersion = thread.version();
        long resourceVersion = resource.version();
        if (threadVersion != renderedThreadVersion || resourceVersion != renderedResourceVersion) {
            // The thread lock is held; the resource scope's layers render under their lock too (taken in the same
            // order as when a message reaches them).
            long start = System.nanoTime();
            BlockRenderer.Rendered rendered = resource.read(() -> settings.renderer().render(slots));
            List<String> lines = rendered.lines();
            thread.events().onBlockRendered(new BlockRendered(key, BlockRenderer.length(lines),
                    Duration.ofNanos(System.nanoTime() - start)));
            neededChars = rendered.needed();
            usedChars = rendered.used();
            // Layers hand back their cached parts when unchanged, so equal lines are usually the same strings.
            if (!lines.equals(blockLines)) {
                blockLines = lines;
                block = null;
                systemWithBlock = null;
            }
            renderedThreadVersion = threadVersion;
            renderedResourceVersion = resourceVersion;
        }
    }

    /**
     * The system message with the block appended (the block alone without a system message), built once per block and
     * system message. Called holding the thread lock.
     */
    private SystemMessage systemMessage() {
        SystemMessage system = conversation.window().system();
        if (blockLines.isEmpty()) {
            return system;
        }
        if (systemWithBlock == null || system != systemSource) {
            systemWithBlock = SystemMessage.from(BlockRenderer.join(system == null ? null : system.text(), blockLines));
            systemSource = system;
        }
        return systemWithBlock;
    }
}
