package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.OpenAiStubServer;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.workingmemory.testing.OpenAiStubServer.call;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Controls, bidi controls and unpaired surrogates that a model writes through the memory tools, or a tool returns:
 * the memory keeps and shows them cleaned ({@code BlockText.clean}), the same after a restart on the file store, and
 * a real OpenAI client sends the block with U+FFFD where it would have written {@code ?}. The conversation's own
 * messages go as they are.
 */
class HostileTextTest {

    /** NUL, a bidi override, an unpaired surrogate (JSON escapes, as a model's arguments carry them), ESC and CR LF. */
    private static final String HOSTILE_JSON = "Ship\\u0000 v2\\u202e now \\ud800 \\u001b[1mfast\\r\\nthen test";
    private static final String CLEANED = "Ship v2 now \uFFFD fast\nthen test";
    private static final String CONTROLS = "[\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\u202A-\\u202E\\u2066-\\u2069]";

    @TempDir
    Path dir;

    private WorkingMemoryProvider instance() {
        return WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
    }

    @Test
    void should_keep_and_show_what_the_model_wrote_cleaned_and_the_same_after_a_restart() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTools(ScriptedChatModel.toolCall("core_memory_update",
                                "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"" + HOSTILE_JSON + "\"}"),
                        ScriptedChatModel.toolCall("working_memory_note", "{\"note\": \"" + HOSTILE_JSON + "\"}"),
                        ScriptedChatModel.toolCall("updateWorkingMemory", "{\"update\": \"" + HOSTILE_JSON + "\"}"),
                        ScriptedChatModel.toolCall("core_memory_update",
                                "{\"block\": \"goal\\u0000\\ud800\", \"operation\": \"append\", \"content\": \"x\"}"))
                .thenAnswer("Noted.");
        String userText = "Remember: ship\u0000 v2 \uD800 now";
        List<String> before;
        try (WorkingMemoryProvider first = instance()) {
            ToolTesting.assistant(model, first).chat("alice", userText);
            before = texts(first.memory("alice"));
        }

        assertThat(before).containsExactly(CLEANED, CLEANED, CLEANED);
        ChatRequest second = model.requests().get(1);
        String block = ScriptedChatModel.systemText(second);
        assertThat(block).contains("<goal chars=\"" + CLEANED.length() + "/1000\">" + CLEANED + "</goal>")
                .doesNotContainPattern(CONTROLS).doesNotContain("\uD800");
        List<String> answers = second.messages().stream().filter(ToolExecutionResultMessage.class::isInstance)
                .map(message -> ((ToolExecutionResultMessage) message).text()).toList();
        assertThat(answers).hasSize(4).allSatisfy(answer -> assertThat(answer)
                .doesNotContainPattern(CONTROLS).doesNotContain("\uD800"));
        assertThat(answers.get(3)).contains("goal\uFFFD"); // the unknown block quoted, cleaned
        assertThat(second.messages()).filteredOn(UserMessage.class::isInstance).map(ChatMessage.class::cast)
                .singleElement().satisfies(user -> assertThat(((UserMessage) user).singleText()).isEqualTo(userText));
        try (WorkingMemoryProvider reopened = instance()) {
            assertThat(texts(reopened.memory("alice"))).isEqualTo(before);
        }
    }

    /** The goal, the last note and the scratchpad. */
    private static List<String> texts(WorkingMemory memory) {
        return List.of(memory.coreMemory().read("goal").content(),
                memory.notes().notes().get(memory.notes().notes().size() - 1).text(), memory.scratchpad().text());
    }

    /** An application's tool whose page title holds an unpaired surrogate. */
    static final class PageTools {
        @Tool("Fetches a page")
        String fetch_page(@P(name = "url", value = "the page's address") String url) {
            return "{\"page\":{\"id\":\"page-1\",\"title\":\"Hello \uD800 world\"}}";
        }
    }

    @Test
    void should_send_the_block_through_the_openai_client_with_a_replacement_character_for_an_unpaired_surrogate() {
        try (OpenAiStubServer openAi = OpenAiStubServer.start();
             WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            openAi.thenToolCalls(call("fetch_page", "{\"url\":\"x\"}")).thenAnswer("ok");
            List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
            tools.add(new PageTools());
            ToolTesting.Assistant assistant = AiServices.builder(ToolTesting.Assistant.class)
                    .chatModel(OpenAiChatModel.builder().baseUrl(openAi.baseUrl()).apiKey("test").modelName("gpt-4o-mini")
                            .build())
                    .chatMemoryProvider(memories).tools(tools).build();

            assistant.chat("bob", "fetch it");

            JsonNode system = openAi.requests().get(1).path("messages").get(0);
            assertThat(system.path("role").asText()).isEqualTo("system");
            assertThat(system.path("content").asText()).contains("\"Hello \uFFFD world\" (page-1)")
                    .doesNotContain("Hello ? world");
        }
    }
}
