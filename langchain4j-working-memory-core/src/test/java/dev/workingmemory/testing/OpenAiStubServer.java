package dev.workingmemory.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local stand-in for the OpenAI API: answers {@code POST /v1/chat/completions} on 127.0.0.1 with canned
 * {@code chat.completion} responses, in the order they were queued, and records every request body.
 * Point {@code OpenAiChatModel.builder().baseUrl(server.baseUrl())} at it; nothing leaves the machine.
 *
 * <pre>{@code
 * try (OpenAiStubServer openAi = OpenAiStubServer.start()) {
 *     openAi.thenToolCalls(OpenAiStubServer.call("core_memory_read", "{}")).thenAnswer("Done.");
 *     ...
 *     JsonNode second = openAi.requests().get(1);
 * }
 * }</pre>
 *
 * <p>A request with {@code "stream": true} ({@code OpenAiStreamingChatModel}) gets the same response as server-sent
 * events of chunks.
 *
 * <p>Thread-safe. Used by the tools module and the samples, with a real {@code OpenAiChatModel}.
 */
public final class OpenAiStubServer implements AutoCloseable {

    /** One tool call of a queued response: the function's name and its arguments as JSON text. */
    public record ToolCall(String name, String argumentsJson) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Deque<ObjectNode> responses = new ArrayDeque<>();
    private final List<JsonNode> requests = new ArrayList<>();
    /** Shared by every stub: two stubs serving one conversation never give two calls one id (OpenAI's are random). */
    private static final AtomicInteger ids = new AtomicInteger();
    private final List<String> rejected = new ArrayList<>();
    private volatile boolean strictToolMessages;

    private OpenAiStubServer(HttpServer server) {
        this.server = server;
    }

    /** Starts a server on 127.0.0.1 and a free port. */
    public static OpenAiStubServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
            OpenAiStubServer stub = new OpenAiStubServer(server);
            server.createContext("/v1/chat/completions", stub::handle);
            server.start();
            return stub;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ToolCall call(String name, String argumentsJson) {
        return new ToolCall(name, argumentsJson);
    }

