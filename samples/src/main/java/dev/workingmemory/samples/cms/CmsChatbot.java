package dev.workingmemory.samples.cms;

import dev.workingmemory.samples.shared.ConversationPrinter;
import dev.workingmemory.samples.shared.ObservedChatModel;
import dev.workingmemory.samples.shared.ReplayScript;
import dev.workingmemory.samples.shared.SampleSetup;
import dev.workingmemory.samples.shared.ScriptedModel;
import dev.workingmemory.samples.shared.TerminalChat;
import dev.workingmemory.samples.shared.WorkingMemoryBlock;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.FileWorkingMemoryStore;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A CMS chatbot with a working memory: the story of the entity tracking seed, "create a page called About Us …
 * now add a hero section to it".
 *
 * <p>Without {@code OPENAI_API_KEY} it replays a recorded conversation ({@code cms-replay.json}) through a
 * scripted {@link ChatModel}. The tool calls really run against {@link CmsTools} through {@code AiServices},
 * and the scripted model takes every id it uses from the {@code <working_memory>} block of the request it
 * answers, never from the script. With {@code OPENAI_API_KEY} it chats live with an OpenAI model
 * ({@code OPENAI_MODEL}, default {@value #DEFAULT_MODEL}) or with any OpenAI-compatible server at
 * {@code OPENAI_BASE_URL}, reading user lines from standard input until end of input or {@code exit}.
 *
 * <p>Either way it prints each user turn, each tool call and result, each answer, and the block whenever it
 * changed. Option {@code --store DIR} keeps the working memory in a {@link FileWorkingMemoryStore} under
 * {@code DIR} (the CMS itself and the messages stay in memory).
 *
 * <pre>
 * mvn -q -pl samples -am compile exec:java
 * OPENAI_API_KEY=sk-… mvn -q -pl samples -am compile exec:java -Dexec.args="--store /tmp/cms-memory"
 * </pre>
 *
 * <p>Not thread-safe: one conversation at a time.
 */
public final class CmsChatbot {

    /** The classpath resource holding the recorded conversation. */
    public static final String REPLAY_RESOURCE = "/cms-replay.json";
    /** The model used in live mode when {@code OPENAI_MODEL} is not set. */
    public static final String DEFAULT_MODEL = SampleSetup.DEFAULT_MODEL;
    /** The memory id of the live conversation. */
    public static final String LIVE_MEMORY_ID = "live-user";

    private static final int MAX_MESSAGES = 20;

    private CmsChatbot() {
    }

    /**
     * Runs the replay, or the live chat when {@code OPENAI_API_KEY} is set.
     *
     * @param args {@code [--store DIR]}
     */
    public static void main(String[] args) {
        Path storeDir = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--store") && i + 1 < args.length) {
                storeDir = Path.of(args[++i]);
            } else {
                System.err.println("Unknown argument '" + args[i] + "'. Usage: CmsChatbot [--store DIR]");
                return;
            }
        }
        String apiKey = System.getenv("OPENAI_API_KEY");
        boolean live = apiKey != null && !apiKey.isBlank();
        if (!live && storeDir != null && !SampleSetup.isEmptyOrMissing(storeDir)) {
            System.err.println("The replay starts a new CMS from scratch, so --store needs an empty or missing directory; "
                    + storeDir + " is not empty.");
            return;
        }
        try (WorkingMemoryProvider memories = provider(storeDir)) {
            if (storeDir != null) {
                System.out.println("Working memory stored under " + storeDir.toAbsolutePath());
            }
            if (live) {
                ChatModel model = SampleSetup.openAiModel(apiKey, System.getenv("OPENAI_BASE_URL"), System.getenv("OPENAI_MODEL"));
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                chat(in, System.out, model, memories, LIVE_MEMORY_ID, System.console() == null);
            } else {
                replay(System.out, memories);
            }
        }
    }

    /**
     * Replays the recorded conversation with an in-memory working memory of {@value #MAX_MESSAGES} messages,
     * printing it to {@code out}.
     *
     * @return the CMS as the conversation left it
     */
    public static CmsTools replay(PrintStream out) {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(MAX_MESSAGES).build()) {
            return replay(out, memories);
        }
    }

    /**
     * Replays the recorded conversation with the given working memory, printing it to {@code out}. The
     * conversation's memory id is the script's ({@code replay-user}).
     *
     * @return the CMS as the conversation left it
     * @throws IllegalStateException when the scripted model cannot find an entity it needs in the block it is
     *                               sent, i.e. when the working memory did not track it
     */
    public static CmsTools replay(PrintStream out, WorkingMemoryProvider memories) {
        ReplayScript script = ReplayScript.load(REPLAY_RESOURCE);
        ConversationPrinter printer = new ConversationPrinter(out);
        CmsTools cms = new CmsTools();
        ScriptedModel model = new ScriptedModel(script.steps(), (template, request, onResolved) -> WorkingMemoryBlock.resolve(
                template, WorkingMemoryBlock.of(WorkingMemoryBlock.systemText(request)), onResolved), printer::resolved);
        CmsAssistant assistant = assistant(new ObservedChatModel(model, printer, memories.chatModelListener()), memories, cms, printer, false);
        printer.note("Replaying a recorded CMS conversation (" + script.turns().size()
                + " turns, scripted model; set OPENAI_API_KEY to chat live).");
        for (ReplayScript.Turn turn : script.turns()) {
            printer.user(turn.user());
            printer.assistant(assistant.chat(script.memoryId(), turn.user()));
        }
        if (model.remaining() != 0) {
            throw new IllegalStateException(model.remaining() + " recorded model answers were not used");
        }
        printer.note("");
        printer.note("The CMS now holds:");
        for (CmsTools.Page page : cms.pages()) {
            printer.note("  " + page.id() + " \"" + page.title() + "\" /" + page.slug());
            for (CmsTools.Section section : page.sections()) {
                printer.note("    " + section.id() + " " + section.kind() + " \"" + section.heading() + "\""
                        + (section.imageId() == null ? "" : " image " + section.imageId()));
            }
        }
        return cms;
    }

    /**
     * Chats with {@code model}: one user message per line of {@code in} until end of input or {@code exit}.
     * A failing turn (network, model) is printed and the chat goes on; tool errors go back to the model.
     */
    static void chat(BufferedReader in, PrintStream out, ChatModel model, WorkingMemoryProvider memories,
                     String memoryId, boolean echo) {
        ConversationPrinter printer = new ConversationPrinter(out);
        CmsAssistant assistant = assistant(new ObservedChatModel(model, printer, memories.chatModelListener()), memories, new CmsTools(), printer, true);
        out.println("CMS chatbot: ask it to create pages, add sections, find images. Type 'exit' to quit.");
        TerminalChat.run(in, out, printer, echo, "exit", line -> printer.assistant(assistant.chat(memoryId, line)));
    }

    private static CmsAssistant assistant(ChatModel model, WorkingMemoryProvider memories, CmsTools cms,
                                          ConversationPrinter printer, boolean forgiving) {
        AiServices<CmsAssistant> services = AiServices.builder(CmsAssistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(cms)
                .beforeToolExecution(before -> printer.toolCall(before.request()))
                .afterToolExecution(execution -> printer.toolResult(execution.result(), execution.hasFailed()));
        if (forgiving) {
            // A live model may name a tool that does not exist or send bad arguments: tell it, do not abort.
            services.hallucinatedToolNameStrategy(request -> ToolExecutionResultMessage.from(request,
                            CmsTools.error("There is no tool named '" + request.name() + "'. Use one of the cms_ tools.")))
                    .toolArgumentsErrorHandler((error, context) -> ToolErrorHandlerResult.text(
                            CmsTools.error("Bad arguments for " + context.toolExecutionRequest().name() + ": " + error.getMessage())))
                    .toolExecutionErrorHandler((error, context) -> ToolErrorHandlerResult.text(
                            CmsTools.error(context.toolExecutionRequest().name() + " failed: " + error.getMessage())));
        }
        return services.build();
    }

    private static WorkingMemoryProvider provider(Path storeDir) {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().maxMessages(MAX_MESSAGES);
        if (storeDir != null) {
            builder.store(new FileWorkingMemoryStore(storeDir));
        }
        return builder.build();
    }


}
