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

    /**
     * The items among {@code held} whose task {@code message} says is done ("the README's export section is updated",
     * "done with the pagination"); the session removes them. Called for each user and model message while the session
     * holds slot items, before the message's own items are added, so that a message does not complete what it states.
     * The default finds none; {@link HeuristicSessionExtractor} finds todos.
     *
     * @param message a user's or the model's message added to the memory
     * @param held    the items the session holds: each slot's, newest first, then the pool's; not empty
     * @return some of {@code held}; never {@code null}
     */
    default List<SessionItem> done(ChatMessage message, List<SessionItem> held) {
        return List.of();
    }

    /** The default: {@link HeuristicSessionExtractor} with its defaults. */
    static SessionExtractor defaults() {
        return HeuristicSessionExtractor.builder().build();
    }

    /** An extractor that finds nothing: slots and pool are then filled only through the layer's methods and tools. */
    static SessionExtractor none() {
        return message -> List.of();
    }
}
