package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorLinesTest {

    private static List<String> errorLines(String text) {
        return Arrays.stream(ErrorLines.starts(text, 0, text.length(), Integer.MAX_VALUE))
                .mapToObj(start -> text.substring(start, ErrorLines.lineEnd(text, start))).toList();
    }

    @Test
    void should_find_the_failures_of_many_tools_and_none_of_a_passing_run() {
        String text = String.join("\n",
                "=== RUN   TestRateLimiter",
                "--- FAIL: TestRateLimiter (0.00s)",
                "    ratelimit_test.go:88: expected status 429",
                "FAIL\tgithub.com/acme/gateway/ratelimit\t0.012s",
                "--- PASS: TestHealth (0.00s)",
                "ok  \tgithub.com/acme/gateway/health\t0.004s",
                "[ERROR] /repo/App.java:[12,9] incompatible types",
                "Tests run: 12, Failures: 0, Errors: 0, Skipped: 0",
                "Exception in thread \"main\" java.lang.IllegalStateException: closed",
                "java.lang.NullPointerException",
                "Process finished with exit code 0",
                "api-1 exited with code 1",
                "npm ERR! code E404");

        assertThat(errorLines(text)).containsExactly(
                "--- FAIL: TestRateLimiter (0.00s)",
                "FAIL\tgithub.com/acme/gateway/ratelimit\t0.012s",
                "[ERROR] /repo/App.java:[12,9] incompatible types",
                "Exception in thread \"main\" java.lang.IllegalStateException: closed",
                "java.lang.NullPointerException",
                "api-1 exited with code 1",
                "npm ERR! code E404");
    }

    @Test
    void should_stop_at_the_limit_and_read_only_the_range() {
        String text = "ERROR one\nok\nERROR two\nERROR three\n";

        assertThat(ErrorLines.starts(text, 0, text.length(), 2)).containsExactly(0, 13);
        assertThat(ErrorLines.starts(text, 1, text.length(), 5)).as("the first line starts before the range")
                .containsExactly(13, 23);
        assertThat(ErrorLines.starts(text, 0, 12, 5)).containsExactly(0);
    }
}
