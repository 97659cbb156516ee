package dev.workingmemory.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
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

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What one huge message costs the request path (issue 19, point 5): {@code add()} of a 1 MB user message or tool
 * result, then {@code messages()}, in a memory that holds a system message and a short exchange, with the default
 * layers. One operation is that {@code add} and that {@code messages()}; every operation uses a memory of its own, so
 * nothing is served from a cache of the message before (a new message, a new memory: extraction, evidence, salience
 * queueing, pruning and the tool-output cache's name all run again).
 *
 * <p>Shapes, each 1,048,576 characters: {@code newlines} (only line breaks), {@code log} (timestamped log lines),
 * {@code binary} (random characters 0-255: control characters, carriage returns, Latin-1), {@code tracebacks}
 * (Python tracebacks one after the other), {@code oneLine} (prose without a line break), {@code json} (one line of
 * JSON records), {@code backtracking} (lines built to make a rule's pattern backtrack: long runs of the spaces, dots
 * or letters a pattern repeats, ending where it cannot match). Long-term memory goes into a {@link CountingCrystalStore}, as in {@link PrunedTurnBenchmark}: the
 * crystals of the full output are made on the tool-output cache's thread and embedded on the indexer's, neither of
 * which the request waits for ({@code CrystalIndexingThroughput} measures the embedding).
 *
 * <p>Sampled time ({@code Mode.SampleTime}), so that the report gives the worst operations, not only the mean. Each
 * memory is forgotten after its operation (not measured), so that the heap does not grow by a megabyte per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class HugeMessageBenchmark {

    static final int SIZE = 1 << 20;

    @Param({"newlines", "log", "binary", "tracebacks", "oneLine", "json", "backtracking"})
    public String shape;

    /** {@code user}: a user message; {@code tool}: a tool result, after the model's call of the tool. */
    @Param({"user", "tool"})
    public String as;

    private WorkingMemoryProvider provider;
    private String text;
    private ToolExecutionRequest request;
    private ChatMemory memory;
    private ChatMessage message;
    private int memories;

    @Setup(Level.Trial)
    public void setUp() {
        text = text(shape);
        if (text.length() != SIZE) {
            throw new IllegalStateException(shape + " has " + text.length() + " characters");
        }
        request = ToolExecutionRequest.builder().id("call_0").name("run").arguments("{\"command\": \"make\"}").build();
        provider = WorkingMemoryProvider.builder().crystalStore(new CountingCrystalStore()).build();
    }

    /** A memory of its own for the next operation, holding a system message and a short exchange. */
    @Setup(Level.Invocation)
    public void newMemory() {
        memory = provider.get("huge-" + memories++);
        message = prepare(memory, as, request, text);
    }

    /**
     * Gives {@code memory} a system message and a short exchange (and the tool call, as {@code "tool"}) and returns
     * the huge message to add next: a user message or the call's result of a copy of {@code text}.
     */
    static ChatMessage prepare(ChatMemory memory, String as, ToolExecutionRequest request, String text) {
        memory.add(SystemMessage.from("You are an assistant with tools."));
        memory.add(UserMessage.from("Run it and tell me what it printed."));
        if (as.equals("tool")) {
            memory.add(AiMessage.from(request));
        }
        memory.messages();
        // a new String each time: no layer may recognise the message by its identity
        String copy = new String(text.toCharArray());
        return as.equals("tool") ? ToolExecutionResultMessage.from(request, copy) : UserMessage.from(copy);
    }

    /** The memory of the operation goes, with its cached output: the heap stays as it was (no GC of heaps grown). */
    @TearDown(Level.Invocation)
    public void forgetMemory() {
        provider.forget("huge-" + (memories - 1));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        provider.close();
    }

    @Benchmark
    public List<ChatMessage> addAndRead() {
        memory.add(message);
        return memory.messages();
    }

    static String text(String shape) {
        StringBuilder out = new StringBuilder(SIZE + 256);
        switch (shape) {
            case "newlines" -> out.append("\n".repeat(SIZE));
            case "log" -> {
                for (int i = 0; out.length() < SIZE; i++) {
                    out.append("2026-03-12T14:").append(10 + i / 3600 % 50).append(':').append(10 + i / 60 % 50)
                            .append(" INFO  [worker-").append(i % 7).append("] processed order ").append(100_000 + i)
                            .append(" in ").append(i % 97).append(" ms\n");
                }
            }
            case "binary" -> {
                Random random = new Random(19);
                for (int i = 0; i < SIZE; i++) {
                    out.append((char) random.nextInt(256));
                }
            }
            case "tracebacks" -> {
                for (int i = 0; out.length() < SIZE; i++) {
                    out.append("Traceback (most recent call last):\n  File \"/srv/app/main.py\", line ").append(40 + i % 300)
                            .append(", in handle\n    result = process(order)\n  File \"/srv/app/worker.py\", line 42,")
                            .append(" in process\n    return compute(order.lines)\nValueError: order ").append(i)
                            .append(" has no lines\n");
                }
            }
            case "oneLine" -> {
                while (out.length() < SIZE) {
                    out.append("the quick brown fox jumps over the lazy dog while the build keeps running ");
                }
            }
            case "json" -> {
                out.append("{\"orders\":[");
                for (int i = 0; out.length() < SIZE - 200; i++) {
                    out.append(i == 0 ? "" : ",").append("{\"id\":\"order-").append(i).append("\",\"customer\":\"Customer ")
                            .append(i % 997).append("\",\"total\":").append(i % 1000).append('.').append(i % 100)
                            .append(",\"status\":\"shipped\"}");
                }
                out.append(" ".repeat(SIZE - 2 - out.length())).append("]}"); // valid JSON of exactly 1 MB
            }
            case "backtracking" -> {
                // lines built to make a rule's pattern backtrack (the adversarial audit of the twenty-fourth session):
                // runs of what a pattern repeats, ending where it cannot match, each within the 2,000 characters a
                // line is read up to
                List<String> lines = List.of("src/app.js", "  1:1 error " + " ".repeat(1_980) + "\u2028\t",
                        "todo" + " ".repeat(390) + "\u2028x", "  at " + ".".repeat(1_990), "'a".repeat(990),
                        "a".repeat(1_990), "Next steps:", "-" + " ".repeat(1_990) + "\u0085x",
                        "- " + " ".repeat(900) + "a -> Confidence: 5 %" + " ".repeat(900));
                for (int i = 0; out.length() < SIZE; i++) {
                    out.append(lines.get(i % lines.size())).append('\n');
                }
            }
            default -> throw new IllegalArgumentException(shape);
        }
        if (out.length() > SIZE) { // cut to exactly 1 MB
            out.setLength(SIZE);
        }
        return out.toString();
    }
}
