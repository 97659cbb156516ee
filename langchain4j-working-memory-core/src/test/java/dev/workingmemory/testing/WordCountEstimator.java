package dev.workingmemory.testing;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;

/**
 * Counts one token per space-separated word (of a user message's text, or of any other message's
 * {@code toString()}): predictable numbers for window tests. Thread-safe.
 */
public final class WordCountEstimator implements TokenCountEstimator {

    @Override
    public int estimateTokenCountInText(String text) {
        return text.isBlank() ? 0 : text.strip().split("\\s+").length;
    }

    @Override
    public int estimateTokenCountInMessage(ChatMessage message) {
        return estimateTokenCountInText(message instanceof UserMessage user ? user.singleText() : message.toString());
    }

    @Override
    public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
        int total = 0;
        for (ChatMessage message : messages) {
            total += estimateTokenCountInMessage(message);
        }
        return total;
    }
}
