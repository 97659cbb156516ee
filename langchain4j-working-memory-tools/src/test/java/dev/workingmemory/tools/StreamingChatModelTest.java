package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.PressureSample;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.testing.OpenAiStubServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.workingmemory.testing.OpenAiStubServer.call;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The memory behind a streaming assistant: LangChain4j's real {@link OpenAiStreamingChatModel} against
 * {@link OpenAiStubServer}'s server-sent events, {@link TokenStream} answers, and the memory's and the application's
 * tools called from the model client's threads rather than the caller's.
 */
class StreamingChatModelTest {

    interface StreamingAssistant {
        TokenStream chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    /** An application's tool beside the memory's. */
    static final class Restaurants {

        @Tool("Finds restaurants of a cuisine in a city")
        String findRestaurants(String cuisine, String city) {
            return "{\"results\": [{\"name\": \"Baan Thai\", \"id\": \"r-17\", \"city\": \"" + city + "\"}]}";
        }
    }

    private OpenAiStubServer openAi;

    @BeforeEach
    void startStub() {
        openAi = OpenAiStubServer.start();
    }

    @AfterEach
    void stopStub() {
        openAi.close();
    }

    @Test
    void should_keep_a_streaming_assistants_turns_tool_calls_and_notes() throws Exception {
        openAi.thenToolCalls(call("working_memory_note", "{\"note\": \"Alice is allergic to peanuts.\", \"importance\": 0.9}"))
                .thenAnswer("Noted: no peanuts for you.")
                .thenToolCalls(call("findRestaurants", "{\"cuisine\": \"Thai\", \"city\": \"Berlin\"}"))
                .thenAnswer("Try Baan Thai in Berlin; ask them to leave out the peanuts.")
                .thenToolCalls(call("memory_search", "{\"query\": \"allergic\"}"))
                .thenAnswer("You are allergic to peanuts.");
        List<Object> tools = new ArrayList<>();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            tools.addAll(WorkingMemoryTools.all(memories));
            tools.add(new Restaurants());
            StreamingAssistant assistant = AiServices.builder(StreamingAssistant.class)
                    .streamingChatModel(OpenAiStreamingChatModel.builder().baseUrl(openAi.baseUrl()).apiKey("test")
                            .modelName("gpt-4o-mini").listeners(List.of(memories.chatModelListener())).build())
                    .chatMemoryProvider(memories)
                    .tools(tools)
                    .build();

            assertThat(ask(assistant, "alice", "I'm allergic to peanuts, please remember that."))
                    .isEqualTo("Noted: no peanuts for you.");
            assertThat(ask(assistant, "alice", "Find me a Thai restaurant in Berlin."))
                    .isEqualTo("Try Baan Thai in Berlin; ask them to leave out the peanuts.");
            assertThat(ask(assistant, "alice", "What am I allergic to?")).isEqualTo("You are allergic to peanuts.");

            List<JsonNode> requests = openAi.requests();
            assertThat(requests).hasSize(6).allSatisfy(request -> {
                assertThat(request.path("stream").asBoolean()).isTrue();
                assertWellFormed(request.get("messages"));
            });
            // the note is in the block of every later request, and memory_search found it
            assertThat(system(requests.get(2))).contains("<working_memory>").contains("allergic to peanuts");
            assertThat(lastToolContent(requests.get(5))).contains("allergic to peanuts");
            // the application's tool result made its entity known at once
            assertThat(system(requests.get(3))).contains("Baan Thai");

            // the listener told the memory of the 13 tools' specifications, which pressure counts with the messages
            List<PressureSample> history = memories.memory("alice").contextPressure().history();
            PressureSample last = history.get(history.size() - 1);
            int messageTokens = CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(
                    memories.memory("alice").lastRequest().orElseThrow().messages());
            assertThat(last.tokens() - messageTokens).isGreaterThan(1_500);

            List<ChatMessage> window = memories.get("alice").messages();
            assertThat(window.stream().filter(UserMessage.class::isInstance).map(m -> ((UserMessage) m).singleText()))
                    .containsExactly("I'm allergic to peanuts, please remember that.",
                            "Find me a Thai restaurant in Berlin.", "What am I allergic to?");
            assertThat(window.stream().filter(ToolExecutionResultMessage.class::isInstance)).hasSize(3);
        }
    }

    /** Streams one answer to its end on the model client's threads; @return the text streamed. */
    private static String ask(StreamingAssistant assistant, String user, String message) throws Exception {
        StringBuilder streamed = new StringBuilder();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        assistant.chat(user, message)
                .onPartialResponse(streamed::append)
                .onCompleteResponse(done::complete)
                .onError(done::completeExceptionally)
                .start();
        ChatResponse response = done.get(30, TimeUnit.SECONDS);
        assertThat(response.aiMessage().text()).isEqualTo(streamed.toString());
        return streamed.toString();
    }

    /** One system message, first; every tool call answered by a tool message, and no tool message without its call. */
    private static void assertWellFormed(JsonNode messages) {
        Set<String> open = new HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.get("role").asText();
            if (role.equals("system")) {
                assertThat(i).as("the system message comes first, once").isZero();
            } else if (role.equals("tool")) {
                assertThat(open.remove(message.get("tool_call_id").asText())).as("a result answers an open call")
                        .isTrue();
            } else {
                assertThat(open).as("calls answered before the next message").isEmpty();
                message.path("tool_calls").forEach(call -> open.add(call.get("id").asText()));
            }
        }
    }

    private static String system(JsonNode request) {
        JsonNode first = request.get("messages").get(0);
        return first.get("role").asText().equals("system") ? first.get("content").asText() : "";
    }

    private static String lastToolContent(JsonNode request) {
        JsonNode messages = request.get("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).get("role").asText().equals("tool")) {
                return messages.get(i).get("content").asText();
            }
        }
        return "";
    }
}
