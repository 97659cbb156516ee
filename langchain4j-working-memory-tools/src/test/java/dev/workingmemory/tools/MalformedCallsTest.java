package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.workingmemory.tools.ToolTesting.assistant;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Malformed calls come back to the model as a text saying what was wrong and how to fix it; the
 * conversation goes on and the memory is unchanged. The assistant has the module's error handlers.
 */
class MalformedCallsTest {

    private static final int GOAL_LIMIT = 20;
    private static final String INITIAL_GOAL = "initial goal";

    static Stream<Arguments> structured_calls() {
        return Stream.of(
                // core_memory_update: missing parameters
                arguments("core_memory_update", "{}",
                        List.of("The parameter 'block' is missing.", "How to fix: Use one of the blocks: goal, progress, context.")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"content\": \"x\"}",
                        List.of("The parameter 'operation' is missing.", "'replace'", "'append'")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\"}",
                        List.of("The parameter 'content' is missing.", "as a plain string")),
                // core_memory_update: wrong types
                arguments("core_memory_update", "{\"block\": 5, \"operation\": \"replace\", \"content\": \"x\"}",
                        List.of("Unknown core memory block '5'. Valid blocks: goal, progress, context.")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": {\"a\": 1}}",
                        List.of("The parameter 'content' must be text, but a JSON object was sent", "as a plain string")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": true, \"content\": \"x\"}",
                        List.of("Unknown operation 'true'.")),
                // core_memory_update: unknown block, unknown operation
                arguments("core_memory_update", "{\"block\": \"goals\", \"operation\": \"replace\", \"content\": \"x\"}",
                        List.of("Unknown core memory block 'goals'. Valid blocks: goal, progress, context.",
                                "How to fix: Use one of the blocks: goal, progress, context.")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": \"delete\", \"content\": \"x\"}",
                        List.of("Unknown operation 'delete'.", "How to fix: Use operation 'replace' to overwrite the whole block,"
                                + " or 'append' to add the content as a new line at its end.")),
                // core_memory_update: over the limit
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"" + "x".repeat(21) + "\"}",
                        List.of("Block 'goal' would hold 21 chars, over its limit of 20 by 1. Nothing was changed.",
                                "How to fix: Send content of at most 20 chars: a summary of what the block must keep.")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": \"append\", \"content\": \"0123456789\"}",
                        List.of("Block 'goal' would hold 23 chars, over its limit of 20 by 3. Nothing was changed.",
                                "How to fix: Append at most 7 chars, or use operation 'replace'")),
                arguments("core_memory_update", "{\"block\": \"goal\", \"operation\": \"append\", \"content\": \"\"}",
                        List.of("The content to append is empty")),
                // not JSON at all: fails in LangChain4j, reported by the arguments error handler
                arguments("core_memory_update", "{\"block\": \"goal\", ",
                        List.of("The arguments of tool 'core_memory_update' could not be read: they are not valid JSON (",
                                "The tool did not run and nothing was changed.",
                                "How to fix: call core_memory_update again with three strings")),
                arguments("core_memory_read", "{oops",
                        List.of("The arguments of tool 'core_memory_read' could not be read:", "with no arguments: {}")),
                arguments("working_memory_stats", "[1, 2]",
                        List.of("The arguments of tool 'working_memory_stats' could not be read: they must be a JSON object"
                                + " of named parameters, but an array was sent.", "with no arguments: {}")),
                // updateWorkingMemory: missing, non-object, schema violations
                arguments("updateWorkingMemory", "{}",
                        List.of("The parameter 'update' is missing.", "{\"update\": {\"currentGoal\": \"Deploy v2\"}}")),
                arguments("updateWorkingMemory", "{\"update\": null}",
                        List.of("The parameter 'update' is missing.")),
                arguments("updateWorkingMemory", "{\"update\": [1]}",
                        List.of("Received an array: [1]; a scratchpad update must be a JSON object",
                                "How to fix: Call updateWorkingMemory again with update set to a JSON object")),
                arguments("updateWorkingMemory", "{\"update\": 42}",
                        List.of("Received a number: 42;")),
                arguments("updateWorkingMemory", "{\"update\": \"[1]\"}",
                        List.of("Received an array: [1];")),
                arguments("updateWorkingMemory", "{\"update\": \"\\\"just text\\\"\"}",
                        List.of("Received a JSON string that does not hold a JSON object")),
                arguments("updateWorkingMemory", "{\"update\": \"plain\"}",
                        List.of("The arguments of tool 'updateWorkingMemory' could not be read: a value does not fit the type"
                                + " of its parameter (Unrecognized token 'plain'",
                                "Received: '{\"update\": \"plain\"}'.", "where update is a JSON object")),
                arguments("updateWorkingMemory", "{\"update\": {\"completedSteps\": \"write tests\"}}",
                        List.of("The update was rejected and the scratchpad is unchanged:", "completedSteps")),
                arguments("updateWorkingMemory", "{\"update\": {\"currentGoal\": 5}}",
                        List.of("The update was rejected and the scratchpad is unchanged:", "currentGoal")),
                arguments("updateWorkingMemory", "{\"update\": {\"deadline\": \"Friday\"}}",
                        List.of("The update was rejected and the scratchpad is unchanged:", "deadline")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("structured_calls")
    void should_answer_a_malformed_call_with_a_helpful_text_and_change_nothing(String tool, String arguments,
                                                                               List<String> expected) {
        WorkingMemoryProvider memories = ToolTesting.structuredProviderWithGoalLimit(GOAL_LIMIT);
        WorkingMemory memory = memories.memory("alice");
        memory.coreMemory().replace("goal", INITIAL_GOAL);
        memory.scratchpad().update("{\"currentGoal\": \"initial\"}");
        State before = State.of(memory);
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool(tool, arguments)
                .thenAnswer("Let me try that differently.");

        String answer = assistant(model, memories).chat("alice", "please update your memory");

        assertThat(answer).isEqualTo("Let me try that differently.");
        String result = lastToolResult(model.lastRequest());
        assertThat(result).startsWith("Error: ").contains(expected).contains("How to fix: ");
        assertThat(State.of(memories.memory("alice"))).isEqualTo(before);
    }

    static Stream<Arguments> free_text_calls() {
        return Stream.of(
                arguments("{}", List.of("The parameter 'update' is missing.", "as a plain string")),
                arguments("{\"update\": {\"goal\": \"x\"}}",
                        List.of("The parameter 'update' must be text, but a JSON object was sent (it arrived as '{goal=x}').")),
                arguments("{\"update\": \"" + "y".repeat(101) + "\"}",
                        List.of("the text is 101 characters long, more than the limit of 100 characters")),
                arguments("{\"update\": ", List.of("The arguments of tool 'updateWorkingMemory' could not be read:")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("free_text_calls")
    void should_answer_a_malformed_free_text_update_with_a_helpful_text_and_change_nothing(String arguments,
                                                                                          List<String> expected) {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .scratchpad(dev.workingmemory.scratchpad.ScratchpadConfig.builder().maxStateChars(100).build())
                .build();
        memories.memory("bob").scratchpad().update("my notes");
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("updateWorkingMemory", arguments)
                .thenAnswer("Let me try that differently.");

        String answer = assistant(model, memories).chat("bob", "please update your notes");

        assertThat(answer).isEqualTo("Let me try that differently.");
        assertThat(lastToolResult(model.lastRequest())).startsWith("Error: ").contains(expected).contains("How to fix: ");
        assertThat(memories.memory("bob").scratchpad().text()).isEqualTo("my notes");
    }

    /**
     * Issue 19, point 6: nulls where a model may send them — a parameter, an element of a list, a value inside an
     * object — never fail a tool unexpectedly (a {@code "tags": [null]} threw a NullPointerException): each is a
     * parameter left out, a rejection saying what to change, or taken as the tool documents.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "working_memory_note       | {\"note\": \"x\", \"importance\": null, \"tags\": null}",
            "working_memory_note       | {\"note\": \"x\", \"tags\": [null]}",
            "working_memory_note       | {\"note\": \"x\", \"tags\": [\"decision\", null]}",
            "working_memory_note       | {\"note\": null, \"tags\": [null]}",
            "memory_search             | {\"query\": null, \"limit\": null}",
            "memory_search             | {\"query\": \"x\", \"limit\": null}",
            "core_memory_update        | {\"block\": null, \"operation\": null, \"content\": null}",
            "core_memory_update        | {\"block\": \"goal\", \"operation\": \"replace\", \"content\": null}",
            "core_memory_update        | {\"block\": \"goal\", \"operation\": \"replace\", \"content\": [null]}",
            "working_memory_add        | {\"slot\": null, \"content\": null}",
            "working_memory_add        | {\"slot\": \"todo\", \"content\": [null]}",
            "working_memory_clear_slot | {\"slot\": null}",
            "working_memory_remove     | {\"content\": null}",
            "read_tool_output          | {\"id\": null, \"fromLine\": null, \"lines\": null}",
            "read_tool_output          | {\"id\": [null]}",
            "updateWorkingMemory       | {\"update\": {\"currentGoal\": null}}",
            "updateWorkingMemory       | {\"update\": {\"completedSteps\": [null]}}",
            "updateWorkingMemory       | {\"update\": {\"nested\": {\"a\": null}}}",
            "updateWorkingMemory       | {\"update\": {\"\": null}}"})
    void should_never_fail_unexpectedly_on_nulls_in_the_arguments(String tool, String arguments) {
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool(tool, arguments)
                .thenAnswer("Carrying on.");

        String answer = assistant(model, memories).chat("erin", "use your memory");

        assertThat(answer).isEqualTo("Carrying on.");
        assertThat(lastToolResult(model.lastRequest())).doesNotContain("unexpectedly").doesNotContain("Exception");
    }

    @Test
    void should_let_more_calls_follow_an_error_in_the_same_conversation() {
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("core_memory_update", "{\"block\": \"goals\", \"operation\": \"replace\", \"content\": \"Ship v2\"}")
                .thenCallTool("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"Ship v2\"}")
                .thenAnswer("Fixed it.");

        String answer = assistant(model, memories).chat("carol", "our goal is v2");

        assertThat(answer).isEqualTo("Fixed it.");
        assertThat(lastToolResult(model.requests().get(1))).startsWith("Error: Unknown core memory block 'goals'.");
        assertThat(lastToolResult(model.requests().get(2))).startsWith("Replaced block 'goal'");
        assertThat(memories.memory("carol").coreMemory().read("goal").content()).isEqualTo("Ship v2");
    }

    /**
     * LangChain4j's defaults rethrow what its argument conversion fails on, and a call of a tool the assistant does not
     * have: this is why the README configures the module's handlers.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "updateWorkingMemory | {\"update\": \"plain\"} | Unrecognized token 'plain'",
            "send_email          | {}                    | 'send_email' tool, but no such tool exists"})
    void should_abort_the_call_when_no_error_handling_is_configured(String tool, String arguments, String error) {
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool(tool, arguments)
                .thenAnswer("never reached");
        ToolTesting.Assistant assistant = withoutErrorHandling(model, memories);

        assertThatThrownBy(() -> assistant.chat("dave", "note something")).isInstanceOf(RuntimeException.class)
                .hasMessageContaining(error);
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void should_answer_a_call_of_a_tool_the_assistant_does_not_have_and_go_on() {
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("send_email", "{\"to\": \"ann@example.com\"}")
                .thenAnswer("I cannot send emails here.");

        String answer = assistant(model, memories).chat("erin", "mail Ann the plan");

        assertThat(answer).isEqualTo("I cannot send emails here.");
        assertThat(lastToolResult(model.requests().get(1))).isEqualTo("Error: There is no tool 'send_email' here."
                + " Nothing was run. How to fix: Use only the tools you were given in this request, or continue"
                + " without it.");
    }

    /** An assistant with the memory's tools and LangChain4j's defaults for malformed calls. */
    private static ToolTesting.Assistant withoutErrorHandling(ScriptedChatModel model, WorkingMemoryProvider memories) {
        return dev.langchain4j.service.AiServices.builder(ToolTesting.Assistant.class).chatModel(model)
                .chatMemoryProvider(memories).tools(WorkingMemoryTools.all(memories)).build();
    }

    /** What the model can see of a memory: core blocks, scratchpad and the rendered block. */
    record State(List<CoreBlock> blocks, JsonNode scratchpad, String block) {
        static State of(WorkingMemory memory) {
            return new State(memory.coreMemory().blocks(), memory.scratchpad().json(), memory.render());
        }
    }
}
