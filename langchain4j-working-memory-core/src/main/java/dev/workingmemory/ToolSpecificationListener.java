package dev.workingmemory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.internal.ModelTools;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Tells each memory which tools are sent with its requests, and how many tokens they take: the memory never sees them
 * ({@code AiServices} adds them to the request after {@code messages()}), yet the model counts them against its
 * context window, and may only call those. On each request a model makes, the memory whose last {@code messages()}
 * the request starts with (the same message object) learns the names and estimated tokens of the request's tools;
 * context pressure counts them from its next measure on ({@link dev.workingmemory.layer.RequestDraft#toolTokens()}),
 * and the layers' texts name no other tool ({@link dev.workingmemory.layer.LayerContext#offersTool}). The memory also
 * learns what the request's user message holds beyond the one it stores ({@link
 * dev.workingmemory.layer.RequestDraft#userTokensUnseen()}). A request of no memory of this provider is ignored.
 *
 * <p>Thread-safe: a model calls it from any thread.
 */
final class ToolSpecificationListener implements ChatModelListener {

    private static final Logger log = LoggerFactory.getLogger(ToolSpecificationListener.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_CACHED = 1_000;

    private final Supplier<? extends Iterable<WorkingMemory>> memories;
    private final TokenCountEstimator estimator;
    private final ModelTools modelTools;
    /** The tokens of each tool seen: an agent sends the same tools on every call. */
    private final Cache<ToolSpecification, Integer> tokens = Caffeine.newBuilder().maximumSize(MAX_CACHED).build();

    ToolSpecificationListener(Supplier<? extends Iterable<WorkingMemory>> memories, TokenCountEstimator estimator,
                              ModelTools modelTools) {
        this.memories = memories;
        this.estimator = estimator;
        this.modelTools = modelTools;
    }

    @Override
    public void onRequest(ChatModelRequestContext requestContext) {
        try {
            ChatRequest request = requestContext.chatRequest();
            List<ChatMessage> messages = request.messages();
            if (messages.isEmpty()) {
                return;
            }
            for (WorkingMemory memory : memories.get()) {
                if (memory.sentFirst(messages.get(0))) {
                    List<ToolSpecification> tools = request.toolSpecifications() == null ? List.of()
                            : request.toolSpecifications();
                    Set<String> names = namesOf(tools);
                    int tokens = tokensOf(tools);
                    modelTools.seen(names, tokens);
                    memory.toolSpecificationsSent(tokens, names);
                    lastUserMessage(messages).ifPresent(memory::userMessageSent);
                    return;
                }
            }
        } catch (RuntimeException e) {
            log.warn("Could not count the tool specifications of a request", e); // never fail the model call
        }
    }

    private static Optional<UserMessage> lastUserMessage(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage user) {
                return Optional.of(user);
            }
        }
        return Optional.empty();
    }

    private static Set<String> namesOf(List<ToolSpecification> tools) {
        Set<String> names = new HashSet<>();
        for (ToolSpecification tool : tools) {
            if (tool.name() != null) {
                names.add(tool.name());
            }
        }
        return Set.copyOf(names);
    }

    private int tokensOf(List<ToolSpecification> tools) {
        if (tools.isEmpty()) {
            return 0;
        }
        int sum = 0;
        for (ToolSpecification tool : tools) {
            sum += tokens.get(tool, this::estimate);
        }
        return sum;
    }

    /** The tool as a model's API receives it: its name, description and parameters' JSON schema. */
    private int estimate(ToolSpecification tool) {
        StringBuilder text = new StringBuilder(tool.name());
        if (tool.description() != null) {
            text.append('\n').append(tool.description());
        }
        if (tool.parameters() != null) {
            try {
                text.append('\n').append(JSON.writeValueAsString(JsonSchemaElementUtils.toMap(tool.parameters())));
            } catch (JsonProcessingException e) {
                text.append('\n').append(tool.parameters());
            }
        }
        return estimator.estimateTokenCountInText(text.toString());
    }
}
