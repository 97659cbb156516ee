package dev.workingmemory.testing;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link ChatModel} that answers from a script instead of calling an LLM, and records every request.
 * Either a queue of answers (one per model call) or one function for all calls. Thread-safe.
 */
public final class ScriptedChatModel implements ChatModel {

    private static final AtomicInteger CALL_IDS = new AtomicInteger();

    private final Deque<Function<ChatRequest, AiMessage>> script = new ArrayDeque<>();
    private final Function<ChatRequest, AiMessage> fallback;
    private final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
    private volatile List<ChatModelListener> listeners = List.of();

    private ScriptedChatModel(Function<ChatRequest, AiMessage> fallback) {
        this.fallback = fallback;
    }

    /** A model that answers from the queue built with {@code then…} methods and fails when it runs out. */
    public static ScriptedChatModel script() {
        return new ScriptedChatModel(null);
    }

    /** A model that answers every call with {@code answer}. */
    public static ScriptedChatModel answering(Function<ChatRequest, AiMessage> answer) {
        return new ScriptedChatModel(answer);
    }

    public synchronized ScriptedChatModel thenAnswer(String text) {
        script.add(request -> AiMessage.from(text));
        return this;
    }

    /** The next call asks for one tool call. */
    public synchronized ScriptedChatModel thenCallTool(String toolName, String argumentsJson) {
        script.add(request -> AiMessage.from(toolCall(toolName, argumentsJson)));
        return this;
    }

    /** The next call asks for several tool calls at once. */
    public synchronized ScriptedChatModel thenCallTools(ToolExecutionRequest... calls) {
        script.add(request -> AiMessage.from(calls));
        return this;
    }

    public synchronized ScriptedChatModel then(Function<ChatRequest, AiMessage> answer) {
        script.add(answer);
        return this;
    }

    public static ToolExecutionRequest toolCall(String toolName, String argumentsJson) {
        return ToolExecutionRequest.builder()
                .id("call_" + CALL_IDS.incrementAndGet())
                .name(toolName)
                .arguments(argumentsJson)
                .build();
    }

    /** Listeners the model tells of each request, as a real model's builder takes them. */
    public ScriptedChatModel listeners(ChatModelListener... listeners) {
        this.listeners = List.of(listeners);
        return this;
    }

    @Override
    public List<ChatModelListener> listeners() {
        return listeners;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        Function<ChatRequest, AiMessage> next;
        synchronized (this) {
            next = script.poll();
        }
        if (next == null) {
            if (fallback == null) {
                throw new IllegalStateException("The script has no answer left for request " + requests.size());
            }
            next = fallback;
        }
        return ChatResponse.builder().aiMessage(next.apply(request)).build();
    }

    /** Every request received, in order. */
    public List<ChatRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public ChatRequest lastRequest() {
        synchronized (requests) {
            return requests.get(requests.size() - 1);
        }
    }

    /** The text of the (first) system message of {@code request}, or {@code ""}. */
    public static String systemText(ChatRequest request) {
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage system) {
                return system.text();
            }
        }
        return "";
    }
}
