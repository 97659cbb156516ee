package dev.workingmemory.context;

import java.util.function.IntConsumer;
import java.util.regex.Pattern;

/**
 * Whether a line reports an error, so that it survives pruning: {@code ERROR}, {@code FATAL}, {@code error:},
 * {@code Error:}, {@code FAILED}, {@code BUILD FAILURE}, {@code Exception:} (a stack trace's head),
 * {@code Caused by:}, {@code Traceback}, {@code panic:}, npm's {@code ERR!}, a merge {@code CONFLICT}, a non-zero
 * exit code. Case matters: "Errors: 0" and "Failures: 0" of a passing build are no errors. Only the first 2,000
 * characters of a line are looked at. Thread-safe (stateless).
 */
final class ErrorLines {

    static final int PROBE_CHARS = 2000;
    private static final String[] MARKERS = {"ERROR", "FATAL", "error:", "Error:", "error[", "error TS", "FAILED",
            "FAILURE", "Exception:", "Exception in thread", "Caused by:", "Traceback (most recent call last)", "panic:",
            "fatal:", "ERR!", "CONFLICT ("};
    private static final Pattern EXIT = Pattern.compile("(?i)exit(?:ed with)? (?:code|status)[:=]? ?-?[1-9]\\d{0,4}\\b");

    private ErrorLines() {
    }

    /**
     * Which lines of {@code lines} are error lines: each marker is looked for in the whole text at once
     * ({@code String.indexOf}, vectorized by the JVM) rather than line by line, and only the lines it finds are looked
     * at further.
     */
    static boolean[] find(LineIndex lines) {
        boolean[] error = new boolean[lines.count()];
        for (String marker : MARKERS) {
            forEachLineWith(lines, marker, line -> error[line] = true);
        }
        forEachLineWith(lines, "Exception", line -> {
            String trimmed = lines.head(line, PROBE_CHARS).stripTrailing();
            if (trimmed.endsWith("Exception") && trimmed.indexOf(' ') < 0) {
                error[line] = true; // a bare exception type heading a stack trace
            }
        });
        for (String exit : new String[] {"exit", "Exit"}) {
            forEachLineWith(lines, exit, line -> {
                if (!error[line] && EXIT.matcher(lines.head(line, PROBE_CHARS)).find()) {
                    error[line] = true;
                }
            });
        }
        return error;
    }

    /** Calls {@code action} once for each line whose first {@link #PROBE_CHARS} characters contain {@code word}. */
    private static void forEachLineWith(LineIndex lines, String word, IntConsumer action) {
        String text = lines.text();
        int from = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, from)) {
            int line = lines.lineAt(at); // a word holds no line break: it lies within one line
            if (at + word.length() <= lines.start(line) + PROBE_CHARS) {
                action.accept(line);
            }
            from = lines.end(line) + 1;
        }
    }
}
