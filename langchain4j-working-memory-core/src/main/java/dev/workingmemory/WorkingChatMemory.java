package dev.workingmemory;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link ChatMemory} that {@link WorkingMemoryProvider#get(Object)} hands to {@code AiServices}.
 *
 * <p>{@link #messages()} returns the single system message with the {@code <working_memory>} block
 * appended (the block alone when there is no system message), then the message window. {@link #add}
 * keeps one system message (the same text again is ignored, a new text replaces it), adds other messages
 * to the window and lets every layer observe them: tool results feed entity tracking, for instance.
 *
 * <p>This object is a handle: every call looks the memory up in its provider, so it stays valid when the
 * provider evicts and reloads the memory. Thread-safe: each call is whole. Calls of two requests of one memory id at
 * once interleave; their tool exchanges are kept whole and in an order the model accepts ({@code MessageWindow}: an
 * exchange completes at the end of the window, where its last result arrives).
 */
public final class WorkingChatMemory implements ChatMemory {

    private final WorkingMemoryProvider provider;
    private final Object memoryId;
    /** Mapped once: every call looks the memory up by it. */
    private final MemoryKey key;

    WorkingChatMemory(WorkingMemoryProvider provider, Object memoryId) {
        this.provider = provider;
        this.memoryId = memoryId;
        this.key = provider.keyOf(memoryId);
    }

    @Override
    public Object id() {
        return memoryId;
    }

    @Override
    public void add(ChatMessage message) {
        Ensure.notNull(message, "message");
        provider.withMemory(memoryId, key, memory -> {
            memory.add(message);
            return null;
        });
    }

    @Override
    public List<ChatMessage> messages() {
        return provider.withMemory(memoryId, key, WorkingMemory::messages);
    }

    /**
     * Replaces all messages at once. Unlike {@link #add}, the messages are not observed by the layers again:
     * this rewrites history, it does not happen anew.
     */
    @Override
    public void set(Iterable<ChatMessage> messages) {
        Ensure.notNull(messages, "messages");
        List<ChatMessage> copy = new ArrayList<>();
        messages.forEach(message -> copy.add(Ensure.notNull(message, "message")));
        Ensure.that(!copy.isEmpty(), "messages must not be empty");
        provider.withMemory(memoryId, key, memory -> {
            memory.replaceMessages(copy);
            return null;
        });
    }

    /** Forgets the messages, system message included. The layers keep their state. */
    @Override
    public void clear() {
        provider.withMemory(memoryId, key, memory -> {
            memory.clearMessages();
            return null;
        });
    }

    /** The working memory behind this chat memory. */
    public WorkingMemory workingMemory() {
        return provider.memory(memoryId);
    }
}
