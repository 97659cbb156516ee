package dev.workingmemory.context;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolOutputPrunerTest {

    private static final Pattern LINES_CUT = Pattern.compile("\\[\\.\\.\\. (\\d+) lines? cut( \\(lines? (\\d+)(-(\\d+))?\\))? \\.\\.\\.]");

    private static final String HINT = "The full output is kept: memory_search(\"mvn verify\") finds it.";
    private final ToolOutputPruner pruner = ToolOutputPruner.defaults();

    /** A word made of letters only, different for every {@code n}: lines built from it are not near-identical. */
    private static String word(int n) {
        StringBuilder out = new StringBuilder();
        int v = n + 1;
        while (v > 0) {
            out.append((char) ('a' + v % 26));
            v /= 26;
        }
        return out.toString();
    }

    private static String distinctLines(int count) {
        return IntStream.range(0, count).mapToObj(i -> word(i) + " " + word(i * 31 + 7) + " " + word(i * 17 + 3))
                .collect(Collectors.joining("\n"));
    }

    /** A Maven build of 400 lines: downloads, compilation, tests of many classes, one ERROR line in the middle. */
    private static List<String> mavenLog() {
        List<String> log = new ArrayList<>();
        log.add("[INFO] Scanning for projects...");
        log.add("[INFO] Building shop 1.4.0-SNAPSHOT");
        String[] artifacts = {"spring-core", "spring-beans", "jackson-databind", "postgresql", "flyway-core", "slf4j-api",
                "logback-classic", "junit-jupiter", "assertj-core", "mockito-core", "byte-buddy", "hibernate-core"};
        for (int i = 0; i < 120; i++) {
            String artifact = artifacts[i % artifacts.length];
            log.add("Downloaded from central: https://repo.maven.apache.org/maven2/org/example/" + artifact + "/"
                    + (i % 7) + ".0." + i + "/" + artifact + "-" + (i % 7) + ".0." + i + ".jar (" + (i * 13 % 900) + " kB at "
                    + (i * 7 % 300) + " kB/s)");
        }
        log.add("[INFO] --- compiler:3.11.0:compile (default-compile) @ shop ---");
        log.add("[INFO] Compiling 84 source files with javac [debug release 17] to target/classes");
        for (int i = 0; i < 70; i++) {
            log.add("[INFO] Running com.acme.shop." + word(i).toUpperCase() + word(i + 40) + "Test");
            log.add("[INFO] Tests run: " + (i % 9 + 1) + ", Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0."
                    + (i * 37 % 1000) + " s -- in com.acme.shop." + word(i).toUpperCase() + word(i + 40) + "Test");
        }
        log.add("[ERROR] Failed to load fixture orders-2024.json: unexpected token at line 12");
        while (log.size() < 398) {
            int i = log.size();
            log.add("[INFO] " + word(i) + " " + word(i * 3) + " checked " + word(i * 5 + 1));
        }
        log.add("[INFO] BUILD SUCCESS");
        log.add("[INFO] Total time:  41.207 s");
        return log;
    }

    @Test
    void should_cut_a_400_line_build_log_to_its_head_tail_and_error_line() {
        List<String> log = mavenLog();
        assertThat(log).hasSize(400);

        PrunedOutput pruned = pruner.prune(String.join("\n", log), PruningMode.NORMAL, HINT);

        List<String> lines = pruned.text().lines().toList();
        assertThat(pruned.pruned()).isTrue();
        assertThat(lines).hasSizeLessThanOrEqualTo(65)
                .startsWith(log.get(0), log.get(1))
                .contains("[ERROR] Failed to load fixture orders-2024.json: unexpected token at line 12")
                .contains(log.get(398));
        assertThat(lines.get(lines.size() - 1)).startsWith("[Pruned tool output: 400 lines,").endsWith(HINT)
                .contains("kept 1 error line from them");
        assertThat(lines.get(lines.size() - 2)).isEqualTo(log.get(399));
        assertThat(pruned.originalLines()).isEqualTo(400);
        assertThat(pruned.linesCut()).isEqualTo(400 - pruned.keptLines()).isGreaterThan(300);
        assertThat(pruned.errorLinesKept()).isEqualTo(1);
        assertThat(pruned.text().chars().allMatch(c -> c < 128)).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"NORMAL, 50, 30, 30", "AGGRESSIVE, 30, 20, 20", "HYPER, 15, 10, 10"})
    void should_prune_by_the_thresholds_of_each_mode(PruningMode mode, int maxLines, int head, int tail) {
        String atThreshold = distinctLines(maxLines);
        assertThat(pruner.prune(atThreshold, mode, HINT).text()).isSameAs(atThreshold);
        String collapsible = distinctLines(head + tail) + "\nsame\nsame\nsame\nsame";
        assertThat(pruner.prune(collapsible, mode, HINT).text()).contains("[... 2 similar lines (lines "
                + (head + tail + 2) + "-" + (head + tail + 3) + ") ...]");

        String longer = distinctLines(200);
        PrunedOutput pruned = pruner.prune(longer, mode, HINT);

        List<String> original = longer.lines().toList();
        List<String> lines = pruned.text().lines().toList();
        assertThat(lines).hasSize(head + 1 + tail + 1);
        assertThat(lines.subList(0, head)).isEqualTo(original.subList(0, head));
        assertThat(lines.get(head)).isEqualTo("[... " + (200 - head - tail) + " lines cut (lines " + (head + 1) + "-"
                + (200 - tail) + ") ...]");
        assertThat(lines.subList(head + 1, head + 1 + tail)).isEqualTo(original.subList(200 - tail, 200));
        assertThat(pruned.linesCut()).isEqualTo(200 - head - tail);
    }

    @Test
    void should_read_a_huge_output_as_its_head_and_tail_and_count_all_of_it() {
        StringBuilder log = new StringBuilder();
        int total = 40_000;
        for (int i = 1; i <= total; i++) {
            log.append(i == total - 5 ? "[ERROR] Invoice.java:[57,41] ';' expected" : "line " + i + " " + word(i))
                    .append('\n');
        }
        String text = log.toString();

        PrunedOutput pruned = pruner.prune(text, PruningMode.NORMAL, HINT, 16_384);

        List<String> lines = pruned.text().lines().toList();
        assertThat(lines.get(0)).isEqualTo("line 1 " + word(1));
        assertThat(pruned.text()).contains("[ERROR] Invoice.java:[57,41] ';' expected")
                .containsPattern("\\[\\.\\.\\. 3\\d{4} lines cut \\(lines \\d+-\\d+\\) \\.\\.\\.]");
        assertThat(pruned.originalLines()).isEqualTo(total);
        assertThat(pruned.linesCut()).isEqualTo(total - pruned.keptLines());
        assertThat(lines.get(lines.size() - 1)).startsWith("[Pruned tool output: " + total + " lines, " + text.length()
                + " chars; cut ");
        assertThat(pruner.prune(text, PruningMode.NORMAL, HINT).text())
                .as("read whole, the same head, tail and counts").isEqualTo(pruned.text());
    }

    @Test
    void should_keep_the_error_lines_of_the_part_of_a_huge_output_it_does_not_read() {
        StringBuilder log = new StringBuilder();
        int total = 40_000;
        for (int i = 1; i <= total; i++) {
            log.append(i == 12_000 ? "[ERROR] /repo/src/Inventory.java:[12,9] incompatible types"
                    : i == 25_000 ? "Exception in thread \"main\" java.lang.IllegalStateException: closed"
                    : "line " + i + " " + word(i)).append('\n');
        }
        String text = log.toString();

        PrunedOutput pruned = pruner.prune(text, PruningMode.NORMAL, HINT, 16_384);

        assertThat(pruned.text()).contains("[ERROR] /repo/src/Inventory.java:[12,9] incompatible types",
                "Exception in thread \"main\" java.lang.IllegalStateException: closed");
        assertThat(pruned.errorLinesKept()).isEqualTo(2);
        assertThat(pruned.originalLines()).isEqualTo(total);
        assertThat(pruned.linesCut()).isEqualTo(total - pruned.keptLines());
        List<String> lines = pruned.text().lines().toList();
        int first = lines.indexOf("[ERROR] /repo/src/Inventory.java:[12,9] incompatible types");
        int second = lines.indexOf("Exception in thread \"main\" java.lang.IllegalStateException: closed");
        assertThat(first).isLessThan(second);
        // every line of the output is shown or counted in a marker before, between or after the two
        int counted = pruned.keptLines();
        for (String line : lines) {
            Matcher cut = LINES_CUT.matcher(line);
            if (cut.matches()) {
                counted += Integer.parseInt(cut.group(1));
            }
        }
        assertThat(counted).isEqualTo(total);
        assertThat(numberedMarkers(pruned, text.lines().toList())).isEqualTo(3);
    }

    @Test
    void should_leave_an_output_just_over_the_threshold_alone_when_nothing_collapses() {
        String text = distinctLines(58); // over 50, but cutting to 30 + 30 would not shorten it

        PrunedOutput result = pruner.prune(text, PruningMode.NORMAL, HINT);

        assertThat(result.text()).isSameAs(text);
        assertThat(result.pruned()).isFalse();
    }

    @Test
    void should_keep_at_most_the_mode_s_number_of_error_lines_from_the_cut_part() {
        List<String> lines = new ArrayList<>(distinctLines(100).lines().toList());
        for (int i = 0; i < 20; i++) {
            lines.add(40 + 2 * i, "ERROR worker " + word(i) + " crashed");
        }

        PrunedOutput pruned = pruner.prune(String.join("\n", lines), PruningMode.HYPER, HINT);

        assertThat(pruned.errorLinesKept()).isEqualTo(3);
        assertThat(pruned.text()).contains("ERROR worker " + word(0), "ERROR worker " + word(2))
                .doesNotContain("ERROR worker " + word(3) + " ").contains("(17 more error lines cut)");
    }

    @Test
    void should_number_the_lines_cut_as_the_output_counts_them() {
        List<String> original = new ArrayList<>(distinctLines(300).lines().toList());
        original.set(99, "ERROR worker " + word(1) + " crashed");
        original.set(199, "ERROR worker " + word(2) + " crashed");

        PrunedOutput pruned = pruner.prune(String.join("\n", original), PruningMode.NORMAL, HINT);

        // each marker's numbers name exactly the lines missing between the shown lines around it
        assertThat(numberedMarkers(pruned, original)).isEqualTo(3);
    }

    /**
     * Checks that each marker's numbers name exactly the lines of {@code original} missing between the shown lines
     * around it. @return how many markers there are
     */
    private static int numberedMarkers(PrunedOutput pruned, List<String> original) {
        List<String> lines = pruned.text().lines().toList();
        int markers = 0;
        for (int i = 1; i + 1 < lines.size(); i++) {
            Matcher cut = LINES_CUT.matcher(lines.get(i));
            if (cut.matches()) {
                int from = Integer.parseInt(cut.group(3));
                int to = cut.group(5) == null ? from : Integer.parseInt(cut.group(5));
                assertThat(to - from + 1).as(lines.get(i)).isEqualTo(Integer.parseInt(cut.group(1)));
                assertThat(original.get(from - 2)).as(lines.get(i)).isEqualTo(lines.get(i - 1));
                assertThat(original.get(to)).as(lines.get(i)).isEqualTo(lines.get(i + 1));
                markers++;
            }
        }
        return markers;
    }

    @Test
    void should_keep_stack_trace_heads_failures_and_exit_codes_but_not_passing_counts() {
        List<String> lines = new ArrayList<>(distinctLines(120).lines().toList());
        lines.add(50, "java.lang.IllegalStateException: pool exhausted");
        lines.add(60, "Tests run: 5, Failures: 0, Errors: 0, Skipped: 0");
        lines.add(70, "Process exited with code 3");
        lines.add(80, "Process exited with code 0");
        lines.add(90, "[INFO] BUILD FAILURE");

        String text = pruner.prune(String.join("\n", lines), PruningMode.NORMAL, null).text();

        assertThat(text).contains("java.lang.IllegalStateException: pool exhausted", "Process exited with code 3",
                "[INFO] BUILD FAILURE").doesNotContain("Failures: 0", "exited with code 0");
        assertThat(text).endsWith(".]");
    }

    @Test
    void should_collapse_a_find_listing_to_counts_per_directory() {
        List<String> paths = new ArrayList<>();
        for (String dir : List.of("src/main/java/com/acme/shop", "src/main/java/com/acme/shop/config", "src/test/java/com/acme/shop")) {
            for (int i = 0; i < 100; i++) {
                paths.add("./" + dir + "/" + word(i).toUpperCase() + "Service.java");
            }
        }

        PrunedOutput pruned = pruner.prune(String.join("\n", paths), PruningMode.NORMAL, HINT);

        List<String> lines = pruned.text().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).isEqualTo("[listing collapsed: 300 entries in 3 directories]");
        assertThat(lines.get(1)).startsWith("src/main/java/com/acme/shop/ (100): BService.java, CService.java")
                .endsWith(", +92 more");
        assertThat(pruned.keptLines()).isZero();
        assertThat(pruned.linesCut()).isEqualTo(300);
    }

    @Test
    void should_collapse_ls_recursive_and_ls_long() {
        StringBuilder recursive = new StringBuilder(".:\npom.xml  src\n");
        for (int d = 0; d < 40; d++) {
            recursive.append("\n./src/").append(word(d)).append(":\n");
            recursive.append(word(d)).append("A.java  ").append(word(d)).append("B.java  ").append(word(d)).append("C.java\n");
        }
        StringBuilder longListing = new StringBuilder("total 480\n");
        for (int i = 0; i < 60; i++) {
            longListing.append(i % 5 == 0 ? "drwxr-xr-x" : "-rw-r--r--").append("  1 dev dev  ").append(i * 97)
                    .append(" May  2 10:12 ").append(word(i)).append(i % 5 == 0 ? "" : ".txt").append('\n');
        }

        String ls = pruner.prune(recursive.toString(), PruningMode.NORMAL, HINT).text();
        String ll = pruner.prune(longListing.toString(), PruningMode.NORMAL, HINT).text();

        assertThat(ls).startsWith("[listing collapsed: 122 entries in 41 directories]\n./ (2): pom.xml, src\nsrc/b/ (3): bA.java");
        assertThat(ll).startsWith("[listing collapsed: 60 entries in 1 directory]\n./ (60): b/, c.txt, d.txt");
    }

    @Test
    void should_show_a_tree_down_to_the_depth_that_fits() {
        StringBuilder tree = new StringBuilder(".\n");
        for (int top = 0; top < 6; top++) {
            tree.append("\u251C\u2500\u2500 ").append(word(top)).append('\n');
            for (int child = 0; child < 20; child++) {
                tree.append("\u2502   \u251C\u2500\u2500 ").append(word(child)).append(".java\n");
            }
        }
        tree.append("\n6 directories, 120 files");

        String text = pruner.prune(tree.toString(), PruningMode.NORMAL, HINT).text();

        assertThat(text).startsWith("[tree collapsed: 120 deeper entries counted, not listed]\n.\n\u251C\u2500\u2500 b (+20 entries)")
                .contains("6 directories, 120 files").doesNotContain(".java");
    }

    @Test
    void should_collapse_runs_of_near_identical_lines() {
        StringBuilder log = new StringBuilder("starting\n");
        for (int i = 0; i < 150; i++) {
            log.append("2024-05-02 10:").append(10 + i / 60).append(':').append(String.format("%02d", i % 60))
                    .append(" INFO  [worker-").append(i % 4).append("] heartbeat ok, queue=").append(i * 3).append('\n');
        }
        log.append("done");

        PrunedOutput pruned = pruner.prune(log.toString(), PruningMode.NORMAL, HINT);

        assertThat(pruned.text().lines().toList()).hasSize(6).contains("starting", "[... 148 similar lines (lines 3-150) ...]", "done");
        assertThat(pruned.text()).contains("148 of them similar to the lines around them");
    }

    @Test
    void should_collapse_long_near_identical_lines_and_find_errors_in_the_first_2000_chars_of_a_line_only() {
        StringBuilder log = new StringBuilder("begin\n");
        for (int i = 0; i < 60; i++) { // longer than the 256 chars compared: near-identical all the same
            log.append("row ").append(1_000 + i).append(' ').append("x".repeat(300)).append(" end ").append(i * 7).append('\n');
        }
        for (int i = 0; i < 100; i++) {
            log.append(word(i)).append(' ').append(word(i * 31 + 7)).append('\n');
            if (i == 50) {
                log.append("y".repeat(2_100)).append(" ERROR too far into the line\n");
                log.append("z".repeat(1_990)).append(" ERROR\n");
            }
        }
        log.append("end");

        PrunedOutput pruned = pruner.prune(log.toString(), PruningMode.NORMAL, HINT);

        assertThat(pruned.text()).contains("[... 58 similar lines (lines 3-60) ...]", "z".repeat(1_990) + " ERROR\n")
                .doesNotContain("too far into the line");
        assertThat(pruned.errorLinesKept()).isEqualTo(1);
    }

    @Test
    void should_cut_a_long_single_line_output_to_its_head_and_tail() {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; json.length() < 200_000; i++) {
            json.append("{\"id\":").append(i).append(",\"name\":\"").append(word(i)).append("\"},");
        }
        json.append("{\"id\":-1}]");

        PrunedOutput pruned = pruner.prune(json.toString(), PruningMode.NORMAL, HINT);

        String first = pruned.text().lines().findFirst().orElseThrow();
        assertThat(first).startsWith("[{\"id\":0,").endsWith("{\"id\":-1}]").contains(" chars cut ...] ")
                .hasSizeLessThan(4_100);
        assertThat(pruned.text()).endsWith(HINT).contains("1 line, " + json.length() + " chars; cut ");
        assertThat(pruned.linesCut()).isZero();
        assertThat(pruned.charsCut()).isGreaterThan(195_000);
    }

    @ParameterizedTest
    @EnumSource(PruningMode.class)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void should_prune_10_mb_in_linear_time(PruningMode mode) {
        String lines = distinctLines(600_000) + "\nERROR at the very end";
        String oneLine = "QUJDRA==".repeat(1_300_000);
        String similar = "[INFO] Downloading https://repo/x.jar 42%\n".repeat(250_000);

        long start = System.nanoTime();
        PrunedOutput manyLines = pruner.prune(lines, mode, HINT);
        PrunedOutput single = pruner.prune(oneLine, mode, HINT);
        PrunedOutput repeated = pruner.prune(similar, mode, HINT);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("Pruned 3 x 10 MB in " + mode + " mode in " + millis + " ms");

        assertThat(lines.length()).isGreaterThan(9_000_000);
        assertThat(manyLines.text()).contains("ERROR at the very end").hasSizeLessThan(10_000);
        assertThat(single.text()).hasSizeLessThan(6_000);
        assertThat(repeated.text().lines()).hasSizeLessThan(6);
        assertThat(millis).as("ms for 3 x 10 MB").isLessThan(5_000);
    }

    @Test
    void should_be_deterministic_and_read_windows_line_ends() {
        String text = distinctLines(200).replace("\n", "\r\n");

        PrunedOutput first = pruner.prune(text, PruningMode.AGGRESSIVE, HINT);

        assertThat(pruner.prune(text, PruningMode.AGGRESSIVE, HINT)).isEqualTo(first);
        assertThat(first.text()).doesNotContain("\r").contains("[... 160 lines cut (lines 21-180) ...]");
    }

    @Test
    void should_use_configured_limits_and_reject_contradictory_ones() {
        ToolOutputPruner strict = ToolOutputPruner.builder()
                .limits(PruningMode.NORMAL, PruningLimits.of(5, 2, 1, 0, 200)).build();

        assertThat(strict.prune(distinctLines(20), PruningMode.NORMAL, null).text().lines()).hasSize(5);
        assertThatThrownBy(() -> PruningLimits.of(5, 0, 0, 0, 200)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PruningLimits.of(5, 2, 2, 0, 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ToolOutputPruner.builder().minSimilarRun(2).build()).isInstanceOf(IllegalArgumentException.class);
    }
}
