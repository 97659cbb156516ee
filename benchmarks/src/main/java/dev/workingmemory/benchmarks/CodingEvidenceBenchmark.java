package dev.workingmemory.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.slots.SessionActivation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What the default rule that makes the session act ({@link SessionActivation#codingEvidence()}) costs a tool result of
 * an agent that does not code: the memory asks it of every tool result while its session waits, which for such an
 * agent is for good. Against a named baseline in the same run: {@code linesOfText}, splitting the text into its lines
 * ({@code String.lines().count()}), the least a rule that reads lines pays.
 *
 * <p>{@code payload}: {@code page9k}, 100 lines of a shop page's HTML (9.5 KB); {@code log114k}, 1,500 lines of a
 * shipment log (114 KB); {@code json1k}, a CMS's JSON reply of one line. None is evidence.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CodingEvidenceBenchmark {

    @Param({"page9k", "log114k", "json1k"})
    public String payload;

    private final SessionActivation rule = SessionActivation.codingEvidence();
    private ToolExecutionResultMessage result;

    @Setup(Level.Trial)
    public void setUp() {
        StringBuilder text = new StringBuilder();
        switch (payload) {
            case "page9k" -> {
                for (int i = 0; i < 100; i++) {
                    text.append("  <p class=\"item\">Sandals model ").append(i)
                            .append(" are on sale until June 30, see the shop page for sizes.</p>\n");
                }
            }
            case "log114k" -> {
                for (int i = 0; i < 1500; i++) {
                    text.append("2024-05-02 10:0").append(i % 10).append(":12 INFO  Shipment ").append(i)
                            .append(" left the warehouse in Lyon for Paris\n");
                }
            }
            case "json1k" -> text.append(Fixtures.pageResult(0));
            default -> throw new IllegalArgumentException(payload);
        }
        ToolExecutionRequest request = ToolExecutionRequest.builder().id("call-1").name("fetch").arguments("{}").build();
        result = ToolExecutionResultMessage.from(request, text.toString());
        if (rule.isEvidence(result)) {
            throw new IllegalStateException(payload + " is evidence: the benchmark measures an ordinary result");
        }
    }

    @Benchmark
    public boolean codingEvidence() {
        return rule.isEvidence(result);
    }

    @Benchmark
    public long linesOfText() {
        return result.text().lines().count();
    }
}
