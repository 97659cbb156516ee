package dev.workingmemory.samples.cms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A {@link ChatModel} that plays the model's side of a {@link ReplayScript}: each call returns the next recorded
 * answer, a tool call or a text, after filling its placeholders in from the {@code <working_memory>} block of
 * the request (so "add a hero section to it" becomes {@code cms_addSection(pageId=page-1)} only because the block
 * lists {@code "About Us" (page-1)} as the most recent page).
 *
 * <p>It also checks that the tool offered by the request exists, so a script that names a tool the
 * {@code AiServices} does not have fails here with a clear message. Not thread-safe: one conversation at a time.
 */
final class ScriptedCmsModel implements ChatModel {

    private final Deque<ReplayScript.Step> steps = new ArrayDeque<>();
    private final BiConsumer<String, String> onResolved;
    private int calls;

    /**
     * @param onResolved told each placeholder of a tool call's arguments and the value read from the block
     */
    ScriptedCmsModel(ReplayScript script, BiConsumer<String, String> onResolved) {
        script.turns().forEach(turn -> steps.addAll(turn.model()));
        this.onResolved = onResolved;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        ReplayScript.Step step = steps.poll();
        calls++;
        if (step == null) {
            throw new IllegalStateException("The replay script has no answer left for model call " + calls);
        }
        String block = WorkingMemoryBlock.of(WorkingMemoryBlock.systemText(request));
        AiMessage answer;
        if (step.isToolCall()) {
            boolean offered = request.toolSpecifications() != null && request.toolSpecifications().stream()
                    .anyMatch(spec -> spec.name().equals(step.tool()));
            if (!offered) {
                throw new IllegalStateException("The replay script calls tool '" + step.tool()
                        + "', which the request does not offer");
            }
            ObjectNode arguments = step.arguments().deepCopy();
            resolveStrings(arguments, block, onResolved);
            answer = AiMessage.from(ToolExecutionRequest.builder()
                    .id("call_" + calls)
                    .name(step.tool())
                    .arguments(arguments.toString())
                    .build());
        } else {
            answer = AiMessage.from(WorkingMemoryBlock.resolve(step.text(), block));
        }
        return ChatResponse.builder().aiMessage(answer).build();
    }

    /** How many recorded answers are left; 0 after a complete replay. */
    int remaining() {
        return steps.size();
    }

    private static void resolveStrings(ObjectNode node, String block, BiConsumer<String, String> onResolved) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            if (value.isTextual()) {
                field.setValue(TextNode.valueOf(WorkingMemoryBlock.resolve(value.asText(), block, onResolved)));
            } else if (value.isObject()) {
                resolveStrings((ObjectNode) value, block, onResolved);
            }
        }
    }
}
