package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.notes.NotesConfig;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The texts the memory puts into a request name only tools the model has: a model that calls a tool it was not given
 * makes {@code AiServices} abort the call. The assistant of the README's first example has the application's tools
 * only; its large results are pruned all the same, and older notes are left out of the block.
 */
class ToolsTheModelHasTest {

    private static final Pattern READ_CALL = Pattern.compile("read_tool_output\\(\"(tool-output-[^\"]+)\"\\)");

    static final class Build {
        @Tool("Runs the build and returns its log")
        public String build() {
            return IntStream.rangeClosed(1, 400).mapToObj(i -> "[INFO] compiling module-" + i + " ... ok")
                    .collect(Collectors.joining("\n"));
        }
    }

    /**
     * A model that does what the request tells it: it reads back a pruned log when the result names the call, searches
     * for a question when the notes say what finds them, and otherwise runs the build.
     */
    private static AiMessage follow(ChatRequest request) {
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        if (last instanceof ToolExecutionResultMessage result) {
            Matcher read = READ_CALL.matcher(result.text());
            if (read.find()) {
                return AiMessage.from(ScriptedChatModel.toolCall("read_tool_output",
                        "{\"id\": \"" + read.group(1) + "\", \"fromLine\": 390}"));
            }
            return AiMessage.from("Done: " + result.toolName() + ".");
        }
        boolean question = last instanceof UserMessage user && user.singleText().endsWith("?");
        if (question && ScriptedChatModel.systemText(request).contains("memory_search finds them")) {
            return AiMessage.from(ScriptedChatModel.toolCall("memory_search", "{\"query\": \"release plan\"}"));
        }
        return AiMessage.from(ScriptedChatModel.toolCall("build", "{}"));
    }

    private static ToolTesting.Assistant assistant(ScriptedChatModel model, WorkingMemoryProvider memories,
                                                   Object... tools) {
        return AiServices.builder(ToolTesting.Assistant.class).chatModel(model).chatMemoryProvider(memories)
                .tools(tools).build();
    }

    /** The system message the model was sent for {@code message}. */
    private static String told(ScriptedChatModel model, ToolTesting.Assistant assistant, String user, String message) {
        assistant.chat(user, message);
        return ScriptedChatModel.systemText(model.lastRequest());
    }

    private static WorkingMemoryProvider provider() {
        // a small notes budget: the older of the notes below are left out of the block
        return WorkingMemoryProvider.builder()
                .notes(NotesConfig.builder().budget(LayerBudget.of(0, 300)).build())
                .build();
    }

    private static void takeNotes(WorkingMemoryProvider memories, String user) {
        for (int i = 0; i < 8; i++) {
            memories.memory(user).notes().note("Release plan, step " + i + ": " + "check the staging deploy ".repeat(3),
                    null, null);
        }
    }

    /** What the model read in every request: the system message and the tool results. */
    private static String everythingRead(ScriptedChatModel model) {
        List<String> texts = new ArrayList<>();
        for (ChatRequest request : model.requests()) {
            for (ChatMessage message : request.messages()) {
                if (message instanceof SystemMessage system) {
                    texts.add(system.text());
                } else if (message instanceof ToolExecutionResultMessage result) {
                    texts.add(result.text());
                }
            }
        }
        return String.join("\n", texts);
    }

    @Test
    void should_name_none_of_its_tools_to_an_assistant_that_has_only_the_applications() {
        ScriptedChatModel model = ScriptedChatModel.answering(ToolsTheModelHasTest::follow);
        try (WorkingMemoryProvider memories = provider()) {
            takeNotes(memories, "ann");
            ToolTesting.Assistant assistant = assistant(model, memories, new Build());

            // before, the model followed "read_tool_output(...) reads it" and AiServices threw for the unknown tool
            assertThat(assistant.chat("ann", "Run the build please")).isEqualTo("Done: build.");

            String read = everythingRead(model);
            assertThat(read).contains("[Pruned tool output: 400 lines", "older notes not shown)")
                    .doesNotContain("read_tool_output", "memory_search");
        }
    }

