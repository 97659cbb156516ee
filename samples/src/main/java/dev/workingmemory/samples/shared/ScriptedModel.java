package dev.workingmemory.samples.shared;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A {@link ChatModel} that plays the model's side of a {@link ReplayScript}: each call returns the next recorded
 * answer, a tool call or a text, after its {@link Placeholders} filled the answer's {@code {{…}}} in from the request
 * (the {@code <working_memory>} block, the tool results), like a real model reading what it is sent. So the CMS
 * replay's "add a hero section to it" becomes {@code cms_addSection(pageId=page-1)} only because the block lists
 * {@code "About Us" (page-1)} as the most recent page.
 *
 * <p>It also checks that the tool offered by the request exists, so a script that names a tool the
 * {@code AiServices} does not have fails here with a clear message. Not thread-safe: one conversation at a time.
 */
public final class ScriptedModel implements ChatModel {

    /** Fills the placeholders of one recorded answer in from the request being answered. */
    @FunctionalInterface
    public interface Placeholders {

        /**
         * @param onResolved told each placeholder and the value read for it
         * @throws IllegalStateException when the request does not hold what a placeholder needs
         */
        String resolve(String template, ChatRequest request, BiConsumer<String, String> onResolved);
    }

    private final Deque<ReplayScript.Step> steps = new ArrayDeque<>();
    private final Placeholders placeholders;
    private final BiConsumer<String, String> onResolved;
    private int calls;

    /**
     * @param steps      the recorded answers, in order
     * @param onResolved told each placeholder of an answer and the value read from the request
     */
    public ScriptedModel(Collection<ReplayScript.Step> steps, Placeholders placeholders,
                         BiConsumer<String, String> onResolved) {
        this.steps.addAll(steps);
        this.placeholders = placeholders;
        this.onResolved = onResolved;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        ReplayScript.Step step = steps.poll();
        calls++;
        if (step == null) {
            throw new IllegalStateException("The replay script has no answer left for model call " + calls);
        }
        AiMessage answer;
        if (step.isToolCall()) {
            boolean offered = request.toolSpecifications() != null && request.toolSpecifications().stream()
                    .anyMatch(spec -> spec.name().equals(step.tool()));
            if (!offered) {
                throw new IllegalStateException("The replay script calls tool '" + step.tool()
                        + "', which the request does not offer");
            }
            ObjectNode arguments = step.arguments().deepCopy();
            resolveStrings(arguments, request);
            answer = AiMessage.from(ToolExecutionRequest.builder()
                    .id("call_" + calls)
                    .name(step.tool())
                    .arguments(arguments.toString())
                    .build());
        } else {
            answer = AiMessage.from(placeholders.resolve(step.text(), request, (placeholder, value) -> {
            }));
        }
        return ChatResponse.builder().aiMessage(answer).build();
    }

    /** How many recorded answers are left; 0 after a complete replay. */
    public int remaining() {
        return steps.size();
    }

    private void resolveStrings(ObjectNode node, ChatRequest request) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            if (value.isTextual()) {
                field.setValue(TextNode.valueOf(placeholders.resolve(value.asText(), request, onResolved)));
            } else if (value.isObject()) {
                resolveStrings((ObjectNode) value, request);
            }
        }
    }
}
