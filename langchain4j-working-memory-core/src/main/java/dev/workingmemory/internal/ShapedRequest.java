package dev.workingmemory.internal;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.layer.RequestDraft;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@link RequestDraft} of one {@code messages()} call: the window's view with the replacements shapers made, kept
 * by the identity of the message they replace so that they survive an eviction of older turns.
 *
 * <p>Not thread-safe: used holding the thread's lock.
 */
public final class ShapedRequest implements RequestDraft {

    private final Conversation conversation;
    private final TokenCountEstimator estimator;
    private final int contextWindow;
    private final int toolTokens;
    private final int userTokensUnseen;
    /** Null until a shaper replaces a message: most requests of a chat replace none. */
    private Map<ChatMessage, ChatMessage> replacements;
    private SystemMessage system;
    private List<ChatMessage> view;
    private List<ChatMessage> sent;

    public ShapedRequest(SystemMessage system, Conversation conversation, TokenCountEstimator estimator,
                         int contextWindow, int toolTokens, int userTokensUnseen) {
        this.toolTokens = toolTokens;
        this.userTokensUnseen = userTokensUnseen;
        this.system = system;
        this.conversation = conversation;
        this.view = conversation.window().view();
        this.estimator = estimator;
        this.contextWindow = contextWindow;
    }

    @Override
    public int toolTokens() {
        return toolTokens;
    }

    @Override
    public int userTokensUnseen() {
        return userTokensUnseen;
    }

    /** A new block was rendered after the shapers ran. */
    public void systemMessage(SystemMessage system) {
        this.system = system;
    }

    @Override
    public SystemMessage systemMessage() {
        return system;
    }

    @Override
    public List<ChatMessage> messages() {
        if (sent == null) {
            if (replacements == null || replacements.isEmpty()) {
                sent = view;
            } else {
                List<ChatMessage> shaped = new ArrayList<>(view.size());
                for (ChatMessage message : view) {
                    shaped.add(replacements.getOrDefault(message, message));
                }
                sent = Collections.unmodifiableList(shaped);
            }
        }
        return sent;
    }

    @Override
    public void replace(ChatMessage original, ChatMessage replacement) {
        Ensure.notNull(original, "original");
        Ensure.notNull(replacement, "replacement");
        boolean present = false;
        for (ChatMessage message : view) {
            if (message == original) {
                present = true;
                break;
            }
        }
        Ensure.that(present, "The message to replace is not in this request");
        Ensure.that(original.type() == replacement.type(), "A " + original.type() + " can only be replaced by a "
                + original.type() + ", not a " + replacement.type());
        if (original instanceof ToolExecutionResultMessage result) {
            ToolExecutionResultMessage other = (ToolExecutionResultMessage) replacement;
            Ensure.that(Objects.equals(result.id(), other.id()) && Objects.equals(result.toolName(), other.toolName()),
                    "A tool result must be replaced by one with the same id and tool name, so the call keeps its result");
        }
        if (original instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
            Ensure.that(ai.toolExecutionRequests().equals(((AiMessage) replacement).toolExecutionRequests()),
                    "A tool request must be replaced by one with the same tool calls");
        }
        if (replacements == null) {
            replacements = new IdentityHashMap<>();
        }
        replacements.put(original, replacement);
        sent = null;
    }

    @Override
    public ChatMessage sent(ChatMessage original) {
        return replacements == null ? original : replacements.getOrDefault(original, original);
    }

    @Override
    public int tokens() {
        int total = system == null ? 0 : estimator.estimateTokenCountInMessage(system);
        for (ChatMessage message : messages()) {
            total += estimator.estimateTokenCountInMessage(message);
        }
        return total;
    }

    @Override
    public int tokens(ChatMessage message) {
        return estimator.estimateTokenCountInMessage(Ensure.notNull(message, "message"));
    }

    @Override
    public int contextWindow() {
        return contextWindow;
    }

    @Override
    public boolean evictOldestTurn() {
        if (!conversation.evictOldestTurn()) { // kept when it returns
            return false;
        }
        view = conversation.window().view();
        if (replacements != null) {
            Set<ChatMessage> kept = Collections.newSetFromMap(new IdentityHashMap<>());
            kept.addAll(view);
            replacements.keySet().retainAll(kept);
        }
        sent = null;
        return true;
    }
}