    @Test
    void should_name_them_to_an_assistant_that_has_them() {
        for (boolean listening : new boolean[] {true, false}) {
            ScriptedChatModel model = ScriptedChatModel.answering(ToolsTheModelHasTest::follow);
            try (WorkingMemoryProvider memories = provider()) {
                if (listening) {
                    model.listeners(memories.chatModelListener());
                }
                takeNotes(memories, "ann");
                List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
                tools.add(new Build());
                ToolTesting.Assistant assistant = assistant(model, memories, tools.toArray());

                assistant.chat("ann", "Run the build please");
                assistant.chat("ann", "And what was the release plan?");

                // the listener's requests, or without it the tools made for the provider, say the model has them
                List<String> calls = model.requests().stream().map(r -> r.messages().get(r.messages().size() - 1))
                        .filter(ToolExecutionResultMessage.class::isInstance)
                        .map(m -> ((ToolExecutionResultMessage) m).toolName()).toList();
                assertThat(calls).as("listening: %s", listening)
                        .containsExactly("build", "read_tool_output", "memory_search");
                assertThat(model.requests().get(2).messages().get(model.requests().get(2).messages().size() - 1))
                        .isInstanceOfSatisfying(ToolExecutionResultMessage.class, result ->
                                assertThat(result.text()).contains("compiling module-400"));
            }
        }
    }

    /**
     * The memory's tools were made for the provider (as the Spring Boot starter makes them for every AI service), but
     * this assistant was not given them: once the model listener saw its request, what it was given is what counts.
     */
    @Test
    void should_follow_what_the_model_listener_saw_offered() {
        ScriptedChatModel model = ScriptedChatModel.answering(ToolsTheModelHasTest::follow);
        try (WorkingMemoryProvider memories = provider()) {
            model.listeners(memories.chatModelListener());
            WorkingMemoryTools.all(memories); // registers their names: without the listener, they would be named
            takeNotes(memories, "ann");
            ToolTesting.Assistant assistant = assistant(model, memories, new Build());
            assistant.chat("ann", "Hello"); // the listener sees the tools of a request of this memory

            assertThat(assistant.chat("ann", "Run the build please")).isEqualTo("Done: build.");
            assertThat(assistant.chat("ann", "What was the release plan?")).isEqualTo("Done: build.");

            String lastTurn = everythingRead(model);
            assertThat(lastTurn.substring(lastTurn.lastIndexOf("[Pruned tool output: 400 lines")))
                    .doesNotContain("read_tool_output");
            assertThat(ScriptedChatModel.systemText(model.lastRequest())).contains("older notes not shown)")
                    .doesNotContain("memory_search");
        }
    }

    /**
     * A conversation the listener has not seen yet is named the tools that every request it saw carried: all of the
     * memory's in an application whose agents all have them; none once an agent without them was seen (before the
     * listener saw any request, the tools made for the provider).
     */
    @Test
    void should_name_to_a_new_conversation_what_every_conversation_seen_had() {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Hi."));
        try (WorkingMemoryProvider memories = provider()) {
            model.listeners(memories.chatModelListener());
            List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
            tools.add(new Build());
            ToolTesting.Assistant withMemoryTools = assistant(model, memories, tools.toArray());
            ToolTesting.Assistant plain = assistant(model, memories, new Build());
            for (String user : List.of("ann", "bob", "cy", "dan")) {
                takeNotes(memories, user);
            }

            assertThat(told(model, withMemoryTools, "ann", "Hello")).as("nothing seen yet")
                    .contains("memory_search finds them");
            assertThat(told(model, withMemoryTools, "bob", "Hello")).as("bob's first request")
                    .contains("memory_search finds them");
            plain.chat("cy", "Hello");
            assertThat(told(model, plain, "cy", "Hello again")).as("cy, seen without the memory's tools")
                    .contains("older notes not shown)").doesNotContain("memory_search");
            assertThat(told(model, withMemoryTools, "dan", "Hello")).as("dan's first request, after cy's")
                    .doesNotContain("memory_search");
            assertThat(told(model, withMemoryTools, "ann", "Hello again")).as("ann, seen with them")
                    .contains("memory_search finds them");
        }
    }
}
