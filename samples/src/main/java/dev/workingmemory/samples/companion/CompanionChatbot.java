package dev.workingmemory.samples.companion;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.dream.DreamConfig;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.samples.shared.ConversationPrinter;
import dev.workingmemory.samples.shared.ObservedChatModel;
import dev.workingmemory.samples.shared.ReplayScript;
import dev.workingmemory.samples.shared.RequestPlaceholders;
import dev.workingmemory.samples.shared.SampleSetup;
import dev.workingmemory.samples.shared.ScriptedModel;
import dev.workingmemory.samples.shared.TerminalChat;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.tools.WorkingMemoryTools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A companion that remembers its user across sessions days apart: it notes what the user shares
 * ({@code working_memory_note}), dreams between sessions (the notes become the {@code <state>} document,
 * {@code MEMORY.md} in the store), and follows the state's crystal pointers with {@code memory_search} when the user
 * comes back to an old topic.
 *
 * <p>Without {@code OPENAI_API_KEY} it replays {@code companion-replay.json}: three sessions over two weeks (the
 * provider's clock moves), the provider restarted on its {@link FileWorkingMemoryStore} and dreaming offline between
 * them, through a scripted model that reads every name, date and keyword it says from the block and the tool
 * results it is sent. With {@code OPENAI_API_KEY} (optionally {@code OPENAI_BASE_URL}, {@code OPENAI_MODEL}) it
 * chats on the terminal, dreams with the same model, and knows {@code /dream}, {@code /state},
 * {@code /search …} and {@code /quit}.
 *
 * <pre>
 * mvn -q -pl samples -am compile exec:java -Dexec.mainClass=dev.workingmemory.samples.companion.CompanionChatbot
 * </pre>
 *
 * <p>Not thread-safe: one conversation at a time.
 */
public final class CompanionChatbot {

    /** The classpath resource holding the recorded sessions. */
    public static final String REPLAY_RESOURCE = "/companion-replay.json";
    /** The model used in live mode when {@code OPENAI_MODEL} is not set. */
    public static final String DEFAULT_MODEL = SampleSetup.DEFAULT_MODEL;
    /** Where live mode keeps its memory unless {@code --dir} says otherwise. */
    public static final Path DEFAULT_LIVE_DIR = Path.of("companion-memory");
    /** The state document's file name in a resource directory. */
    static final String MEMORY_FILE = "MEMORY.md";
    /** What a resource directory holds that a person may want to open. */
    private static final String FILES = MEMORY_FILE + ": the state document, scratch.md: the notes not dreamt yet";
    /** The user and thread of the live chat. */
    public static final MemoryKey LIVE_KEY = MemoryKey.of("me", "terminal");

    private static final int MAX_MESSAGES = 20;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEEE d MMMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private CompanionChatbot() {
    }

    /**
     * Runs the replay, or the live chat when {@code OPENAI_API_KEY} is set.
     *
     * @param args {@code [--dir DIR]}: where the memory is kept (replay: an empty or missing directory, default a
     *             new temporary one; live: default {@code ./companion-memory})
     */
    public static void main(String[] args) {
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--dir") && i + 1 < args.length) {
                dir = Path.of(args[++i]);
            } else {
                System.err.println("Unknown argument '" + args[i] + "'. Usage: CompanionChatbot [--dir DIR]");
                return;
            }
        }
        String apiKey = System.getenv("OPENAI_API_KEY");
        if (apiKey != null && !apiKey.isBlank()) {
            ChatModel model = SampleSetup.openAiModel(apiKey, System.getenv("OPENAI_BASE_URL"), System.getenv("OPENAI_MODEL"));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            chat(in, System.out, model, dir == null ? DEFAULT_LIVE_DIR : dir, System.console() == null);
            return;
        }
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("companion-memory");
            } else if (!SampleSetup.isEmptyOrMissing(dir)) {
                System.err.println("The replay starts a new memory, so --dir needs an empty or missing directory; "
                        + dir + " is not empty.");
                return;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        replay(System.out, dir);
    }

    /**
     * Replays the recorded sessions with the memory kept under {@code dir}, printing them to {@code out}: each turn,
     * tool call and result, the block when it changed, and after each dream the state document and the report.
     *
     * @return the reports of the dreams between the sessions, in order
     * @throws IllegalStateException when the scripted model does not find in its request what it needs to answer,
     *                               i.e. when the memory did not keep it
     */
    public static List<DreamReport> replay(PrintStream out, Path dir) {
        CompanionScript script = CompanionScript.load(REPLAY_RESOURCE);
        ConversationPrinter printer = new ConversationPrinter(out);
        MovingClock clock = new MovingClock(script.sessions().get(0).at());
        List<DreamReport> dreams = new ArrayList<>();
        MemoryKey user = MemoryKey.of(script.resource());
        printer.note("Replaying " + script.sessions().size() + " recorded sessions with " + script.resource()
                + " (scripted model; set OPENAI_API_KEY to chat live). Memory kept under " + dir.toAbsolutePath());
        printer.note(script.resource() + "'s directory (" + FILES + "): " + resourceDirectory(dir, user));
        for (int s = 0; s < script.sessions().size(); s++) {
            CompanionScript.Session session = script.sessions().get(s);
            MemoryKey key = MemoryKey.of(script.resource(), session.script().memoryId());
            if (s > 0) {
                // That night, a new process: the provider comes back from its files and dreams.
                clock.advance(Duration.ofHours(3));
                printer.note("");
                printer.note("=== " + DAY.format(clock.instant()) + ": the provider restarts on its files and dreams ===");
                try (WorkingMemoryProvider memories = provider(dir, clock, null)) {
                    DreamReport report = memories.dream(key);
                    dreams.add(report);
                    printDream(printer, report, memories.dreamState(key).orElse(""));
                }
            }
            clock.set(session.at());
            printer.note("");
            printer.note("=== Session " + (s + 1) + ": " + DAY.format(session.at()) + " (thread " + key.thread() + ") ===");
            ScriptedModel model = new ScriptedModel(session.script().steps(), new RequestPlaceholders(), printer::resolved);
            try (WorkingMemoryProvider memories = provider(dir, clock, null)) {
                CompanionAssistant assistant = assistant(new ObservedChatModel(model, printer, memories.chatModelListener()), memories, printer);
                for (ReplayScript.Turn turn : session.script().turns()) {
                    clock.advance(Duration.ofMinutes(1));
                    printer.user(turn.user());
                    printer.assistant(assistant.chat(key, turn.user()));
                }
            }
            if (model.remaining() != 0) {
                throw new IllegalStateException(model.remaining() + " recorded model answers of session " + (s + 1)
                        + " were not used");
            }
        }
        printer.note("");
        Path memoryFile = resourceDirectory(dir, user).resolve(MEMORY_FILE);
        printer.note("The memory is kept under " + dir.toAbsolutePath() + "; the state document is "
                + (Files.exists(memoryFile) ? memoryFile : MEMORY_FILE + " (not written)"));
        return dreams;
    }

    /**
     * Chats with {@code model} on the memory kept under {@code dir}, one line of {@code in} per message, until end
     * of input or {@code /quit}. {@code /dream}, {@code /state} and {@code /search …} act on the memory directly.
     */
    static void chat(BufferedReader in, PrintStream out, ChatModel model, Path dir, boolean echo) {
        ConversationPrinter printer = new ConversationPrinter(out);
        try (WorkingMemoryProvider memories = provider(dir, Clock.systemUTC(), model)) {
            CompanionAssistant assistant = assistant(new ObservedChatModel(model, printer, memories.chatModelListener()), memories, printer);
            out.println("Companion: tell it about yourself. Commands: /dream, /state, /search <words>, /quit.");
            out.println("Memory kept under " + dir.toAbsolutePath() + "; yours is in "
                    + resourceDirectory(dir, memories.keyOf(LIVE_KEY))
                    + " (" + FILES + ").");
            TerminalChat.run(in, out, printer, echo, "/quit", line -> {
                if (!command(line, memories, printer)) {
                    printer.assistant(assistant.chat(LIVE_KEY, line));
                }
            });
        }
    }

    /** Runs {@code line} if it is a command; false when it is a message for the model. */
    private static boolean command(String line, WorkingMemoryProvider memories, ConversationPrinter printer) {
        if (line.equals("/dream")) {
            DreamReport report = memories.dream(LIVE_KEY);
            printDream(printer, report, memories.dreamState(LIVE_KEY).orElse(""));
        } else if (line.equals("/state")) {
            printer.note(memories.dreamState(LIVE_KEY)
                    .orElse("(no state yet: /dream writes the first one from your notes)"));
        } else if (line.startsWith("/search")) {
            String query = line.substring("/search".length()).strip();
            if (query.isEmpty()) {
                printer.note("Usage: /search <words>");
                return true;
            }
            List<MemoryHit> hits = memories.memory(LIVE_KEY).search(query, 5);
            if (hits.isEmpty()) {
                printer.note("(nothing found)");
            }
            hits.forEach(hit -> printer.note(String.format(Locale.ROOT, "- %s (%s, %.2f) %s", hit.time(),
                    hit.kind().name().toLowerCase(Locale.ROOT), hit.score(), hit.text())));
        } else if (line.startsWith("/")) {
            printer.note("Unknown command. Commands: /dream, /state, /search <words>, /quit.");
        } else {
            return false;
        }
        return true;
    }

    /**
     * The directory of {@code key}'s resource in the file store under {@code dir}: where its {@code MEMORY.md} and
     * {@code scratch.md} are (it exists once something was noted).
     */
    static Path resourceDirectory(Path dir, MemoryKey key) {
        return new FileWorkingMemoryStore(dir).resourceDirectory(key);
    }

    private static void printDream(ConversationPrinter printer, DreamReport report, String state) {
        printer.note("DREAM REPORT:");
        report.summary().lines().forEach(line -> printer.note("  " + line));
        printer.note("STATE DOCUMENT (MEMORY.md):");
        (state.isEmpty() ? "(none)" : state).lines().forEach(line -> printer.note("    " + line));
    }

    private static CompanionAssistant assistant(ChatModel model, WorkingMemoryProvider memories,
                                                ConversationPrinter printer) {
        return AiServices.builder(CompanionAssistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .toolProvider(WorkingMemoryTools.toolProvider(memories)) // a chat: no session tools
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
                .hallucinatedToolNameStrategy(request -> ToolExecutionResultMessage.from(request,
                        "Error: there is no tool named '" + request.name() + "'."))
                .beforeToolExecution(before -> printer.toolCall(before.request()))
                .afterToolExecution(execution -> printer.toolResult(execution.result(), execution.hasFailed()))
                .build();
    }

    static WorkingMemoryProvider provider(Path dir, Clock clock, ChatModel dreamModel) {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir))
                .clock(clock)
                .maxMessages(MAX_MESSAGES)
                // dreams run when the sample says so (between sessions, /dream), not on a schedule
                .dreams(DreamConfig.builder().scheduled(false).build());
        if (dreamModel != null) {
            builder.dreamModel(dreamModel);
        }
        return builder.build();
    }


}
