package dev.workingmemory.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/**
 * One entry of a thread's message log ({@link WorkingMemoryStore#appendMessages}): something that happened to its
 * message window, in the order it happened. Replaying a log's entries from its first one rebuilds the window, so
 * every application instance (and every restart) that reads the log holds the same window, and the same messages
 * leave it.
 *
 * <ul>
 *   <li>{@link Added}: a message was added (a system message replaces the window's system message), at a time;</li>
 *   <li>{@link Cleared}: the window was emptied ({@code ChatMemory.clear()}, or before {@code set(…)});</li>
 *   <li>{@link Evicted}: the window's messages up to an entry left it before the window's own limit would have made
 *       them (context pressure).</li>
 * </ul>
 *
 * <p>{@link #toJson()} and {@link #fromJson(String)} give stores that keep text one format for all of them: a JSON
 * object on one line, the message in LangChain4j's own JSON ({@link ChatMessageSerializer}).
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface MessageLogEntry permits MessageLogEntry.Added, MessageLogEntry.Cleared, MessageLogEntry.Evicted {

    /**
     * The entry as one line of JSON: line breaks in texts are escaped, and so are unpaired surrogates, so that the line
     * survives being stored as UTF-8.
     */
    String toJson();

    /**
     * The entry {@link #toJson()} wrote.
     *
     * @throws IllegalArgumentException when {@code json} is not such an entry
     */
    static MessageLogEntry fromJson(String json) {
        return MessageLogJson.read(json);
    }

    /**
     * A message added to the window.
     *
     * @param message the message as it was added (a system message, a user message, a tool result, ...)
     * @param added   when it was added, by the memory's clock: the time its past turn gets when it leaves the window
     */
    record Added(ChatMessage message, Instant added) implements MessageLogEntry {

        /** Rejects a null component with an {@link IllegalArgumentException}. */
        public Added {
            Ensure.notNull(message, "message");
            Ensure.notNull(added, "added");
        }

        @Override
        public String toJson() {
            ObjectNode node = MessageLogJson.MAPPER.createObjectNode().put("added", added.toString());
            node.putRawValue("message", new RawValue(ChatMessageSerializer.messageToJson(message)));
            return MessageLogJson.escapeLoneSurrogates(node.toString());
        }
    }

    /** The window was emptied, system message included. */
    record Cleared() implements MessageLogEntry {

        @Override
        public String toJson() {
            return "{\"cleared\":true}";
        }
    }

    /**
     * The window's messages up to the entry {@code throughSeq} (those still in it) left it: the oldest turn made room
     * under context pressure. "Up to" is in the window's order: through the message that entry added, which is not
     * always the log's (a tool result moves its request to the end of the window when another turn's messages came
     * between them); when that message is no longer in the window, those with a lower seq.
     *
     * @param throughSeq the seq of the entry through whose message the window's messages left; positive
     */
    record Evicted(long throughSeq) implements MessageLogEntry {

        /** Rejects a {@code throughSeq} below 1 with an {@link IllegalArgumentException}. */
        public Evicted {
            Ensure.that(throughSeq > 0, () -> "throughSeq must be positive, was " + throughSeq);
        }

        @Override
        public String toJson() {
            return "{\"evictedThrough\":" + throughSeq + "}";
        }
    }
}
