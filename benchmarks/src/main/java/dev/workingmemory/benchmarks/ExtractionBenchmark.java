package dev.workingmemory.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.entity.JsonEntityExtractor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The default entity extractor ({@link JsonEntityExtractor#create()}) against Jackson's {@code readTree} alone
 * (a plain {@link ObjectMapper}) on the same tool results.
 *
 * <p>{@code payload}:
 * <ul>
 *   <li>{@code page1k}: one page with its sections, 1 KB, one entity;</li>
 *   <li>{@code list100k}: {@code {"pages":[...]}} of 100 KB (3 entities: the extractor looks at 3 per list);</li>
 *   <li>{@code list10m}: the same list at 10 MB: above the default extractor's {@code maxChars} (1,000,000), so it
 *       is skipped without parsing; {@code extractorNoSizeLimit} parses it;</li>
 *   <li>{@code text2k}: 2 KB of prose, not JSON;</li>
 *   <li>{@code log2k}: 2 KB of log lines starting with {@code [}, not JSON but looking like it at first.</li>
 * </ul>
 * {@code readTree} on the non-JSON payloads is a failed parse (the exception is caught).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ExtractionBenchmark {

    @Param({"page1k", "list100k", "list10m", "text2k", "log2k"})
    public String payload;

    private String text;
    private final ObjectMapper plain = new ObjectMapper();
    private final JsonEntityExtractor extractor = JsonEntityExtractor.create();
    private final JsonEntityExtractor noSizeLimit = JsonEntityExtractor.builder().maxChars(16_000_000).build();

    @Setup(Level.Trial)
    public void setUp() {
        text = switch (payload) {
            case "page1k" -> page1k();
            case "list100k" -> list(100 * 1024);
            case "list10m" -> list(10 * 1024 * 1024);
            case "text2k" -> Fixtures.text("Fetched the page", 2048);
            case "log2k" -> log2k();
            default -> throw new IllegalArgumentException(payload);
        };
        int expected = switch (payload) {
            case "page1k" -> 1;
            case "list100k", "list10m" -> 3;
            default -> 0;
        };
        List<Entity> found = noSizeLimit.extract(TOOL, text);
        if (found.size() != expected) {
            throw new IllegalStateException(payload + ": expected " + expected + " entities, found " + found);
        }
    }

    private static final String TOOL = "cms_listPages";

    @Benchmark
    public List<Entity> extractor() {
        return extractor.extract(TOOL, text);
    }

    @Benchmark
    public List<Entity> extractorNoSizeLimit() {
        return noSizeLimit.extract(TOOL, text);
    }

    @Benchmark
    public JsonNode readTree() {
        try {
            return plain.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    static String page1k() {
        StringBuilder out = new StringBuilder(1100).append("{\"success\":true,\"page\":{\"id\":\"page-123\",\"title\":\"About Us\",")
                .append("\"slug\":\"about-us\",\"status\":\"published\",\"updatedAt\":\"2026-03-12T14:30:00Z\",")
                .append("\"author\":{\"id\":\"user-7\",\"name\":\"Ada\"},\"sections\":[");
        for (int i = 0; out.length() < 900; i++) {
            out.append(i == 0 ? "" : ",").append("{\"id\":\"sec-").append(i).append("\",\"heading\":\"Section ").append(i)
                    .append("\",\"type\":\"text\",\"body\":\"Our team builds tools for editors.\"}");
        }
        out.append("],\"seo\":{\"description\":\"Who we are and what we do.\"}}}");
        return pad(out, 1024);
    }

    static String list(int size) {
        StringBuilder out = new StringBuilder(size + 512).append("{\"pages\":[");
        for (int i = 0; out.length() < size - 200; i++) {
            out.append(i == 0 ? "" : ",").append("{\"id\":\"page-").append(i).append("\",\"title\":\"Page number ").append(i)
                    .append("\",\"slug\":\"page-").append(i).append("\",\"status\":\"published\",")
                    .append("\"updatedAt\":\"2026-03-12T14:30:00Z\",\"tags\":[\"docs\",\"guide\"],\"views\":").append(i * 7)
                    .append(",\"summary\":\"A page of the documentation site that explains one feature.\"}");
        }
        out.append("],\"meta\":{\"total\":100000,\"next\":\"cursor-abc\"}}");
        return pad(out, size);
    }

    /** Pads the JSON text with trailing spaces (insignificant whitespace) to exactly {@code size} characters. */
    private static String pad(StringBuilder json, int size) {
        while (json.length() < size) {
            json.append(' ');
        }
        return json.toString();
    }

    static String log2k() {
        StringBuilder out = new StringBuilder(2100);
        for (int i = 0; out.length() < 2048; i++) {
            out.append("[2026-03-12 14:30:").append(String.format("%02d", i % 60)).append("] INFO  publish: page ")
                    .append(i).append(" rendered in 12 ms, cache warmed\n");
        }
        out.setLength(2048);
        return out.toString();
    }
}
