package dev.workingmemory.internal;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;

/**
 * The token estimate used when the provider has no {@link TokenCountEstimator} of the model: a token per four
 * characters of text (rounded up), plus four per message for its role and framing. Close to OpenAI's tokenizers for
 * English prose; code and other languages take more tokens per character. Only text is counted: an image, audio or a
 * file in a user's message or a tool's result costs what the model's provider makes of it, which this cannot know.
 *
 * <p>Thread-safe (stateless).
 */
public final class CharsPerTokenEstimator implements TokenCountEstimator {

    public static final CharsPerTokenEstimator INSTANCE = new CharsPerTokenEstimator();
    private static final int PER_MESSAGE = 4;

    private CharsPerTokenEstimator() {
    }

    @Override
    public int estimateTokenCountInText(String text) {
        return text == null ? 0 : (text.length() + 3) / 4;
    }

    @Override
    public int estimateTokenCountInMessage(ChatMessage message) {
        return PER_MESSAGE + tokens(message);
    }

    @Override
    public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
        int total = 0;
        for (ChatMessage message : messages) {
            total += estimateTokenCountInMessage(message);
        }
        return total;
    }

    private static int tokens(ChatMessage message) {
        int chars = 0;
        if (message instanceof SystemMessage system) {
            chars = system.text().length();
        } else if (message instanceof UserMessage user) {
            chars = MessageText.of(user).length();
        } else if (message instanceof AiMessage ai) {
            chars = ai.text() == null ? 0 : ai.text().length();
            if (ai.hasToolExecutionRequests()) {
                for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
                    chars += length(request.name()) + length(request.arguments());
                }
            }
        } else if (message instanceof ToolExecutionResultMessage result) {
            chars = MessageText.of(result).length();
        }
        return (chars + 3) / 4;
    }

    private static int length(String text) {
        return text == null ? 0 : text.length();
    }
}
