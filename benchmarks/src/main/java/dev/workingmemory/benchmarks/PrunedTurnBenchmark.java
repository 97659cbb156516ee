package dev.workingmemory.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One coding-agent turn whose tool result is a 400-line build log (issue 11, "Done when" 6): a user message, the
 * model's tool call, the result and the answer, each {@code add}ed and followed by {@code messages()}, as
 * {@code AiServices} does. One operation is one turn.
 *
 * <p>{@code workingChatMemoryPruned}: a {@link WorkingMemoryProvider} with its defaults (context pressure on, a 128K
 * context window, so the log is pruned in normal mode to its first and last 30 lines, its error lines and a summary;
 * the full log goes to the tool-output cache on the cache's own thread, not measured here). Every turn's log is a
 * new one (1,024 different logs, cycled), so each is pruned and hashed anew. Long-term memory is on as by default,
 * but into a {@link CountingCrystalStore}: the turn pays for making the past-turn and tool-output crystals, not for
 * the embedding a real store runs on its indexer thread (without it, this benchmark measured how fast MiniLM embeds:
 * the store's bounded queue makes {@code add} wait once the loop outruns the indexer, which a turn with a model call
 * in it does not; {@code CrystalIndexingThroughput} measures that embedding). {@code messageWindowChatMemory}:
 * LangChain4j's {@link MessageWindowChatMemory} with the same messages, sending all 400 lines. Both keep a window of
 * 20 messages besides the system message and are in steady state.
 *
 * <p>The {@code …AndSerialized} pair adds what sending the request costs on the client side whatever the memory:
 * Jackson writes the texts of every {@code messages()} result as JSON, as an HTTP client of a model would. The
 * pruned request is about a seventh of the unpruned one.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PrunedTurnBenchmark {

    private static final int LOGS = 1024;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private WorkingMemoryProvider provider;
    private ChatMemory working;
    private ChatMemory baseline;
    private UserMessage user;
    private AiMessage toolCall;
    private AiMessage answer;
    private ToolExecutionResultMessage[] logs;
    private int turn;

    @Setup(Level.Trial)
    public void setUp() {
        ToolExecutionRequest request = ToolExecutionRequest.builder().id("call-1").name("bash")
                .arguments("{\"command\": \"mvn -q verify\"}").build();
        user = UserMessage.from("Run the build and tell me what fails.");
        toolCall = AiMessage.from(request);
        answer = AiMessage.from("The build fails at Invoice.java:57: a missing semicolon.");
        logs = new ToolExecutionResultMessage[LOGS];
        for (int i = 0; i < LOGS; i++) {
            logs[i] = ToolExecutionResultMessage.from(request, buildLog(i));
        }
        provider = WorkingMemoryProvider.builder().maxMessages(Fixtures.WINDOW).crystalStore(new CountingCrystalStore())
                .build();
        working = provider.get("bench");
        baseline = MessageWindowChatMemory.withMaxMessages(Fixtures.WINDOW + 1);
        SystemMessage system = SystemMessage.from("You are a coding agent. Run the build, read the errors, fix them.");
        working.add(system);
        baseline.add(system);
        for (int i = 0; i < 2 * Fixtures.WINDOW; i++) {
            turn(working, null, false);
            turn(baseline, null, false);
        }
        int prunedChars = chars(working.messages());
        int fullChars = chars(baseline.messages());
        if (prunedChars * 3 > fullChars) {
            throw new IllegalStateException("the log was not pruned: " + prunedChars + " chars sent vs " + fullChars);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        provider.close();
    }

    /** 400 lines of a Maven build with one ERROR line in the middle; {@code variant} makes each log different. */
    static String buildLog(int variant) {
        StringBuilder log = new StringBuilder("[INFO] Scanning for projects... (build ").append(variant).append(")\n");
        for (int i = 2; i < 400; i++) {
            if (i == 200) {
                log.append("[ERROR] /src/main/java/com/acme/Invoice.java:[57,41] ';' expected\n");
            } else {
                log.append("[INFO] step ").append(i).append(": processed module-").append((i + variant) % 17)
                        .append(" resource ").append(Integer.toHexString(i * 7919 + variant))
                        .append(i % 3 == 0 ? " (copied)\n" : i % 3 == 1 ? " (filtered, unchanged)\n" : " -> target/classes\n");
            }
        }
        return log.append("[INFO] BUILD FAILURE in 12.4 s").toString();
    }

    @Benchmark
    public void workingChatMemoryPruned(Blackhole blackhole) {
        turn(working, blackhole, false);
    }

    @Benchmark
    public void messageWindowChatMemory(Blackhole blackhole) {
        turn(baseline, blackhole, false);
    }

    @Benchmark
    public void workingChatMemoryPrunedAndSerialized(Blackhole blackhole) {
        turn(working, blackhole, true);
    }

    @Benchmark
    public void messageWindowChatMemoryAndSerialized(Blackhole blackhole) {
        turn(baseline, blackhole, true);
    }

    private void turn(ChatMemory memory, Blackhole blackhole, boolean serialize) {
        ToolExecutionResultMessage log = logs[turn++ & (LOGS - 1)];
        memory.add(user);
        consume(blackhole, memory.messages(), serialize);
        memory.add(toolCall);
        consume(blackhole, memory.messages(), serialize);
        memory.add(log);
        consume(blackhole, memory.messages(), serialize);
        memory.add(answer);
        consume(blackhole, memory.messages(), serialize);
    }

    private static void consume(Blackhole blackhole, List<ChatMessage> messages, boolean serialize) {
        if (blackhole == null) {
            return;
        }
        blackhole.consume(messages);
        if (serialize) {
            try {
                blackhole.consume(MAPPER.writeValueAsBytes(texts(messages)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static List<String> texts(List<ChatMessage> messages) {
        List<String> texts = new ArrayList<>(messages.size());
        for (ChatMessage message : messages) {
            if (message instanceof SystemMessage system) {
                texts.add(system.text());
            } else if (message instanceof UserMessage u) {
                texts.add(u.singleText());
            } else if (message instanceof AiMessage ai) {
                texts.add(ai.text() == null ? String.valueOf(ai.toolExecutionRequests()) : ai.text());
            } else if (message instanceof ToolExecutionResultMessage result) {
                texts.add(result.text());
            }
        }
        return texts;
    }

    private static int chars(List<ChatMessage> messages) {
        return texts(messages).stream().mapToInt(String::length).sum();
    }
}
