package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.tools.ToolTesting.assistant;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code updateWorkingMemory} through real {@code AiServices} with a scripted model. */
class ScratchpadToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void should_merge_object_updates_and_show_them_in_the_block_of_the_next_request() throws Exception {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("updateWorkingMemory",
                        "{\"update\": {\"currentGoal\": \"Deploy v2\", \"completedSteps\": [\"write tests\"]}}")
                .thenCallTool("updateWorkingMemory", "{\"update\": {\"blockers\": [\"CI is red\"]}}")
                .thenAnswer("Noted.");
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();

        String answer = assistant(model, memories).chat("alice", "We deploy v2; tests are written but CI is red.");

        assertThat(answer).isEqualTo("Noted.");
        List<ChatRequest> requests = model.requests();
        assertThat(systemText(requests.get(0))).doesNotContain("<scratchpad>");
        assertThat(lastToolResult(requests.get(1))).isEqualTo("Updated keys: currentGoal, completedSteps");
        assertThat(systemText(requests.get(1))).contains("<scratchpad>").contains("\"currentGoal\" : \"Deploy v2\"")
                .doesNotContain("blockers");
        assertThat(lastToolResult(requests.get(2))).isEqualTo("Updated keys: blockers");
        assertThat(systemText(requests.get(2))).contains("\"currentGoal\" : \"Deploy v2\"").contains("\"CI is red\"");
        assertThat(memories.memory("alice").scratchpad().json()).isEqualTo(JSON.readTree(
                "{\"currentGoal\":\"Deploy v2\",\"completedSteps\":[\"write tests\"],\"blockers\":[\"CI is red\"]}"));
    }

    @Test
    void should_accept_a_string_holding_a_json_object() throws Exception {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("updateWorkingMemory", "{\"update\": \"{\\\"currentGoal\\\": \\\"x\\\"}\"}")
                .thenAnswer("ok");
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();

        assistant(model, memories).chat("bob", "goal x");

        assertThat(lastToolResult(model.lastRequest())).isEqualTo("Updated keys: currentGoal");
        assertThat(systemText(model.lastRequest())).contains("\"currentGoal\" : \"x\"");
        assertThat(memories.memory("bob").scratchpad().json()).isEqualTo(JSON.readTree("{\"currentGoal\":\"x\"}"));
    }

    @Test
    void should_remove_a_key_sent_as_null() throws Exception {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("updateWorkingMemory", "{\"update\": {\"currentGoal\": \"x\", \"blockers\": [\"b\"]}}")
                .thenCallTool("updateWorkingMemory", "{\"update\": {\"blockers\": null}}")
                .thenAnswer("ok");
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();

        assistant(model, memories).chat("carol", "blockers are gone");

        assertThat(lastToolResult(model.lastRequest())).isEqualTo("Removed keys: blockers");
        assertThat(systemText(model.lastRequest())).doesNotContain("blockers");
        assertThat(memories.memory("carol").scratchpad().json()).isEqualTo(JSON.readTree("{\"currentGoal\":\"x\"}"));
    }

    @Test
    void should_answer_an_update_of_a_read_only_scratchpad_with_a_text_and_change_nothing() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .scratchpad(ScratchpadConfig.builder().json(true).template("{\"currentGoal\": \"fixed\"}").readOnly(true).build())
                .build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("updateWorkingMemory", "{\"update\": {\"currentGoal\": \"changed\"}}")
                .thenAnswer("I cannot change it.");

        String answer = assistant(model, memories).chat("dave", "change the goal");

        assertThat(answer).isEqualTo("I cannot change it.");
        assertThat(lastToolResult(model.lastRequest()))
                .startsWith("Error: The scratchpad is read-only")
                .contains("How to fix: Do not call updateWorkingMemory again");
        assertThat(systemText(model.lastRequest())).contains("\"currentGoal\" : \"fixed\"").doesNotContain("changed");
        assertThat(memories.memory("dave").scratchpad().json().get("currentGoal").asText()).isEqualTo("fixed");
    }

    @Test
    void should_replace_the_text_of_a_free_text_scratchpad_and_clear_it_with_an_empty_string() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("updateWorkingMemory", "{\"update\": \"Goal: deploy v2. Done: tests.\"}")
                .thenCallTool("updateWorkingMemory", "{\"update\": \"Goal: deploy v2. Done: tests, CI.\"}")
                .thenAnswer("Updated.")
                .thenCallTool("updateWorkingMemory", "{\"update\": \"\"}")
                .thenAnswer("Cleared.");
        ToolTesting.Assistant assistant = assistant(model, memories);

        assistant.chat("erin", "note the plan");

        List<ChatRequest> requests = model.requests();
        assertThat(lastToolResult(requests.get(1))).isEqualTo("Replaced the scratchpad text (29 characters)");
        assertThat(systemText(requests.get(1))).contains("<scratchpad>Goal: deploy v2. Done: tests.</scratchpad>");
        assertThat(systemText(requests.get(2))).contains("<scratchpad>Goal: deploy v2. Done: tests, CI.</scratchpad>");
        assertThat(memories.memory("erin").scratchpad().text()).isEqualTo("Goal: deploy v2. Done: tests, CI.");

        assistant.chat("erin", "forget the plan");

        assertThat(lastToolResult(model.lastRequest())).isEqualTo("Cleared the scratchpad");
        assertThat(systemText(model.lastRequest())).doesNotContain("<scratchpad>");
        assertThat(memories.memory("erin").scratchpad().text()).isEmpty();
    }

    @Test
    void should_pick_the_scratchpad_tool_that_fits_the_scratchpad() {
        assertThat(WorkingMemoryTools.all(WorkingMemoryProvider.builder().build()))
                .hasAtLeastOneElementOfType(TextScratchpadTools.class)
                .doesNotHaveAnyElementsOfTypes(ScratchpadTools.class);
        assertThat(WorkingMemoryTools.all(ToolTesting.structuredProvider()))
                .hasAtLeastOneElementOfType(ScratchpadTools.class)
                .doesNotHaveAnyElementsOfTypes(TextScratchpadTools.class);
    }

    @Test
    void should_refuse_to_build_a_scratchpad_tool_that_does_not_fit_the_provider() {
        assertThatThrownBy(() -> new ScratchpadTools(WorkingMemoryProvider.builder().build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TextScratchpadTools");
        assertThatThrownBy(() -> new TextScratchpadTools(ToolTesting.structuredProvider()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("new ScratchpadTools(provider)");
        assertThatThrownBy(() -> new ScratchpadTools(WorkingMemoryProvider.builder().withoutScratchpad().build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a scratchpad");
    }
}
