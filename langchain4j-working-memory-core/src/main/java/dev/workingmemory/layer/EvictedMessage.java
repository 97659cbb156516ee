package dev.workingmemory.layer;

import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/**
 * A message that left the message window, with the time it was added to the memory (by the provider's clock), for
 * {@link MemoryLayer#onEvicted}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param message the message that left the window
 * @param added   when it was added to the memory
 */
public record EvictedMessage(ChatMessage message, Instant added) {

    /** Rejects a null component with an {@link IllegalArgumentException}. */
    public EvictedMessage {
        Ensure.notNull(message, "message");
        Ensure.notNull(added, "added");
    }
}
