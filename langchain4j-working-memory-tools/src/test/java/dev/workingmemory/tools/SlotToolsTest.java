package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.slots.SessionSlotsConfig;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;

/** The slot tools through real {@code AiServices} with a scripted model. */
class SlotToolsTest {

    private static final String JAVAC = "src/main/java/com/acme/Invoice.java:57: error: ';' expected\n"
            + "        total = total.add(line.amount())\n                                        ^\n1 error";
    private static final String TRACE = "Exception in thread \"main\" java.lang.IllegalStateException: no invoice\n"
            + "\tat com.acme.Billing.close(Billing.java:31)\n\tat com.acme.App.main(App.java:9)";

    @TempDir
    Path dir;

    private static WorkingMemoryProvider provider() {
        return WorkingMemoryProvider.builder().sessionSlots(SessionSlotsConfig.defaults()).build();
    }

    /** A build tool whose results are the scripted outputs, in order. */
    public static final class Shell {
        private final Deque<String> outputs;

        Shell(String... outputs) {
            this.outputs = new ArrayDeque<>(List.of(outputs));
        }

        @Tool(name = "bash", value = "Runs a shell command")
        public String bash(@P(name = "command", value = "the command") String command) {
            return outputs.isEmpty() ? "" : outputs.poll();
        }
    }

    private static ToolTesting.Assistant assistant(ScriptedChatModel model, WorkingMemoryProvider memories, Object... more) {
        List<Object> tools = new java.util.ArrayList<>(List.of(new SlotTools(memories)));
        tools.addAll(List.of(more));
        return AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(tools)
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .build();
    }

    private static String call(WorkingMemoryProvider memories, String tool, String arguments) {
        ScriptedChatModel model = ScriptedChatModel.script().thenCallTool(tool, arguments).thenAnswer("ok");
        assistant(model, memories).chat("dev", "go");
        return lastToolResult(model.lastRequest());
    }

