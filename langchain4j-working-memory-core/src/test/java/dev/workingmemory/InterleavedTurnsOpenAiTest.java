package dev.workingmemory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.InterleavedTurns.Assistant;
import dev.workingmemory.InterleavedTurns.Pause;
import dev.workingmemory.InterleavedTurns.PausingMemories;
import dev.workingmemory.InterleavedTurns.Tools;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.OpenAiStubServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.workingmemory.InterleavedTurns.afterResult;
import static dev.workingmemory.InterleavedTurns.afterToolRequest;
import static dev.workingmemory.InterleavedTurns.afterUserMessage;
import static dev.workingmemory.InterleavedTurns.overlap;
import static dev.workingmemory.InterleavedTurns.record;
import static dev.workingmemory.testing.OpenAiStubServer.call;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link InterleavedTurnsTest}'s interleavings with LangChain4j's OpenAI client, against a local stub that answers
 * HTTP 400, as OpenAI does, to a request whose tool messages do not directly follow the assistant message with their
 * {@code tool_calls}. Each request (a tab) has its own stub, so that each gets its own answers; both share the memory.
 */
class InterleavedTurnsOpenAiTest {

    private static final String ID = "alice";

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
            .embeddingModel(new HashingEmbeddingModel())
            .build();
    private final PausingMemories pausing = new PausingMemories(memories);
    private final OpenAiStubServer firstTab = OpenAiStubServer.start().strictToolMessages();
    private final OpenAiStubServer secondTab = OpenAiStubServer.start().strictToolMessages();

    @AfterEach
    void close() {
        pool.shutdownNow();
        firstTab.close();
        secondTab.close();
        memories.close();
    }

    private Future<String> chat(OpenAiStubServer tab, String message) {
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(OpenAiChatModel.builder().baseUrl(tab.baseUrl()).apiKey("test").modelName("gpt-4o-mini")
                        .maxRetries(0).build())
                .chatMemoryProvider(pausing)
                .tools(new Tools())
                .build();
        return pool.submit(() -> assistant.chat(ID, message));
    }

    @Test
    void should_be_accepted_when_a_user_message_comes_between_a_tool_request_and_its_result() throws Exception {
        firstTab.thenToolCalls(call("findRecord", "{\"key\":\"alpha\"}")).thenAnswer("alpha found");
        secondTab.thenAnswer("hello");
        Pause requested = pausing.pause(afterToolRequest("alpha"));
        Pause userAdded = pausing.pause(afterUserMessage("hello there"));

        assertThat(overlap(() -> chat(firstTab, "find alpha"), requested, () -> chat(secondTab, "hello there"),
                userAdded, true)).containsExactly("alpha found", "hello");

        assertAcceptedAndShown(firstTab, "alpha");
    }

    @Test
    void should_be_accepted_when_two_turns_call_tools_at_once() throws Exception {
        firstTab.thenToolCalls(call("findRecord", "{\"key\":\"alpha\"}")).thenAnswer("alpha found");
        secondTab.thenToolCalls(call("findRecord", "{\"key\":\"beta\"}")).thenAnswer("beta found");
        Pause alpha = pausing.pause(afterToolRequest("alpha"));
        Pause beta = pausing.pause(afterToolRequest("beta"));

        assertThat(overlap(() -> chat(firstTab, "find alpha"), alpha, () -> chat(secondTab, "find beta"), beta, true))
                .containsExactly("alpha found", "beta found");

        assertAcceptedAndShown(firstTab, "alpha");
        assertAcceptedAndShown(secondTab, "beta");
    }

    @Test
    void should_be_accepted_when_another_turn_comes_between_parallel_results() throws Exception {
        firstTab.thenToolCalls(call("findRecord", "{\"key\":\"alpha\"}"), call("findRecord", "{\"key\":\"gamma\"}"))
                .thenAnswer("both found");
        secondTab.thenToolCalls(call("findRecord", "{\"key\":\"beta\"}")).thenAnswer("beta found");
        Pause between = pausing.pause(afterResult("alpha"));

        Future<String> first = chat(firstTab, "find alpha and gamma");
        between.awaitReached();
        assertThat(chat(secondTab, "find beta").get(30, TimeUnit.SECONDS)).isEqualTo("beta found");
        between.release();
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("both found");

        assertAcceptedAndShown(firstTab, "alpha", "gamma");
        assertAcceptedAndShown(secondTab, "beta");
    }

    /** No request was refused, and the tab's second request ended with its own results. */
    private void assertAcceptedAndShown(OpenAiStubServer tab, String... keys) {
        assertThat(firstTab.rejected()).isEmpty();
        assertThat(secondTab.rejected()).isEmpty();
        List<JsonNode> requests = tab.requests();
        assertThat(requests).hasSize(2);
        JsonNode messages = requests.get(1).path("messages");
        List<String> last = new ArrayList<>();
        for (int i = messages.size() - keys.length; i < messages.size(); i++) {
            last.add(messages.get(i).path("content").asText());
        }
        assertThat(last).containsExactlyInAnyOrder(java.util.Arrays.stream(keys).map(InterleavedTurns::record)
                .toArray(String[]::new));
        assertThat(messages.get(messages.size() - keys.length - 1).path("tool_calls")).hasSize(keys.length);
    }
}
