package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.MemoryKey;

import java.util.List;

/**
 * A conversation kept in an application's LangChain4j {@link ChatMemoryStore}, as LangChain4j's own chat memories keep
 * theirs: read once when the memory is loaded, and written whole ({@code updateMessages}) on every change. Two
 * application instances sharing the store do not see each other's messages while their memories stay loaded, and the
 * one that writes last replaces what the other wrote.
 *
 * <p>Not thread-safe: guarded by the memory's thread lock.
 */
public final class ChatMemoryStoreConversation implements Conversation {

    private final ChatMemoryStore store;
    private final Object memoryId;
    private final MessageWindow window;

    private ChatMemoryStoreConversation(ChatMemoryStore store, Object memoryId, MessageWindow window) {
        this.store = store;
        this.memoryId = memoryId;
        this.window = window;
    }

    /** The conversations of a provider built with {@code chatMemoryStore(store)}, under their memory ids. */
    public static Conversation.Store in(ChatMemoryStore store) {
        Ensure.notNull(store, "store");
        return new Conversation.Store() {
            @Override
            public Conversation open(Object memoryId, MemoryKey key, MessageWindow window) {
                return new ChatMemoryStoreConversation(store, memoryId, window);
            }

            @Override
            public void delete(Object memoryId) {
                store.deleteMessages(memoryId);
            }
        };
    }

    @Override
    public MessageWindow window() {
        return window;
    }

    @Override
    public void load() {
        for (ChatMessage message : store.getMessages(memoryId)) {
            window.add(message);
        }
    }

    /** Nothing: a {@link ChatMemoryStore} tells no version to check, so its messages are read once, when loaded. */
    @Override
    public void refresh() {
    }

    @Override
    public boolean add(ChatMessage message) {
        if (message instanceof SystemMessage system) {
            if (!window.setSystem(system)) {
                return false;
            }
        } else {
            window.add(message);
        }
        save();
        return true;
    }

    @Override
    public void replace(List<ChatMessage> messages) {
        window.clear();
        messages.forEach(window::add);
        save();
    }

    @Override
    public void clear() {
        window.clear();
        store.deleteMessages(memoryId);
    }

    @Override
    public boolean evictOldestTurn() {
        if (!window.evictOldestTurn()) {
            return false;
        }
        save();
        return true;
    }

    private void save() {
        store.updateMessages(memoryId, window.all());
    }
}
