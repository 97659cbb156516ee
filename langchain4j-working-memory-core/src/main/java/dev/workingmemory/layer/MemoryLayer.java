package dev.workingmemory.layer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.ChatMessage;

import java.util.List;
import java.util.Set;

/**
 * One part of the {@code <working_memory>} block: entities, scratchpad, core memory, ...
 *
 * <p>A layer observes the messages added to its memory, renders itself within a character budget
 * and snapshots its state for persistence. New behaviour is added to the library as a new layer,
 * never as a branch in the {@code ChatMemory}. Layers are created per memory (per scope) by a
 * {@link MemoryLayerFactory}.
 *
 * <p>Implementations guard their state with the {@link LayerContext} they were created with:
 * {@link #onMessage}, {@link #render}, {@link #snapshot} and {@link #restore} are called holding
 * the scope's lock; a layer's own public methods take it through {@link LayerContext#read} and
 * {@link LayerContext#write}.
 */
public interface MemoryLayer {

    /** The tag name of the layer in the block and its key in snapshots; unique within a memory. */
    String name();

    /** Whether the layer belongs to one thread or is shared by every thread of a resource. */
    LayerScope scope();

    /** Position in the block: lower renders first. */
    int order();

    /** Budget precedence: higher is served first when the block's budget is short. */
    int priority();

    /** How many characters of the block the layer may take. */
    LayerBudget budget();

    /**
     * Whether the layer acts for its memory now. A layer that waits for evidence that it applies (the session slots of a
     * coding agent: until a tool result shows one) returns false until then, and costs (close to) nothing per message
     * meanwhile; an inspector shows which layers act. Called holding no lock; a layer reads its state through its
     * context. The default: always.
     */
    default boolean active() {
        return true;
    }

    /**
     * What the model can do with the memory's tools to make this layer smaller, for the advice context pressure gives
     * when the context is nearly full ({@link LayerContext#reliefs()}): a short lower-case clause naming the tool, such
     * as {@code "compress core memory blocks (core_memory_update)"}, or {@code ""} when the layer holds nothing the
     * model could free (so that an agent is never told of tools for state it does not have). Called holding the
     * scope's lock, as {@link #render} is. The default: {@code ""}.
     */
    default String relief() {
        return "";
    }

    /** Observes a message added to the memory. The default ignores it. */
    default void onMessage(ChatMessage message) {
    }

    /**
     * Observes messages that left the message window (evicted to keep it within its limit, oldest first), so that
     * what the model no longer sees can be kept elsewhere, such as crystals of past turns. Called holding the
     * thread's lock, inside the {@code add} that evicted them; a layer that changes its own state here does so inside
     * its context's {@code write}. The default ignores them.
     */
    default void onEvicted(List<EvictedMessage> messages) {
    }

    /**
     * {@link #onEvicted(List)} with the messages still in the window after the eviction, oldest first (e.g. the turn
     * that follows an evicted one). This is the method the memory calls; the default ignores {@code window} and calls
     * {@link #onEvicted(List)}.
     */
    default void onEvicted(List<EvictedMessage> messages, WindowMessages window) {
        onEvicted(messages);
    }

    /**
     * Observes a conversation that paused with messages still in its window: no message was added for the provider's
     * {@code pauseAfter} (measured on its clock), or the memory is being unloaded (evicted from the provider's cache,
     * or the provider closes) with messages added since the last pause. So that what a short conversation said is kept
     * elsewhere too although it never left the window (e.g. past turns' crystals). Called again only after new
     * messages; after a restart, once more for the loaded window (a layer that keeps what it took in its snapshot can
     * tell). Called holding the thread's lock, off the request path when the pause is detected (on the provider's saver
     * thread; not at all while saves are not deferred, {@code saveDelay(Duration.ZERO)}, except at unloading); a layer
     * that changes its state does so inside its context's {@code write}. The default ignores it.
     *
     * @param window the messages in the window, oldest first; valid only during the call
     */
    default void onPause(WindowMessages window) {
    }

    /**
     * The ids of the wholes (the exchanges of past turns, say: a hit's id without its {@code #n}) this layer made into
     * crystals of messages the window still holds, as at a pause: a search from this memory leaves their passages out,
     * since the model reads them in its window; a search from another conversation of the user finds them. Called
     * holding the thread's lock. The default: none.
     *
     * @param window the messages in the window, oldest first; valid only during the call
     */
    default Set<String> wholesInWindow(WindowMessages window) {
        return Set.of();
    }

    /**
     * Takes in state the layer keeps outside its scope's snapshot (a log in the store, such as the notes) that
     * another instance may have changed: called holding the scope's lock whenever the memory checks its store
     * (before a use, as often as the provider's {@code storeCheckInterval} allows).
     *
     * @return whether the layer changed and must render again; the default keeps nothing outside the snapshot
     */
    default boolean refresh() {
        return false;
    }

    /**
     * Renders the layer as one complete element ({@code <name>…</name>}) of at most {@code maxChars}
     * characters, or {@code ""} when the layer is empty. When the content does not fit, the layer
     * cuts it and marks the cut (see {@code dev.workingmemory.render.BlockText}). Text that came from
     * users, tools or the model must be escaped with {@code BlockText.escape}. The memory removes controls and
     * replaces unpaired surrogates in what this returns ({@code BlockText.clean}), so a layer need not.
     */
    String render(int maxChars);

    /** The layer's state as JSON, for the store. */
    JsonNode snapshot();

    /**
     * Replaces the layer's state with a stored snapshot. A snapshot the layer cannot use is replaced
     * by the layer's initial state with a warning; it never throws.
     */
    void restore(JsonNode snapshot);
}
