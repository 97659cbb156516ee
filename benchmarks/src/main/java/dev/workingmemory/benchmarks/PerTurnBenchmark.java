package dev.workingmemory.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.FileWorkingMemoryStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What one agent turn costs the chat memory: a user message, the model's tool call, the tool result and the
 * model's answer, each {@code add}ed and followed by {@code messages()} (what {@code AiServices} reads before a
 * model call). One operation is one whole turn.
 *
 * <p>{@code workingChatMemory}: the {@link dev.workingmemory.WorkingChatMemory} of a
 * {@link WorkingMemoryProvider} built with {@code maxMessages(20)} and otherwise defaults (entity tracking, core
 * memory, text scratchpad, in-memory stores, a block of 6,000 characters), holding a full state (see
 * {@link Fixtures#fill}). {@code messageWindowChatMemory}: LangChain4j's {@link MessageWindowChatMemory}, the memory
 * it replaces. Both keep one system message, added once at setup, and a window of 20 other messages (LangChain4j counts the
 * system message in {@code maxMessages}, so it is built with 21; the working memory evicts whole turns, so it holds
 * 17 to 20), and both are in steady state: the window is
 * full before measuring. Both get the very same message objects.
 *
 * <p>{@code scenario}:
 * <ul>
 *   <li>{@code unchanged}: the tool re-fetches the page that is already the most recent entity. The result is
 *       parsed and its entity extracted, but nothing changes, so the block is served from the render cache;</li>
 *   <li>{@code changed}: every turn's tool result names a page never seen before, so the entity layer changes and
 *       the block and the system message are rendered again; the state is saved behind the turn (the provider's
 *       default {@code saveDelay} of one second coalesces the changes of many turns into one save on its saver
 *       thread);</li>
 *   <li>{@code changedSavedNow}: like {@code changed}, with {@code saveDelay(Duration.ZERO)}: every change is also
 *       serialized and saved to the store within the turn;</li>
 *   <li>{@code unchangedText}: like {@code unchanged}, but the tool returns a line of plain text, which the
 *       extractor skips without parsing: the memory's own cost apart from parsing the result;</li>
 *   <li>{@code toolWrite}: like {@code unchanged}, and the tool also replaces the goal block (as
 *       {@code core_memory_update} does): a durable write, serialized and saved to the in-memory store before the
 *       tool returns, and a new block;</li>
 *   <li>{@code chat}: a plain chat turn, no tool: the user's message and the model's answer (two {@code add}s, two
 *       {@code messages()}). Its fair peer is {@link MessageWindowChatMemory} alone: there is no result to read.</li>
 * </ul>
 *
 * <p>{@code messageWindowChatMemoryAndReadTree} is the fair peer of a turn with a JSON tool result (issue 9): the
 * same turn through {@link MessageWindowChatMemory} plus Jackson's {@code readTree} of the result, what an
 * application would otherwise write to learn what the tool returned.
 *
 * <p>{@code jacksonParseOfResult} is neither memory: it only runs Jackson's streaming parser over the turn's tool
 * result, token by token, building nothing. It is the least any extractor that reads the result with Jackson pays,
 * measured in the same run as the two memories. {@code systemMessageWithBlock} only builds a new
 * {@code SystemMessage} of the system prompt with the full state's block appended (about 6,200 characters): what any
 * memory that puts its state into the system message pays once for every change of that state.</p>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PerTurnBenchmark {

    private static final int RESULTS = 1024; // a power of two, far more than the 10 entities kept
    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Param({"chat", "unchanged", "changed", "changedSavedNow", "unchangedText", "toolWrite"})
    public String scenario;

    /**
     * {@code none}: the provider {@code withoutCrystals()} (what every table of this class measured before long-term
     * memory); {@code pastTurns}: past turns become crystals as they leave the window, into a
     * {@link CountingCrystalStore}, so the turn pays for making them and not for the embedding a real store runs on its
     * indexer thread. The default store's embedding is measured by {@code CrystalIndexingThroughput}.
     */
    @Param({"none"})
    public String longTerm;

    /**
     * {@code defaults}: every layer the provider has by default; {@code hardening}: without session slots, context
     * pressure and salience, the layers the hardening issue's goals were measured with (entities, core memory,
     * scratchpad, notes), so that those figures can be measured again; {@code withoutPressure},
     * {@code withoutSalience}, {@code withoutSessionSlots}: the defaults without that one layer, to tell what it costs
     * an ordinary turn.
     */
    @Param({"defaults"})
    public String layers;

    /**
     * Where the conversation is kept: {@code memory}, the in-memory store's message log (the default provider);
     * {@code file}, a {@link FileWorkingMemoryStore} in a temporary directory, where each message is appended and
     * forced to disk before {@code add} returns.
     */
    @Param({"memory"})
    public String store;
    private Path storeDirectory;

    private CountingCrystalStore crystals;
    private WorkingMemoryProvider provider;
    private ChatMemory working;
    private ChatMemory baseline;

    private UserMessage user;
    private AiMessage toolCall;
    private ToolExecutionResultMessage[] results;
    private AiMessage answer;
    private UserMessage chatUser;
    private AiMessage chatAnswer;
    private int turn;
    /** Trees read without a Blackhole ({@link PerTurnCost}). */
    int trees;
    private String block;
    /** Two goals the toolWrite scenario alternates between, each as long as the full state's goal. */
    private String[] goals;

    @Setup(Level.Trial)
    public void setUp() {
        ToolExecutionRequest request = Fixtures.request(0);
        user = UserMessage.from("Make the headline of that page shorter and tell me what it says now.");
        toolCall = Fixtures.toolCall(request);
        answer = AiMessage.from("Done: the headline of \"Home\" now reads \"Build pages in minutes\".");
        chatUser = UserMessage.from("We finally went hiking last weekend and the view from the ridge was amazing. "
                + "Have you ever been up there?");
        chatAnswer = AiMessage.from("That sounds wonderful! I haven't, but I'd love to hear more. How long did the"
                + " climb take, and would you go again?");
        results = new ToolExecutionResultMessage[RESULTS];
        for (int i = 0; i < RESULTS; i++) {
            String text = switch (scenario) {
                case "unchanged", "toolWrite" -> Fixtures.pageResult(0);
                case "changed", "changedSavedNow" -> Fixtures.pageResult(i + 1);
                case "unchangedText" -> "Saved page-0: the headline now reads \"Build pages in minutes\".";
                case "chat" -> null; // no tool call
                default -> throw new IllegalArgumentException(scenario);
            };
            results[i] = text == null ? null : Fixtures.toolResult(request, text);
        }

        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().maxMessages(Fixtures.WINDOW);
        if (scenario.equals("changedSavedNow")) {
            builder.saveDelay(Duration.ZERO);
        }
        switch (layers) {
            case "defaults" -> { }
            case "hardening" -> builder.withoutSessionSlots().withoutContextPressure().withoutSalience();
            case "withoutPressure" -> builder.withoutContextPressure();
            case "withoutSalience" -> builder.withoutSalience();
            case "withoutSessionSlots" -> builder.withoutSessionSlots();
            default -> throw new IllegalArgumentException(layers);
        }
        switch (longTerm) {
            case "none" -> builder.withoutCrystals();
            case "pastTurns" -> builder.crystalStore(crystals = new CountingCrystalStore());
            default -> throw new IllegalArgumentException(longTerm);
        }
        switch (store) {
            case "memory" -> { }
            case "file" -> {
                try {
                    storeDirectory = Files.createTempDirectory("per-turn-store");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                builder.store(new FileWorkingMemoryStore(storeDirectory));
            }
            default -> throw new IllegalArgumentException(store);
        }
        provider = builder.build();
        working = provider.get("bench");
        WorkingMemory memory = provider.memory("bench");
        Fixtures.fill(memory, "bench");
        goals = new String[] {Fixtures.text("first goal", 950), Fixtures.text("second goal", 950)};
        baseline = MessageWindowChatMemory.withMaxMessages(Fixtures.WINDOW + 1);
        SystemMessage system = SystemMessage.from(Fixtures.SYSTEM_PROMPT);
        working.add(system);
        baseline.add(system);

        for (int i = 0; i < 2 * Fixtures.WINDOW; i++) { // fills both windows: steady state from the first operation
            turn(working, null);
            turn(baseline, null);
        }
        check(memory);
        if (crystals != null && crystals.added() == 0) {
            throw new IllegalStateException("no past turn became a crystal: the pastTurns case measures nothing");
        }
        block = memory.render();
    }

    /** Fails the run if the setup does not measure what it claims to. */
    private void check(WorkingMemory memory) {
        if (memory.entities().size() != 10 || memory.render().length() < 5_000) {
            throw new IllegalStateException("not a full state: " + memory.entities().size() + " entities, block of "
                    + memory.render().length() + " chars");
        }
        if ((scenario.startsWith("unchanged") || scenario.equals("toolWrite"))
                && !memory.entities().get(0).id().equals("page-0")) {
            throw new IllegalStateException("the unchanged scenario changed the entities: " + memory.entities().get(0));
        }
        List<ChatMessage> a = working.messages();
        List<ChatMessage> b = baseline.messages();
        if (!(a.get(0) instanceof SystemMessage) || !(b.get(0) instanceof SystemMessage) || b.size() != Fixtures.WINDOW + 1) {
            throw new IllegalStateException("windows differ: " + a.size() + " vs " + b.size() + " messages");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        provider.close();
        if (storeDirectory != null) {
            try (Stream<Path> files = Files.walk(storeDirectory)) {
                for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(file);
                }
            }
        }
    }

    @Benchmark
    public void workingChatMemory(Blackhole blackhole) {
        turn(working, blackhole);
    }

    @Benchmark
    public void messageWindowChatMemory(Blackhole blackhole) {
        turn(baseline, blackhole);
    }

    /**
     * The peer of a turn that carries a JSON tool result: what an application without this memory would write,
     * {@link MessageWindowChatMemory} and Jackson's {@code readTree} of the result to find what it returned.
     */
    @Benchmark
    public void messageWindowChatMemoryAndReadTree(Blackhole blackhole) {
        ToolExecutionResultMessage result = results[turn & (RESULTS - 1)];
        turn(baseline, blackhole);
        if (result != null) { // a chat turn has no result to read
            JsonNode tree = readTree(result.text());
            if (blackhole != null) {
                blackhole.consume(tree);
            } else {
                trees += tree == null ? 0 : 1; // PerTurnCost calls without a Blackhole: the parse is still used
            }
        }
    }

    @Benchmark
    public SystemMessage systemMessageWithBlock() {
        return SystemMessage.from(Fixtures.SYSTEM_PROMPT + "\n\n" + block);
    }

    @Benchmark
    public int jacksonParseOfResult() {
        ToolExecutionResultMessage result = results[turn++ & (RESULTS - 1)];
        if (result == null) {
            return 0; // chat: no result
        }
        String text = result.text();
        int tokens = 0;
        try (JsonParser parser = JSON.createParser(text)) {
            while (parser.nextToken() != null) {
                tokens++;
            }
        } catch (IOException e) {
            return -tokens; // unchangedText: not JSON, the parser fails at once
        }
        return tokens;
    }

    private static JsonNode readTree(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            return null; // unchangedText: not JSON
        }
    }

    private void turn(ChatMemory memory, Blackhole blackhole) {
        int n = turn++;
        ToolExecutionResultMessage result = results[n & (RESULTS - 1)];
        if (result == null) { // chat: the user's message and the answer, no tool
            memory.add(chatUser);
            consume(blackhole, memory.messages());
            memory.add(chatAnswer);
            consume(blackhole, memory.messages());
            return;
        }
        memory.add(user);
        consume(blackhole, memory.messages());
        memory.add(toolCall);
        consume(blackhole, memory.messages());
        if (memory == working && scenario.equals("toolWrite")) {
            // the tool's write, durable before the tool returns: what core_memory_update does
            provider.withMemory("bench", m -> m.coreMemory().replace("goal", goals[n & 1]));
        }
        memory.add(result);
        consume(blackhole, memory.messages());
        memory.add(answer);
        consume(blackhole, memory.messages());
    }

    private static void consume(Blackhole blackhole, List<ChatMessage> messages) {
        if (blackhole != null) {
            blackhole.consume(messages);
        }
    }
}