    @Test
    void should_show_errors_from_a_javac_error_and_a_stack_trace_then_clear_them_and_drop_the_oldest() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"javac Invoice.java\"}")
                .thenCallTool("bash", "{\"command\": \"java App\"}")
                .thenCallTool(SlotTools.WORKING_MEMORY_CLEAR_SLOT, "{\"slot\": \"error\"}")
                .thenCallTool("bash", "{\"command\": \"javac A.java\"}")
                .thenCallTool("bash", "{\"command\": \"javac B.java\"}")
                .thenCallTool("bash", "{\"command\": \"javac C.java\"}")
                .thenCallTool("bash", "{\"command\": \"javac D.java\"}")
                .thenAnswer("done");
        WorkingMemoryProvider memories = provider();
        Shell shell = new Shell(JAVAC, TRACE, "A.java:1: error: a\n1 error", "B.java:2: error: b\n1 error",
                "C.java:3: error: c\n1 error", "D.java:4: error: d\n1 error");

        assistant(model, memories, shell).chat("dev", "Build and run it.");

        List<ChatRequest> requests = model.requests();
        assertThat(systemText(requests.get(2))).contains("""
                errors (2/3):
                - IllegalStateException: no invoice at Billing.close(Billing.java:31)
                - Invoice.java:57: ';' expected""");
        assertThat(lastToolResult(requests.get(3))).isEqualTo("Removed 2 items from 'error'.");
        assertThat(systemText(requests.get(3))).doesNotContain("errors (");
        assertThat(systemText(requests.get(7))).contains("errors (3/3):\n- D.java:4: d\n- C.java:3: c\n- B.java:2: b\n")
                .doesNotContain("A.java:1");
        memories.close();
    }

    @Test
    void should_add_to_a_slot_and_the_pool_and_show_them_in_the_next_request() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool(SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"decision\", \"content\": \"Use PostgreSQL for orders\"}")
                .thenCallTool(SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"pool\", \"content\": \"staging runs on eu-west-1\"}")
                .thenAnswer("Noted.");
        WorkingMemoryProvider memories = provider();

        assistant(model, memories).chat("dev", "Orders go to PostgreSQL.");

        List<ChatRequest> requests = model.requests();
        assertThat(lastToolResult(requests.get(1))).isEqualTo("Added to 'decision' (1/5): 'Use PostgreSQL for orders'.");
        assertThat(lastToolResult(requests.get(2)))
                .isEqualTo("Added to the pool (1 item): 'staging runs on eu-west-1'. It fades unless it is mentioned again.");
        assertThat(systemText(requests.get(2))).contains("""
                <session>
                decisions (1/5):
                - Use PostgreSQL for orders
                pool (1):
                - staging runs on eu-west-1
                </session>""");
        memories.close();
    }

    @Test
    void should_say_which_item_a_full_slot_dropped_and_when_an_item_was_there_already() {
        WorkingMemoryProvider memories = provider();
        for (String todo : List.of("write tests", "update docs", "tag the release")) {
            call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"" + todo + "\"}");
        }

        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"deploy\"}"))
                .isEqualTo("Added to 'todo' (3/3): 'deploy'. Note: the slot was full, so its oldest item went: 'write tests'.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \" Todos \", \"content\": \"Update docs.\"}"))
                .isEqualTo("Already in 'todo'; moved it to the top (3/3): 'Update docs.'.");
        memories.close();
    }

    @Test
    void should_remove_by_text_and_clear_everything() {
        WorkingMemoryProvider memories = provider();
        call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"update the changelog\"}");
        call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"update the OpenAPI spec\"}");
        call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"error\", \"content\": \"NPE in Billing.close\"}");

        assertThat(call(memories, SlotTools.WORKING_MEMORY_REMOVE, "{\"content\": \"update the\"}"))
                .startsWith("Error: 'update the' is part of 2 items:")
                .endsWith("How to fix: Pass the text of one item as <session> shows it, or a part of it that only that item contains.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_REMOVE, "{\"content\": \"changelog\"}"))
                .isEqualTo("Removed todo: 'update the changelog'.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_REMOVE, "{\"content\": \"changelog\"}"))
                .startsWith("Error: No item matches 'changelog', so nothing was removed.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_CLEAR, "{}"))
                .isEqualTo("Removed 2 items; every slot and the pool are empty.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_CLEAR, "{}")).isEqualTo("The session was already empty.");
        assertThat(memories.memory("dev").render()).doesNotContain("<session>");
        memories.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"slot\": \"bugs\", \"content\": \"x\"}", "{\"slot\": \"\", \"content\": \"x\"}",
            "{\"content\": \"x\"}"})
    void should_list_the_valid_slots_for_a_missing_or_unknown_slot(String arguments) {
        WorkingMemoryProvider memories = provider();

        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, arguments)).startsWith("Error: ")
                .contains("error, decision, todo, dependency, pool");
        assertThat(memories.memory("dev").render()).isEmpty();
        memories.close();
    }

    @Test
    void should_reject_empty_oversized_and_object_content_without_changing_anything() {
        WorkingMemoryProvider memories = provider();

        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"  \"}"))
                .startsWith("Error: The content is empty, so there is nothing to add.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"" + "x".repeat(301) + "\"}"))
                .isEqualTo("Error: The content has 301 chars, over the item limit of 300. Nothing was changed."
                        + " How to fix: Shorten it to at most 300 chars: one line that says what to keep.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": {\"task\": \"x\"}}"))
                .startsWith("Error: The parameter 'content' must be text, but a JSON object was sent");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_CLEAR_SLOT, "{\"slot\": \"memory\"}"))
                .startsWith("Error: Unknown slot 'memory'. Valid slots: error, decision, todo, dependency, pool.");
        assertThat(call(memories, SlotTools.WORKING_MEMORY_REMOVE, "{\"content\": \"\"}"))
                .startsWith("Error: The parameter 'content' is empty.");
        assertThat(memories.memory("dev").render()).isEmpty();
        memories.close();
    }

    @Test
    void should_answer_with_an_error_when_the_memory_has_no_session_slots() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutSessionSlots().build();

        assertThat(call(memories, SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"todo\", \"content\": \"x\"}"))
                .startsWith("Error: This working memory has no session slots");
        memories.close();
    }

    @Test
    void should_have_saved_what_it_added_when_it_answers() {
        SessionSlotsConfig config = SessionSlotsConfig.defaults();
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .sessionSlots(config).build(); // default save delay, never flushed nor closed

        assertThat(new SlotTools(first).workingMemoryAdd("dev", "decision", "Keep /v1 until June")).startsWith("Added");

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .sessionSlots(config).build();
        assertThat(second.memory("dev").layer(SessionSlots.class).orElseThrow().items("decision"))
                .containsExactly("Keep /v1 until June");
        second.close();
    }
}
