package dev.workingmemory.samples.coding;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.PressureEvent;
import dev.workingmemory.samples.shared.ConversationPrinter;
import dev.workingmemory.samples.shared.ObservedChatModel;
import dev.workingmemory.samples.shared.ReplayScript;
import dev.workingmemory.samples.shared.RequestPlaceholders;
import dev.workingmemory.samples.shared.SampleSetup;
import dev.workingmemory.samples.shared.ScriptedModel;
import dev.workingmemory.samples.shared.TerminalChat;
import dev.workingmemory.tools.WorkingMemoryTools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A coding agent fixing a failing test of a small bundled project ({@code coding-project/}, copied to a temporary
 * directory), with the coding tier of the working memory: its 300-line test log reaches the model pruned with the
 * error kept, the error lands in {@code <session>}, the agent notes its decision there, and with a small context
 * window the pressure rises until the memory intervenes.
 *
 * <p>Without {@code OPENAI_API_KEY} it replays {@code coding-replay.json} through a scripted model that reads file
 * names, the faulty line and the result from what it is sent. With it (optionally {@code OPENAI_BASE_URL},
 * {@code OPENAI_MODEL}) a model works on the same project, one instruction per line of standard input.
 *
 * <pre>
 * mvn -q -pl samples -am test-compile exec:java -Dexec.mainClass=dev.workingmemory.samples.coding.CodingAgent
 * </pre>
 *
 * <p>Not thread-safe: one conversation at a time.
 */
public final class CodingAgent {

    /** The classpath resource holding the recorded run. */
    public static final String REPLAY_RESOURCE = "/coding-replay.json";
    /** The context window the sample sizes its memory for: small, so that the pressure shows within a few runs. */
    public static final int CONTEXT_WINDOW = 1_200;
    /** The memory id of the live conversation. */
    public static final String LIVE_MEMORY_ID = "coding-live";

    private CodingAgent() {
    }

    /** Runs the replay, or the live agent when {@code OPENAI_API_KEY} is set, on a fresh copy of the project. */
    public static void main(String[] args) throws IOException {
        Path project = Files.createTempDirectory("coding-project");
        String apiKey = System.getenv("OPENAI_API_KEY");
        if (apiKey != null && !apiKey.isBlank()) {
            ChatModel model = SampleSetup.openAiModel(apiKey, System.getenv("OPENAI_BASE_URL"), System.getenv("OPENAI_MODEL"));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            chat(in, System.out, model, project, System.console() == null);
        } else {
            replay(System.out, project);
        }
    }

    /**
     * Replays the recorded run on a copy of the bundled project in {@code projectDir}, printing it to {@code out}.
     *
     * @return the pressure interventions the memory made
     * @throws IllegalStateException when the scripted model does not find in its request what it needs
     */
    public static List<PressureEvent> replay(PrintStream out, Path projectDir) {
        ReplayScript script = ReplayScript.load(REPLAY_RESOURCE);
        ConversationPrinter printer = new ConversationPrinter(out);
        ProjectTools project = ProjectTools.copyBundledProject(projectDir);
        List<PressureEvent> interventions = new ArrayList<>();
        ScriptedModel model = new ScriptedModel(script.steps(), new RequestPlaceholders(), printer::resolved);
        printer.note("Replaying a recorded coding-agent run on a copy of the bundled project in " + project.root()
                + " (scripted model, context window " + CONTEXT_WINDOW + " tokens; set OPENAI_API_KEY to run it live).");
        try (WorkingMemoryProvider memories = provider(printer, interventions)) {
            CodingAssistant agent = agent(model, memories, project, printer);
            for (ReplayScript.Turn turn : script.turns()) {
                printer.user(turn.user());
                printer.assistant(agent.chat(script.memoryId(), turn.user()));
            }
        }
        if (model.remaining() != 0) {
            throw new IllegalStateException(model.remaining() + " recorded model answers were not used");
        }
        return interventions;
    }

    /** The live agent: one instruction per line of {@code in} until end of input or {@code exit}. */
    static void chat(BufferedReader in, PrintStream out, ChatModel model, Path projectDir, boolean echo) {
        ConversationPrinter printer = new ConversationPrinter(out);
        ProjectTools project = ProjectTools.copyBundledProject(projectDir);
        try (WorkingMemoryProvider memories = provider(printer, new ArrayList<>())) {
            CodingAssistant agent = agent(model, memories, project, printer);
            out.println("Coding agent on " + project.root() + ": its tests fail. Tell it what to do; 'exit' quits.");
            TerminalChat.run(in, out, printer, echo, "exit", line -> printer.assistant(agent.chat(LIVE_MEMORY_ID, line)));
        }
    }

    private static WorkingMemoryProvider provider(ConversationPrinter printer, List<PressureEvent> interventions) {
        return WorkingMemoryProvider.builder()
                .maxMessages(60)
                .contextWindow(CONTEXT_WINDOW)
                .pressureListener(event -> {
                    interventions.add(event);
                    printer.note("PRESSURE INTERVENTION #" + event.interventions() + ": the request had " + event.tokensBefore()
                            + " of " + event.contextWindow() + " tokens; " + event.outputsShortened()
                            + " older tool outputs replaced by a reference to their cached text, " + event.turnsEvicted()
                            + " turns evicted; now " + event.tokensAfter() + " tokens");
                })
                .build();
    }

    private static CodingAssistant agent(ChatModel model, WorkingMemoryProvider memories, ProjectTools project,
                                         ConversationPrinter printer) {
        List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
        tools.add(project);
        // without the memory's model listener: the demo's context window of 1,200 tokens shows pressure on the
        // messages alone, and the tools' specifications (the memory's own are about 2,000 tokens) would fill it
        return AiServices.builder(CodingAssistant.class)
                .chatModel(new ObservedChatModel(new PrunedResults(model, printer), printer))
                .chatMemoryProvider(memories)
                .tools(tools)
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
                .beforeToolExecution(before -> printer.toolCall(before.request()))
                .afterToolExecution(execution -> printer.toolResult(lineCount(execution.result()), execution.hasFailed()))
                .build();
    }

    private static String lineCount(String result) {
        long lines = result == null ? 0 : result.lines().count();
        return lines > 1 ? "(" + lines + " lines) " + result : result;
    }

    /** Shows how a pruned tool result reaches the model: its size and the lines kept from the cut part. */
    private record PrunedResults(ChatModel delegate, ConversationPrinter printer) implements ChatModel {

        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            if (!messages.isEmpty() && messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage result
                    && result.text().contains("[Pruned tool output")) {
                List<String> lines = result.text().lines().toList();
                printer.note("SENT TO THE MODEL (pruned, " + lines.size() + " lines):");
                lines.stream().filter(line -> line.contains("ERROR") || line.contains("Error") || line.contains("[Pruned"))
                        .forEach(line -> printer.note("    " + ConversationPrinter.shorten(line)));
            }
            return delegate.chat(request);
        }
    }
}
