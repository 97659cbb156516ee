package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 21 ("Done when" 3) and issue 19 (point 6): the memory never prunes nor mines the answers of its own tools, and
 * prunes an application's tool result only when it is large, through {@code AiServices} with a scripted model.
 */
class OwnToolResultsTest {

    @TempDir
    Path dir;

    /** A tool of the application that answers with what it was given. */
    public static final class Echo {
        private final String output;

        Echo(String output) {
            this.output = output;
        }

        @Tool(name = "list_items", value = "Lists the items")
        public String listItems(@P(name = "query", value = "what to list") String query) {
            return output;
        }
    }

    private static ToolTesting.Assistant assistant(ScriptedChatModel model, WorkingMemoryProvider memories, Object... more) {
        List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
        tools.addAll(List.of(more));
        return AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(tools)
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .build();
    }

    /** The result the model was sent for its call of {@code tool} in {@code request}. */
    private static ToolExecutionResultMessage sentResult(ChatRequest request, String tool) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result && tool.equals(result.toolName())) {
                return result;
            }
        }
        throw new AssertionError("No result of " + tool + " in " + messages);
    }

    @ParameterizedTest
    @ValueSource(ints = {128_000, 2_000})
    void should_send_core_memory_read_whole_after_two_instances_appended_80_short_lines(int contextWindow) {
        WorkingMemoryProvider a = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .contextWindow(contextWindow).build();
        WorkingMemoryProvider b = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .contextWindow(contextWindow).build();
        for (int i = 0; i < 40; i++) {
            int n = i;
            a.withMemory("dev", memory -> memory.coreMemory().append("progress", "a" + n));
            b.withMemory("dev", memory -> memory.coreMemory().append("progress", "b" + n));
        }
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool(WorkingMemoryTools.CORE_MEMORY_READ, "{}")
                .thenAnswer("Read it.");

        assistant(model, a).chat("dev", "What is my progress?");

        String sent = sentResult(model.lastRequest(), WorkingMemoryTools.CORE_MEMORY_READ).text();
        assertThat(sent).isEqualTo(new CoreMemoryTools(a).coreMemoryRead("dev")).doesNotContain("[Pruned tool output");
        assertThat(sent).contains("<progress chars=\"299/2000\">a0\nb0\na1\n").contains("\na39\nb39</progress>");
        assertThat(sent.lines().count()).isEqualTo(83);
        a.close();
        b.close();
    }

    @Test
    void should_send_a_60_line_600_character_tool_result_whole() {
        String items = IntStream.range(0, 60).mapToObj(i -> String.format("item %04d", i)).collect(Collectors.joining("\n"));
        assertThat(items).hasSize(599);
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("list_items", "{\"query\": \"all\"}")
                .thenAnswer("Sixty items.");

        assistant(model, memories, new Echo(items)).chat("dev", "List my items");

        assertThat(sentResult(model.lastRequest(), "list_items").text()).isEqualTo(items);
        memories.close();
    }

    @Test
    void should_leave_the_memorys_own_answers_out_of_a_past_turn_and_keep_the_app_tools() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_note", "{\"note\": \"Prefers window seats\"}")
                .thenCallTool("list_items", "{\"query\": \"seats\"}")
                .thenAnswer("Noted, and here are the seats.")
                .thenAnswer("You're welcome.");
        ToolTesting.Assistant assistant = assistant(model, memories, new Echo("seat 12A, seat 14C"));

        assistant.chat("dev", "I like window seats. Which seats are free?");
        assistant.chat("dev", "Thanks");
        memories.memory("dev").search("window seats", 5); // waits for the user's crystals

        List<String> turns = memories.memory("dev").search("seats free window", 10).stream()
                .map(hit -> hit.text()).toList();
        assertThat(String.join("\n", turns)).contains("tool list_items: seat 12A, seat 14C")
                .doesNotContain("tool working_memory_note").doesNotContain("Noted at");
        memories.close();
    }

    @Test
    void should_still_prune_a_400_line_build_log() {
        String log = CodingTierTest.buildLog();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("list_items", "{\"query\": \"build\"}")
                .thenAnswer("It fails.");

        assistant(model, memories, new Echo(log)).chat("dev", "Build it");

        String sent = sentResult(model.lastRequest(), "list_items").text();
        assertThat(sent.lines().count()).isLessThanOrEqualTo(65);
        assertThat(sent).contains("[Pruned tool output: 400 lines").contains("[ERROR] /src/main/java/com/acme/Invoice.java:[57,41]");
        memories.close();
    }

    @Test
    void should_keep_the_build_errors_in_session_when_read_tool_output_answers_with_errors() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        String javac = """
                src/main/java/com/acme/A.java:3: error: cannot find symbol
                src/main/java/com/acme/B.java:5: error: ';' expected
                src/main/java/com/acme/C.java:8: error: incompatible types: String cannot be converted to int
                3 errors""";
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("list_items", "{\"query\": \"build\"}")
                .thenCallTool(ToolOutputTools.READ_TOOL_OUTPUT, "{\"id\": \"tool-output-nope\"}")
                .thenCallTool(ToolOutputTools.READ_TOOL_OUTPUT, "{\"id\": \"tool-output-nope-2\", \"fromLine\": 0}")
                .thenCallTool(ToolOutputTools.READ_TOOL_OUTPUT, "{\"id\": \"\"}")
                .thenAnswer("Three errors.");

        assistant(model, memories, new Echo(javac)).chat("dev", "Build it");

        assertThat(model.requests().get(2).messages().stream().filter(ToolExecutionResultMessage.class::isInstance)
                .map(m -> ((ToolExecutionResultMessage) m).text())).anyMatch(text -> text.startsWith("Error:"));
        SessionSlots session = memories.memory("dev").sessionSlots();
        assertThat(session.items("error")).containsExactly("A.java:3: cannot find symbol", "B.java:5: ';' expected",
                "C.java:8: incompatible types: String cannot be converted to int");
        assertThat(String.join("\n", session.items(SessionSlots.POOL))).doesNotContain("tool-output");
        memories.close();
    }

    @Test
    void should_register_every_tool_of_every_bean_all_returns_as_the_memorys_own() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Set<String> declared = new TreeSet<>();
        for (Object bean : WorkingMemoryTools.all(memories)) {
            for (Method method : bean.getClass().getMethods()) {
                Tool tool = method.getAnnotation(Tool.class);
                if (tool != null) {
                    declared.add(tool.name().isBlank() ? method.getName() : tool.name());
                }
            }
        }

        assertThat(memories.memoryToolNames().names()).containsAll(declared);
        assertThat(declared).contains("updateWorkingMemory", "working_memory_note", "memory_search", "core_memory_update",
                "core_memory_read", "working_memory_add", "working_memory_clear", "working_memory_clear_slot",
                "working_memory_remove", "working_memory_stats", "read_tool_output");
        memories.close();
    }

    @Test
    void should_register_the_tools_of_a_bean_made_on_its_own() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();

        new ToolOutputTools(memories);

        assertThat(memories.memoryToolNames().names()).containsExactly(ToolOutputTools.READ_TOOL_OUTPUT);
        memories.close();
    }
}
