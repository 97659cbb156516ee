package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@link WorkingMemoryTools} hands out: the beans per enabled layer, their specifications and the error handlers. */
class WorkingMemoryToolsTest {

    @Test
    void should_return_the_beans_of_the_enabled_layers() {
        assertThat(WorkingMemoryTools.all(WorkingMemoryProvider.builder().build())).hasExactlyElementsOfTypes(
                TextScratchpadTools.class, CoreMemoryTools.class, NoteTools.class, SlotTools.class, ToolOutputTools.class,
                MemoryStatsTools.class, MemorySearchTools.class);
        assertThat(WorkingMemoryTools.all(ToolTesting.structuredProvider())).hasExactlyElementsOfTypes(
                ScratchpadTools.class, CoreMemoryTools.class, NoteTools.class, SlotTools.class, ToolOutputTools.class,
                MemoryStatsTools.class, MemorySearchTools.class);
        assertThat(WorkingMemoryTools.all(WorkingMemoryProvider.builder().withoutScratchpad().withoutCoreMemory()
                .withoutNotes().withoutSessionSlots().withoutContextPressure().withoutCrystals().build()))
                .hasExactlyElementsOfTypes(MemoryStatsTools.class);
        List<Object> tools = WorkingMemoryTools.all(WorkingMemoryProvider.builder().build());
        assertThatThrownBy(() -> tools.add(new Object())).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void should_show_the_model_the_fixed_names_described_parameters_and_no_memory_id() {
        List<ToolSpecification> specs = WorkingMemoryTools.all(ToolTesting.structuredProvider()).stream()
                .flatMap(bean -> ToolSpecifications.toolSpecificationsFrom(bean).stream())
                .toList();

        assertThat(specs).extracting(ToolSpecification::name).containsExactlyInAnyOrder(
                "updateWorkingMemory", "core_memory_update", "core_memory_read", "working_memory_note",
                "working_memory_stats", "working_memory_add", "working_memory_clear", "working_memory_clear_slot",
                "working_memory_remove", "read_tool_output", "memory_search", "memory_read");
        for (ToolSpecification spec : specs) {
            assertThat(spec.description()).as(spec.name()).hasSizeGreaterThan(100);
            JsonObjectSchema parameters = spec.parameters();
            Map<String, JsonSchemaElement> properties = parameters == null ? Map.of() : parameters.properties();
            assertThat(properties).as(spec.name()).doesNotContainKey("memoryId");
            properties.forEach((name, schema) -> assertThat(schema.description()).as(spec.name() + "." + name).isNotBlank());
        }
        Map<String, ToolSpecification> byName = new java.util.HashMap<>();
        specs.forEach(spec -> byName.put(spec.name(), spec));
        assertThat(byName.get("core_memory_update").parameters().properties()).containsOnlyKeys("block", "operation", "content")
                .allSatisfy((name, schema) -> assertThat(schema).isInstanceOf(JsonStringSchema.class));
        assertThat(byName.get("core_memory_update").parameters().required()).containsExactly("block", "operation", "content");
        assertThat(byName.get("updateWorkingMemory").parameters().properties().get("update")).isInstanceOf(JsonObjectSchema.class);
        assertThat(byName.get("working_memory_note").parameters().properties()).containsOnlyKeys("note", "importance", "tags");
        assertThat(byName.get("working_memory_note").parameters().required()).containsExactly("note");
        assertThat(byName.get("memory_search").parameters().properties()).containsOnlyKeys("query", "limit");
        assertThat(byName.get("memory_search").parameters().required()).containsExactly("query");
        assertThat(ToolSpecifications.toolSpecificationsFrom(new TextScratchpadTools(WorkingMemoryProvider.builder().build()))
                .get(0).parameters().properties().get("update")).isInstanceOf(JsonStringSchema.class);
    }

    @Test
    void should_answer_with_a_text_when_there_is_no_memory_id_or_the_provider_is_closed() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        CoreMemoryTools core = new CoreMemoryTools(memories);

        assertThat(core.coreMemoryRead(null)).startsWith("Error: The tool received no memory id");

        memories.close();
        assertThat(core.coreMemoryUpdate("alice", "goal", "replace", "x"))
                .isEqualTo("Error: This WorkingMemoryProvider is closed. Nothing was changed."
                        + " How to fix: Do not call core_memory_update again for now; continue with the task.");
        assertThat(new MemoryStatsTools(memories).workingMemoryStats("alice")).startsWith("Error: ");
    }

    @Test
    void should_describe_arguments_errors_of_any_tool_without_failing_on_missing_context() {
        ToolErrorContext context = ToolErrorContext.builder()
                .toolExecutionRequest(ToolExecutionRequest.builder().id("1").name("createPage").arguments("{\"count\": \"x\"}").build())
                .invocationContext(InvocationContext.builder().chatMemoryId("alice").build())
                .build();

        String text = WorkingMemoryTools.argumentsErrorHandler()
                .handle(new IllegalArgumentException("Argument \"count\" is not convertable to int"), context).text();

        assertThat(text).isEqualTo("Error: The arguments of tool 'createPage' could not be read: a value does not fit the type"
                + " of its parameter (Argument \"count\" is not convertable to int). Received: '{\"count\": \"x\"}'."
                + " The tool did not run and nothing was changed. How to fix: call createPage again with a JSON object"
                + " whose fields match the tool's parameters.");
        assertThat(WorkingMemoryTools.argumentsErrorHandler().handle(new RuntimeException(), null).text()).startsWith("Error: ");
        assertThat(WorkingMemoryTools.executionErrorHandler().handle(new RuntimeException(), null).text()).startsWith("Error: ");
    }

    @Test
    void should_leave_jacksons_location_out_of_the_text_for_the_model() {
        String arguments = "{\"block\": \"goal\", \"content\": \"x\"";
        ToolErrorContext context = ToolErrorContext.builder()
                .toolExecutionRequest(ToolExecutionRequest.builder().id("1").name("core_memory_update").arguments(arguments)
                        .build())
                .invocationContext(InvocationContext.builder().chatMemoryId("alice").build())
                .build();

        String text = WorkingMemoryTools.argumentsErrorHandler()
                .handle(new IllegalArgumentException("not JSON"), context).text();

        assertThat(text).contains("they are not valid JSON (Unexpected end-of-input: expected close marker for Object)")
                .doesNotContain("[Source:", "column:");
    }

    static class FailingTools {
        @Tool("Publishes the page")
        String publish(@P("id") String id) {
            throw new IllegalStateException("the CMS is down");
        }
    }

    @Test
    void should_return_a_failing_tool_s_exception_to_the_model_and_go_on() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("publish", "{\"id\": \"page-1\"}")
                .thenAnswer("The CMS is down, I will retry later.");
        ToolTesting.Assistant assistant = AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(WorkingMemoryTools.all(memories))
                .tools(new FailingTools())
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .build();

        String answer = assistant.chat("alice", "publish page-1");

        assertThat(answer).isEqualTo("The CMS is down, I will retry later.");
        assertThat(lastToolResult(model.lastRequest())).isEqualTo("Error: Tool 'publish' failed: the CMS is down."
                + " How to fix: check the arguments and call publish again, or continue without it.");
    }
}
