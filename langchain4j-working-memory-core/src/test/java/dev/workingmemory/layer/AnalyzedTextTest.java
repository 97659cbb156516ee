package dev.workingmemory.layer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AnalyzedTextTest {

    private static String lines(String prefix, int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(prefix).append(' ').append(i).append('\n');
        }
        return out.toString();
    }

    @Test
    void should_read_a_short_text_whole() {
        String text = "[ERROR] x\n" + lines("info", 10);

        assertThat(AnalyzedText.of(text, 1_024)).isSameAs(text);
    }

    @Test
    void should_read_a_long_text_as_its_head_the_error_lines_between_and_its_tail() {
        String text = lines("[INFO] copying", 2_000) + "[ERROR] /repo/App.java:[12,9] incompatible types\n"
                + lines("[INFO] copying more", 2_000) + "[INFO] BUILD FAILURE\n";

        String read = AnalyzedText.of(text, 4_096);

        assertThat(read).startsWith("[INFO] copying 0\n").endsWith("[INFO] BUILD FAILURE\n")
                .contains("\n[ERROR] /repo/App.java:[12,9] incompatible types\n")
                .doesNotContain("[INFO] copying 1000\n", "[INFO] copying more 1000\n");
        assertThat(read.length()).isLessThan(4_096 + 100);
    }

    @Test
    void should_read_at_most_the_first_error_lines_of_the_middle_each_cut_to_its_limit() {
        StringBuilder middle = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            middle.append(lines("ok", 100)).append("FAILED test_").append(i).append(' ')
                    .append("x".repeat(5_000)).append('\n');
        }
        String text = lines("head", 500) + middle + lines("tail", 500);

        AnalyzedText.Window window = AnalyzedText.window(text, 4_096);
        String read = AnalyzedText.of(text, 4_096);

        assertThat(window.errorLines()).hasSize(AnalyzedText.MIDDLE_ERROR_LINES)
                .allSatisfy(line -> assertThat(line.end() - line.start()).isEqualTo(AnalyzedText.MIDDLE_LINE_CHARS));
        assertThat(read).contains("FAILED test_0 ", "FAILED test_9 ").doesNotContain("FAILED test_10 ");
        assertThat(read.length()).isLessThan(4_096 + 11 * AnalyzedText.MIDDLE_LINE_CHARS);
    }

    @Test
    void should_read_no_line_of_the_middle_that_holds_no_error() {
        String text = lines("Errors: 0, Failures: 0", 3_000); // a passing build's counts are no errors

        assertThat(AnalyzedText.window(text, 4_096).errorLines()).isEmpty();
    }

    @Test
    void should_find_error_lines_after_carriage_returns() {
        String text = lines("progress\r", 3_000) + "npm ERR! code E404\r\n" + lines("progress\r", 3_000);

        AnalyzedText.Window window = AnalyzedText.window(text, 4_096);

        assertThat(window.errorLines()).singleElement().satisfies(line ->
                assertThat(text.substring(line.start(), line.end())).isEqualTo("npm ERR! code E404"));
    }

    @Test
    void should_refuse_a_window_of_a_text_within_the_limit() {
        assertThatThrownBy(() -> AnalyzedText.window("short", 1_024)).isInstanceOf(IllegalArgumentException.class);
    }
}
