package dev.workingmemory.layer;

import dev.langchain4j.data.message.ChatMessage;

import java.time.Instant;

/**
 * The messages still in the message window when others left it, oldest first, each with the time it was added to the
 * memory (by the provider's clock): what {@link MemoryLayer#onEvicted(java.util.List, WindowMessages)} gets beside
 * the evicted messages, e.g. to see the turn that follows an evicted one. A view of the window, valid only during
 * that call (the window changes afterwards); it copies nothing.
 *
 * <p>Not thread-safe: read it on the calling thread, which holds the memory's lock.
 */
public interface WindowMessages {

    /** How many messages the window still holds. */
    int size();

    /** @throws IndexOutOfBoundsException unless {@code 0 <= index < size()} */
    ChatMessage message(int index);

    /**
     * When the message at {@code index} was added.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= index < size()}
     */
    Instant added(int index);
}
