package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.OpenAiStubServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.workingmemory.testing.OpenAiStubServer.call;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tools driven by LangChain4j's real {@link OpenAiChatModel} against {@link OpenAiStubServer}: the OpenAI
 * client's JSON, the tool specifications it sends and the AiServices tool loop, with no network.
 */
class OpenAiChatModelTest {

    private OpenAiStubServer openAi;

    @BeforeEach
    void startStub() {
        openAi = OpenAiStubServer.start();
    }

    @AfterEach
    void stopStub() {
        openAi.close();
    }

    private OpenAiChatModel model() {
        return OpenAiChatModel.builder()
                .baseUrl(openAi.baseUrl())
                .apiKey("test")
                .modelName("gpt-4o-mini")
                .build();
    }

    @Test
    void should_run_every_tool_through_the_openai_client_and_send_the_changed_block_with_the_tool_results() {
        openAi.thenToolCalls(call("core_memory_update", "{\"block\":\"goal\",\"operation\":\"replace\",\"content\":\"Ship v2\"}"))
                .thenToolCalls(call("updateWorkingMemory", "{\"update\":{\"currentGoal\":\"x\"}}"))
                .thenToolCalls(call("updateWorkingMemory", "{\"update\":\"{\\\"blockers\\\":[\\\"CI\\\"]}\"}"))
                .thenToolCalls(call("core_memory_read", "{}"), call("working_memory_stats", "{}"))
                .thenToolCalls(call("core_memory_update", "{\"block\":\"goals\",\"operation\":\"replace\",\"content\":\"x\"}"),
                        call("updateWorkingMemory", "{\"update\":\"plain\"}"))
                .thenAnswer("All noted.");
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();

        String answer = ToolTesting.assistant(model(), memories).chat("alice", "Remember: we ship v2, CI is blocking.");

        assertThat(answer).isEqualTo("All noted.");
        List<JsonNode> requests = openAi.requests();
        assertThat(requests).hasSize(6);

        // The tool specifications the client sent: exact names, parameter names and JSON types.
        JsonNode tools = requests.get(0).get("tools");
        assertThat(tools).allSatisfy(tool -> assertThat(tool.get("type").asText()).isEqualTo("function"));
        assertThat(functionNames(tools)).containsExactlyInAnyOrder("updateWorkingMemory", "core_memory_update",
                "core_memory_read", "working_memory_note", "working_memory_stats", "working_memory_add",
                "working_memory_clear", "working_memory_clear_slot", "working_memory_remove", "read_tool_output",
                "memory_search", "memory_read");
        JsonNode search = function(tools, "memory_search").get("parameters");
        assertThat(search.at("/properties/query/type").asText()).isEqualTo("string");
        assertThat(search.at("/properties/limit/type").asText()).isEqualTo("integer");
        JsonNode update = function(tools, "updateWorkingMemory").at("/parameters/properties/update");
        assertThat(update.get("type").asText()).isEqualTo("object");
        JsonNode coreUpdate = function(tools, "core_memory_update").get("parameters");
        assertThat(coreUpdate.at("/properties/block/type").asText()).isEqualTo("string");
        assertThat(coreUpdate.at("/properties/operation/type").asText()).isEqualTo("string");
        assertThat(coreUpdate.at("/properties/content/type").asText()).isEqualTo("string");
        assertThat(coreUpdate.get("required")).extracting(JsonNode::asText).containsExactly("block", "operation", "content");
        assertThat(systemContent(requests.get(0))).isEmpty();

        // After each call: the tool message answers the call, and the system message carries the changed block.
        assertThat(toolMessages(requests.get(1))).last().satisfies(tool -> {
            assertThat(tool.get("tool_call_id").asText()).isEqualTo(toolCallIds(requests.get(1)).get(0));
            assertThat(tool.get("content").asText()).isEqualTo("Replaced block 'goal' (7/1000 chars, 993 left).");
        });
        assertThat(systemContent(requests.get(1))).contains("<goal chars=\"7/1000\">Ship v2</goal>");

        assertThat(lastToolContent(requests.get(2))).isEqualTo("Updated keys: currentGoal");
        assertThat(systemContent(requests.get(2))).contains("\"currentGoal\" : \"x\"");

        assertThat(lastToolContent(requests.get(3))).isEqualTo("Updated keys: blockers");
        assertThat(systemContent(requests.get(3))).contains("\"currentGoal\" : \"x\"").contains("\"CI\"");

        List<JsonNode> readAndStats = toolMessages(requests.get(4)).subList(3, 5);
        assertThat(readAndStats.get(0).get("content").asText()).contains("<goal chars=\"7/1000\">Ship v2</goal>");
        assertThat(readAndStats.get(1).get("content").asText()).startsWith("Working memory block: ")
                .contains("- scratchpad: structured JSON, writable, 37/20000 chars");

        List<JsonNode> errors = toolMessages(requests.get(5)).subList(5, 7);
        assertThat(errors.get(0).get("content").asText())
                .startsWith("Error: Unknown core memory block 'goals'. Valid blocks: goal, progress, context.");
        assertThat(errors.get(1).get("content").asText())
                .startsWith("Error: The arguments of tool 'updateWorkingMemory' could not be read");

        WorkingMemory memory = memories.memory("alice");
        assertThat(memory.coreMemory().read("goal").content()).isEqualTo("Ship v2");
        assertThat(memory.scratchpad().json().toString()).isEqualTo("{\"currentGoal\":\"x\",\"blockers\":[\"CI\"]}");
    }

    private static List<String> functionNames(JsonNode tools) {
        List<String> names = new ArrayList<>();
        tools.forEach(tool -> names.add(tool.at("/function/name").asText()));
        return names;
    }

    private static JsonNode function(JsonNode tools, String name) {
        for (JsonNode tool : tools) {
            if (tool.at("/function/name").asText().equals(name)) {
                return tool.get("function");
            }
        }
        throw new AssertionError("no tool " + name + " in " + tools);
    }

    private static String systemContent(JsonNode request) {
        for (JsonNode message : request.get("messages")) {
            if (message.get("role").asText().equals("system")) {
                return message.get("content").asText();
            }
        }
        return "";
    }

    private static List<JsonNode> toolMessages(JsonNode request) {
        List<JsonNode> tools = new ArrayList<>();
        request.get("messages").forEach(message -> {
            if (message.get("role").asText().equals("tool")) {
                tools.add(message);
            }
        });
        return tools;
    }

    private static String lastToolContent(JsonNode request) {
        List<JsonNode> tools = toolMessages(request);
        return tools.get(tools.size() - 1).get("content").asText();
    }

    /** The ids of the tool calls of the last assistant message in {@code request}. */
    private static List<String> toolCallIds(JsonNode request) {
        List<String> ids = new ArrayList<>();
        for (JsonNode message : request.get("messages")) {
            if (message.get("role").asText().equals("assistant") && message.has("tool_calls")) {
                ids.clear();
                message.get("tool_calls").forEach(call -> ids.add(call.get("id").asText()));
            }
        }
        return ids;
    }
}
