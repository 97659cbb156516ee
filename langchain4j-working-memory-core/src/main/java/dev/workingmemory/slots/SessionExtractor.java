package dev.workingmemory.slots;

import dev.langchain4j.data.message.ChatMessage;

import java.util.List;

/**
 * Finds the session items a message holds: errors and dependencies in tool results, decisions and todos in what the
 * user and the model say, files that matter for the pool. Called for every message added to a working memory that
 * has the {@link SessionSlots} layer.
 *
 * <p>Implementations must be thread-safe, must not throw for any input (return an empty list instead), must be
 * deterministic (the memory may run an extraction again on a reloaded state) and should be fast: they run on the
 * caller's thread during {@code ChatMemory.add}.
 */
@FunctionalInterface
public interface SessionExtractor {

    /**
     * @param message a message added to the memory (never a system message)
     * @return the items found, most important first; never {@code null}
     */
    List<SessionItem> extract(ChatMessage message);

    /** The default: {@link HeuristicSessionExtractor} with its defaults. */
    static SessionExtractor defaults() {
        return HeuristicSessionExtractor.builder().build();
    }

    /** An extractor that finds nothing: slots and pool are then filled only through the layer's methods and tools. */
    static SessionExtractor none() {
        return message -> List.of();
    }
}
