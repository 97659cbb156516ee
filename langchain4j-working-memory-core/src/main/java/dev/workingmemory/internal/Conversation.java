package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.MemoryKey;

import java.util.List;

/**
 * The message window of one memory and where it is kept: what the memory writes its window through, so that how the
 * messages persist (the {@link dev.workingmemory.store.WorkingMemoryStore}'s message log, or an application's
 * LangChain4j {@code ChatMemoryStore}) is not a branch in the memory. Every change is kept when its method returns.
 *
 * <p>Not thread-safe: guarded by the memory's thread lock.
 */
public interface Conversation {

    /** The window, as the memory reads it. Change it only through this conversation. */
    MessageWindow window();

    /** Fills the window from where it is kept. Called once, after the window's eviction listener is set. */
    void load();

    /**
     * Takes in what other application instances changed since this one last looked, when the provider's store check
     * says it is time to look; a failure to look is logged and the window held here is served.
     */
    void refresh();

    /**
     * Adds {@code message}: a system message replaces the system message (the same text again is ignored), any other
     * joins the window, which may evict older messages.
     *
     * @return whether anything changed
     */
    boolean add(ChatMessage message);

    /** Replaces every message (system message included) with {@code messages}, as {@code ChatMemory.set} does. */
    void replace(List<ChatMessage> messages);

    /** Forgets every message, system message included. */
    void clear();

    /** Evicts the oldest turn for good (context pressure); false when the window holds one turn or less. */
    boolean evictOldestTurn();

    /** Where the conversations of one provider are kept. Thread-safe. */
    interface Store {

        /** The conversation of a memory, its window not loaded yet ({@link Conversation#load()}). */
        Conversation open(Object memoryId, MemoryKey key, MessageWindow window);

        /**
         * Deletes the messages kept under {@code memoryId} apart from the memory's keys in the
         * {@link dev.workingmemory.store.WorkingMemoryStore} (which the provider deletes itself).
         */
        void delete(Object memoryId);
    }
}
