package dev.workingmemory.layer;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;

import java.util.List;

/**
 * The request a {@link RequestShaper} shapes: the system message with the block, then the window's messages as they
 * will be sent.
 *
 * <p>Not thread-safe: used by one shaper at a time, holding the thread's lock.
 */
public interface RequestDraft {

    /** The system message as it will be sent, with the block; {@code null} when there is none. */
    SystemMessage systemMessage();

    /** The messages after the system message, with the replacements made so far. Unmodifiable. */
    List<ChatMessage> messages();

    /**
     * Sends {@code replacement} instead of {@code original} (a message of the window, compared by identity). A tool
     * result may only be replaced by a tool result with the same id and tool name; other messages by a message of the
     * same type.
     *
     * @throws IllegalArgumentException when {@code original} is not in the request or the replacement does not match it
     */
    void replace(ChatMessage original, ChatMessage replacement);

    /** The message that will be sent for {@code original}: its replacement, or itself. */
    ChatMessage sent(ChatMessage original);

    /** The estimated tokens of the whole request as it stands, by the provider's token estimator. */
    int tokens();

    /** The estimated tokens of one message, by the provider's token estimator. */
    int tokens(ChatMessage message);

    /**
     * The estimated tokens of the tool specifications sent with the request, which the model counts against its
     * context window too: those of this memory's last request that the provider's
     * {@code WorkingMemoryProvider.chatModelListener()} saw (an agent sends the same tools on every call); 0 when the
     * model has no such listener. The default: 0.
     */
    default int toolTokens() {
        return 0;
    }

    /**
     * The estimated tokens the user message sent with the request holds beyond the one in {@link #messages()}: what
     * {@code AiServices} adds to the message it sends without storing it in the memory (the retrieved contents with
     * {@code storeRetrievedContentInChatMemory(false)}, an output format), as the provider's
     * {@code WorkingMemoryProvider.chatModelListener()} saw in this memory's last request; the previous turn's
     * stands in for a turn's first request, as the previous user message does for the new one. 0 when the memory
     * holds the message sent, and without the listener. The default: 0.
     */
    default int userTokensUnseen() {
        return 0;
    }

    /** The model's context window in tokens, as the provider was configured. */
    int contextWindow();

    /**
     * Moves the oldest turn out of the message window for good (layers see it in {@link MemoryLayer#onEvicted}, so
     * it is kept as crystals), to make the request fit. The newest turn always stays.
     *
     * @return false when only one turn is left
     */
    boolean evictOldestTurn();
}
