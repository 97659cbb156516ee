package dev.workingmemory.internal;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which lines of a text report an error: {@code ERROR}, {@code FATAL}, {@code error:}, {@code Error:},
 * {@code FAILED}, {@code BUILD FAILURE}, {@code Exception:} (a stack trace's head), {@code Caused by:},
 * {@code Traceback}, {@code panic:}, npm's {@code ERR!}, a merge {@code CONFLICT}, go test's {@code --- FAIL} and
 * {@code FAIL<tab>package}, a non-zero exit code. Case matters:
 * "Errors: 0" and "Failures: 0" of a passing build are no errors. Only the first {@value #PROBE_CHARS} characters of
 * a line are looked at. Pruning keeps these lines of what it cuts, and analysis of a huge text reads them from the part
 * it does not read whole ({@code AnalyzedText}). Lines end at {@code \n}, {@code \r\n} or {@code \r}.
 *
 * <p>Thread-safe (stateless).
 */
public final class ErrorLines {

    /** Characters of a line looked at. */
    public static final int PROBE_CHARS = 2000;
    private static final List<String> MARKERS = List.of("ERROR", "FATAL", "error:", "Error:", "error[", "error TS",
            "FAILED", "FAILURE", "Exception:", "Exception in thread", "Caused by:", "Traceback (most recent call last)",
            "panic:", "fatal:", "ERR!", "CONFLICT (", "--- FAIL", "FAIL\t");
    /** Words that make a line an error line only in some lines: {@link #isConditional}. */
    private static final List<String> CONDITIONAL = List.of("Exception", "exit", "Exit");
    private static final Substrings MARKER = Substrings.of(MARKERS);
    private static final Substrings ANY = Substrings.of(Stream.concat(MARKERS.stream(), CONDITIONAL.stream()).toList());
    private static final Pattern EXIT = Pattern.compile("(?i)exit(?:ed with)? (?:code|status)[:=]? ?-?[1-9]\\d{0,4}\\b");

    private ErrorLines() {
    }

    /**
     * Where the error lines of {@code text[from, to)} start, in order, found in one pass over the text
     * ({@link Substrings}): only the lines where a marker is found are looked at further. A line counts when it starts
     * at or after {@code from} and ends at or before {@code to}.
     *
     * @param limit at most this many, the first ones: the pass stops at the {@code limit}-th
     */
    public static int[] starts(String text, int from, int to, int limit) {
        Ensure.that(0 <= from && from <= to && to <= text.length(), "from and to must lie within the text");
        Ensure.positive(limit, "limit");
        boolean carriageReturns = text.indexOf('\r', from) >= 0;
        int[] found = new int[Math.min(limit, 64)];
        int count = 0;
        int at = from;
        while (count < limit) {
            int end = ANY.end(text, at, to);
            if (end < 0) {
                break;
            }
            int start = lineStart(text, end - 1, carriageReturns);
            int lineEnd = carriageReturns ? lineEnd(text, end - 1) : newlineOrEnd(text, end - 1);
            if (start >= from && lineEnd <= to) {
                String head = text.substring(start, Math.min(lineEnd, start + PROBE_CHARS));
                if (MARKER.in(head) || isConditional(head)) {
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                    }
                    found[count++] = start;
                }
            }
            at = lineEnd + 1; // the next line: this one is decided
            if (at >= to) {
                break;
            }
        }
        return Arrays.copyOf(found, count);
    }

    /** A bare exception type heading a stack trace, or a non-zero exit code. */
    private static boolean isConditional(String head) {
        String trimmed = head.stripTrailing();
        if (trimmed.endsWith("Exception") && trimmed.indexOf(' ') < 0) {
            return true;
        }
        return (head.contains("exit") || head.contains("Exit")) && EXIT.matcher(head).find();
    }

    private static int newlineOrEnd(String text, int at) {
        int newline = text.indexOf('\n', at);
        return newline < 0 ? text.length() : newline;
    }

    private static int lineStart(String text, int at, boolean carriageReturns) {
        int start = text.lastIndexOf('\n', at - 1) + 1;
        if (carriageReturns) {
            for (int i = at - 1; i >= start; i--) {
                if (text.charAt(i) == '\r') {
                    return i + 1;
                }
            }
        }
        return start;
    }

    /** The offset of the line break that ends the line holding {@code at}, or the text's length. */
    public static int lineEnd(String text, int at) {
        int newline = text.indexOf('\n', at);
        int end = newline < 0 ? text.length() : newline;
        for (int i = at; i < end; i++) {
            if (text.charAt(i) == '\r') {
                return i;
            }
        }
        return end;
    }
}