    /** The base URL for {@code OpenAiChatModel.builder().baseUrl(...)}, ending in {@code /v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Queues a response asking for these tool calls ({@code finish_reason} {@code tool_calls}). */
    public synchronized OpenAiStubServer thenToolCalls(ToolCall... calls) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant").putNull("content");
        ArrayNode toolCalls = message.putArray("tool_calls");
        for (ToolCall call : calls) {
            ObjectNode toolCall = toolCalls.addObject()
                    .put("id", "call_" + ids.incrementAndGet())
                    .put("type", "function");
            toolCall.putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
        }
        responses.add(completion(message, "tool_calls"));
        return this;
    }

    /** Queues a plain text answer ({@code finish_reason} {@code stop}). */
    public synchronized OpenAiStubServer thenAnswer(String text) {
        responses.add(completion(JSON.createObjectNode().put("role", "assistant").put("content", text), "stop"));
        return this;
    }

    /**
     * Answers HTTP 400, as OpenAI does, to a request whose messages break its rule for tool messages: an assistant
     * message with {@code tool_calls} is followed directly by one {@code tool} message for each call, and a {@code tool}
     * message follows nothing else. A rejected request takes no queued response.
     */
    public OpenAiStubServer strictToolMessages() {
        strictToolMessages = true;
        return this;
    }

    /** Why each request rejected by {@link #strictToolMessages()} was, in order. */
    public synchronized List<String> rejected() {
        return List.copyOf(rejected);
    }

    /** The bodies of the requests received so far, parsed, in order. */
    public synchronized List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private ObjectNode completion(ObjectNode message, String finishReason) {
        ObjectNode completion = JSON.createObjectNode()
                .put("id", "chatcmpl-" + ids.incrementAndGet())
                .put("object", "chat.completion")
                .put("created", 1_700_000_000L)
                .put("model", "gpt-4o-mini");
        ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", finishReason);
        completion.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return completion;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                respond(exchange, 405, "{\"error\": {\"message\": \"POST only\"}}");
                return;
            }
            JsonNode body;
            try (InputStream in = exchange.getRequestBody()) {
                body = JSON.readTree(in);
            }
            ObjectNode next;
            String invalid = strictToolMessages ? toolMessageViolation(body.path("messages")) : null;
            synchronized (this) {
                requests.add(body);
                if (invalid != null) {
                    rejected.add(invalid);
                }
                next = invalid == null ? responses.poll() : null;
            }
            if (invalid != null) {
                ObjectNode error = JSON.createObjectNode();
                error.putObject("error").put("message", invalid).put("type", "invalid_request_error")
                        .put("param", "messages").putNull("code");
                respond(exchange, 400, JSON.writeValueAsString(error));
            } else if (next == null) {
                respond(exchange, 500, "{\"error\": {\"message\": \"The stub has no response left\"}}");
            } else if (body.path("stream").asBoolean(false)) {
                stream(exchange, next);
            } else {
                respond(exchange, 200, JSON.writeValueAsString(next));
            }
        }
    }

    /** What breaks OpenAI's rule for tool messages in {@code messages} (OpenAI's wording), or null. */
    private static String toolMessageViolation(JsonNode messages) {
        int i = 0;
        while (i < messages.size()) {
            JsonNode message = messages.get(i);
            if ("tool".equals(message.path("role").asText())) {
                return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
                        + "'tool_calls'. (messages.[" + i + "])";
            }
            i++;
            if (message.path("tool_calls").size() > 0) {
                List<String> open = new ArrayList<>();
                message.path("tool_calls").forEach(call -> open.add(call.path("id").asText()));
                while (i < messages.size() && "tool".equals(messages.get(i).path("role").asText())) {
                    if (!open.remove(messages.get(i).path("tool_call_id").asText())) {
                        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                                + "message with 'tool_calls'. (messages.[" + i + "])";
                    }
                    i++;
                }
                if (!open.isEmpty()) {
                    return "An assistant message with 'tool_calls' must be followed by tool messages responding to "
                            + "each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                            + String.join(", ", open);
                }
            }
        }
        return null;
    }

    /**
     * Sends a queued response as a streaming model does ({@code "stream": true}): server-sent events of
     * {@code chat.completion.chunk}s, the text in pieces of a few characters and each tool call's arguments in two
     * halves, then {@code data: [DONE]}.
     */
    private static void stream(HttpExchange exchange, ObjectNode completion) throws IOException {
        JsonNode message = completion.path("choices").path(0).path("message");
        String finishReason = completion.path("choices").path(0).path("finish_reason").asText();
        List<ObjectNode> deltas = new ArrayList<>();
        deltas.add(JSON.createObjectNode().put("role", "assistant"));
        String text = message.path("content").asText("");
        for (int at = 0; at < text.length(); at += 7) {
            deltas.add(JSON.createObjectNode().put("content", text.substring(at, Math.min(text.length(), at + 7))));
        }
        int index = 0;
        for (JsonNode call : message.path("tool_calls")) {
            String arguments = call.path("function").path("arguments").asText();
            int half = arguments.length() / 2;
            ObjectNode first = JSON.createObjectNode();
            first.putArray("tool_calls").addObject().put("index", index).put("id", call.path("id").asText())
                    .put("type", "function").putObject("function").put("name", call.path("function").path("name")
                            .asText()).put("arguments", arguments.substring(0, half));
            ObjectNode second = JSON.createObjectNode();
            second.putArray("tool_calls").addObject().put("index", index).putObject("function")
                    .put("arguments", arguments.substring(half));
            deltas.add(first);
            deltas.add(second);
            index++;
        }
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i <= deltas.size(); i++) {
                ObjectNode chunk = JSON.createObjectNode().put("id", completion.path("id").asText())
                        .put("object", "chat.completion.chunk").put("created", 1_700_000_000L)
                        .put("model", "gpt-4o-mini");
                ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
                if (i < deltas.size()) {
                    choice.set("delta", deltas.get(i));
                    choice.putNull("finish_reason");
                } else {
                    choice.putObject("delta");
                    choice.put("finish_reason", finishReason);
                }
                out.write(("data: " + JSON.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
