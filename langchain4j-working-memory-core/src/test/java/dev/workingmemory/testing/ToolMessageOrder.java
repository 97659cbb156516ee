package dev.workingmemory.testing;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * OpenAI's rule for tool messages, on LangChain4j messages: an AI message with tool requests is directly followed by
 * exactly one result for each of its requests (in any order), and a tool result appears nowhere else. Stateless.
 */
public final class ToolMessageOrder {

    private ToolMessageOrder() {
    }

    /** What breaks the rule in {@code messages}, one line per problem; empty when they are valid. */
    public static List<String> violations(List<ChatMessage> messages) {
        List<String> problems = new ArrayList<>();
        int i = 0;
        while (i < messages.size()) {
            ChatMessage message = messages.get(i);
            if (message instanceof ToolExecutionResultMessage result) {
                problems.add("result " + result.id() + " at " + i + " follows no request of it");
                i++;
                continue;
            }
            i++;
            if (message instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                Set<String> open = new HashSet<>();
                for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
                    open.add(request.id());
                }
                while (i < messages.size() && messages.get(i) instanceof ToolExecutionResultMessage result) {
                    if (!open.remove(result.id())) {
                        problems.add("result " + result.id() + " at " + i + " answers no open request before it");
                    }
                    i++;
                }
                if (!open.isEmpty()) {
                    problems.add("request at " + (i - 1) + " lacks results " + open);
                }
            }
        }
        return problems;
    }
}
