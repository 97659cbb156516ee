package dev.workingmemory.context;

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

    static boolean isError(String probe) {
        for (String marker : MARKERS) {
            if (probe.contains(marker)) {
                return true;
            }
        }
        String trimmed = probe.stripTrailing();
        if (trimmed.endsWith("Exception") && !trimmed.contains(" ")) {
            return true; // a bare exception type heading a stack trace
        }
        return (probe.contains("exit") || probe.contains("Exit")) && EXIT.matcher(probe).find();
    }
}
