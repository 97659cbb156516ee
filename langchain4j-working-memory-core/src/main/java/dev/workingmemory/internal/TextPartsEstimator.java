package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The model's {@link TokenCountEstimator}, counting by their text parts ({@link MessageText}) the messages it cannot
 * count itself: a tool's result or a user's message of several contents, such as one with an image. LangChain4j
 * 1.19's {@code OpenAiTokenCountEstimator} calls a result's {@code text()}, which throws for those; unguarded, a window
 * bounded by tokens failed the {@code add} of such a result, and so the model call. What is not text is not counted,
 * as by {@link CharsPerTokenEstimator}. Said once per estimator, at WARN.
 *
 * <p>Thread-safe when the model's estimator is.
 */
public final class TextPartsEstimator implements TokenCountEstimator {

    private static final Logger log = LoggerFactory.getLogger(TextPartsEstimator.class);

    private final TokenCountEstimator model;
    private final AtomicBoolean warned = new AtomicBoolean();

    private TextPartsEstimator(TokenCountEstimator model) {
        this.model = model;
    }

    /** {@code model}, counting by their text parts the messages it cannot count; {@code model} itself when it is ours. */
    public static TokenCountEstimator of(TokenCountEstimator model) {
        Ensure.notNull(model, "model");
        return model instanceof CharsPerTokenEstimator || model instanceof TextPartsEstimator ? model
                : new TextPartsEstimator(model);
    }

    @Override
    public int estimateTokenCountInText(String text) {
        return model.estimateTokenCountInText(text);
    }

    @Override
    public int estimateTokenCountInMessage(ChatMessage message) {
        try {
            return model.estimateTokenCountInMessage(message);
        } catch (RuntimeException e) {
            String text;
            if (message instanceof ToolExecutionResultMessage result) {
                text = MessageText.of(result);
            } else if (message instanceof UserMessage user) {
                text = MessageText.of(user);
            } else {
                throw e;
            }
            if (warned.compareAndSet(false, true)) {
                log.warn("{} cannot count a {} message of {} content(s) ({}); the memory counts its text parts",
                        model.getClass().getName(), message.type(), contentsOf(message), e.toString());
            }
            return model.estimateTokenCountInText(text);
        }
    }

    @Override
    public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
        try {
            return model.estimateTokenCountInMessages(messages);
        } catch (RuntimeException e) {
            int total = 0;
            for (ChatMessage message : messages) {
                total += estimateTokenCountInMessage(message);
            }
            return total;
        }
    }

    private static int contentsOf(ChatMessage message) {
        if (message instanceof ToolExecutionResultMessage result) {
            return result.contents() == null ? 0 : result.contents().size();
        }
        return message instanceof UserMessage user ? user.contents().size() : 0;
    }
}
