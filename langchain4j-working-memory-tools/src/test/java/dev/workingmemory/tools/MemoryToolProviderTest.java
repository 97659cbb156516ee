package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link WorkingMemoryTools#toolProvider}: the memory's tools through {@code AiServices}, a tier's once it acts. */
class MemoryToolProviderTest {

    private static final Set<String> SLOT_TOOLS = Set.of(SlotTools.WORKING_MEMORY_ADD, SlotTools.WORKING_MEMORY_CLEAR,
            SlotTools.WORKING_MEMORY_CLEAR_SLOT, SlotTools.WORKING_MEMORY_REMOVE);

    /** A support desk's tool: a JSON reply, nothing a coding agent would see. */
    public static final class Orders {
        @Tool(name = "lookupOrder", value = "Looks an order up")
        public String lookupOrder(@P(name = "id", value = "the order id") String id) {
            return "{\"order\":{\"id\":\"" + id + "\",\"status\":\"shipped\",\"total\":129.0}}";
        }
    }

    /** A coding agent's shell: a compiler error, then a green build. */
    public static final class Shell {
        private int runs;

        @Tool(name = "bash", value = "Runs a shell command")
        public synchronized String bash(@P(name = "command", value = "the command") String command) {
            return runs++ == 0 ? "src/main/java/App.java:42: error: cannot find symbol\n  symbol:   variable userRepo\n"
                    + "1 error" : "BUILD SUCCESS";
        }
    }

    private static ToolTesting.Assistant assistant(ScriptedChatModel model, WorkingMemoryProvider memories, Object tools) {
        return AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(tools)
                .toolProvider(WorkingMemoryTools.toolProvider(memories))
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
                .build();
    }

    private static Set<String> toolsOf(ChatRequest request) {
        List<ToolSpecification> tools = request.toolSpecifications();
        return tools == null ? Set.of() : tools.stream().map(ToolSpecification::name).collect(Collectors.toSet());
    }

    @Test
    void should_offer_an_assistant_that_does_not_code_the_memorys_tools_without_the_session_slots() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("lookupOrder", "{\"id\": \"ORD-1002\"}")
                .thenAnswer("It has shipped.")
                .thenCallTool(WorkingMemoryTools.CORE_MEMORY_UPDATE,
                        "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"Track ORD-1002\"}")
                .thenAnswer("Noted.");
        ToolTesting.Assistant assistant = assistant(model, memories, new Orders());

        assistant.chat("dana", "Where is my order ORD-1002?");
        assistant.chat("dana", "Keep an eye on it for me");

        assertThat(model.requests()).hasSize(4).allSatisfy(request -> assertThat(toolsOf(request))
                .contains("lookupOrder", WorkingMemoryTools.CORE_MEMORY_UPDATE, WorkingMemoryTools.CORE_MEMORY_READ,
                        "memory_search", "working_memory_note", "read_tool_output", "working_memory_stats")
                .doesNotContainAnyElementsOf(SLOT_TOOLS));
        // the memory's tools run for the caller's memory through the provider
        assertThat(memories.memory("dana").coreMemory().read("goal").content()).isEqualTo("Track ORD-1002");
        memories.close();
    }

    @Test
    void should_offer_a_coding_agent_the_session_tools_from_the_call_after_its_first_compiler_output() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"javac App.java\"}")
                .thenCallTool(SlotTools.WORKING_MEMORY_ADD, "{\"slot\": \"decision\", \"content\": \"inject UserRepo\"}")
                .thenAnswer("I will inject the repository.");
        ToolTesting.Assistant assistant = assistant(model, memories, new Shell());

        assistant.chat("dev", "Build the project");

        List<ChatRequest> requests = model.requests();
        assertThat(toolsOf(requests.get(0))).contains("bash").doesNotContainAnyElementsOf(SLOT_TOOLS);
        assertThat(toolsOf(requests.get(1))).containsAll(SLOT_TOOLS);
        assertThat(memories.memory("dev").sessionSlots().items("decision")).containsExactly("inject UserRepo");
        assertThat(memories.memory("dev").sessionSlots().items("error"))
                .containsExactly("App.java:42: cannot find symbol (symbol: variable userRepo)");

        // another user of the same agent has no session acting: no session tools
        model.thenAnswer("Hello!");
        assistant.chat("erin", "Hi there");
        assertThat(toolsOf(model.lastRequest())).doesNotContainAnyElementsOf(SLOT_TOOLS);
        memories.close();
    }

    @Test
    void should_offer_the_session_tools_from_the_start_to_a_declared_coding_agent() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().codingAgent(true).build();
        ScriptedChatModel model = ScriptedChatModel.script().thenAnswer("Ready.");

        assistant(model, memories, new Shell()).chat("dev", "Hello");

        assertThat(toolsOf(model.requests().get(0))).containsAll(SLOT_TOOLS);
        memories.close();
    }

    /**
     * A memory evicted while its tools are chosen (other users' requests load theirs into a full cache) still gets
     * its own: the choice once read the evicted memory's layers, which refuse use, and the model call failed with that.
     */
    @Test
    void should_offer_the_tools_of_a_memory_evicted_while_they_are_chosen() throws Exception {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxCachedMemories(1).build();
        ToolProvider tools = WorkingMemoryTools.toolProvider(memories);
        ExecutorService others = Executors.newSingleThreadExecutor();
        try {
            int rounds = 3_000;
            Future<?> evicting = others.submit(() -> {
                for (int i = 0; i < rounds; i++) {
                    memories.memory("other-" + i % 2);
                }
            });
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                try {
                    Set<String> names = tools.provideTools(new ToolProviderRequest("dana", UserMessage.from("Hi")))
                            .tools().keySet().stream().map(ToolSpecification::name).collect(Collectors.toSet());
                    if (names.stream().anyMatch(SLOT_TOOLS::contains)) {
                        wrong.add("round " + i + ": the session tools of an assistant that does not code");
                    }
                } catch (RuntimeException e) {
                    wrong.add("round " + i + ": " + e);
                }
            }
            evicting.get(60, TimeUnit.SECONDS);

            assertThat(wrong).isEmpty();
        } finally {
            others.shutdownNow();
            memories.close();
        }
    }
}
