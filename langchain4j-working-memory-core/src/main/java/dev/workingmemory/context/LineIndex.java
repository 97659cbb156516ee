package dev.workingmemory.context;

import java.util.Arrays;

/**
 * Where each line of a text starts and ends, without copying the lines: a 10 MB tool result is read once and only the
 * lines that are shown become strings. Line breaks are {@code \n}, {@code \r\n} or {@code \r}; a final line break
 * does not start another line. Not thread-safe: one per pruning.
 */
final class LineIndex {

    private final String text;
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int count;

    LineIndex(String text) {
        this.text = text;
        int length = text.length();
        int start = 0;
        if (text.indexOf('\r') < 0) {
            // the common case, found with String.indexOf (vectorized by the JVM): several times faster than a char loop
            for (int newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
                add(start, newline);
                start = newline + 1;
            }
        } else {
            for (int i = 0; i < length; i++) {
                char c = text.charAt(i);
                if (c == '\n' || c == '\r') {
                    add(start, i);
                    if (c == '\r' && i + 1 < length && text.charAt(i + 1) == '\n') {
                        i++;
                    }
                    start = i + 1;
                }
            }
        }
        if (start < length || length == 0) {
            add(start, length);
        }
    }

    /** The lines of {@code text} as an index of it would count them, without indexing it. */
    static int count(String text) {
        int length = text.length();
        if (length == 0) {
            return 1;
        }
        int breaks = 0;
        if (text.indexOf('\r') < 0) {
            for (int at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
                breaks++;
            }
        } else {
            for (int i = 0; i < length; i++) {
                char c = text.charAt(i);
                if (c == '\n' || c == '\r' && (i + 1 == length || text.charAt(i + 1) != '\n')) {
                    breaks++;
                }
            }
        }
        char last = text.charAt(length - 1);
        return last == '\n' || last == '\r' ? breaks : breaks + 1;
    }

    /** The line breaks in {@code text[from, to)} ({@code \r\n} is one). */
    static int breaks(String text, int from, int to) {
        int breaks = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
                breaks++;
            }
        }
        return breaks;
    }

    private void add(int start, int end) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
        }
        starts[count] = start;
        ends[count] = end;
        count++;
    }

    int count() {
        return count;
    }

    String text() {
        return text;
    }

    int start(int line) {
        return starts[line];
    }

    int end(int line) {
        return ends[line];
    }

    /** The line holding character {@code offset} of the text (the line before, for an offset in a line break). */
    int lineAt(int offset) {
        int found = Arrays.binarySearch(starts, 0, count, offset);
        return found >= 0 ? found : -found - 2;
    }

    int length(int line) {
        return ends[line] - starts[line];
    }

    String line(int line) {
        return text.substring(starts[line], ends[line]);
    }

    /** The first {@code maxChars} characters of a line: enough to classify it without copying a huge one. */
    String head(int line, int maxChars) {
        return text.substring(starts[line], Math.min(ends[line], starts[line] + maxChars));
    }

    char charAt(int line, int offset) {
        return text.charAt(starts[line] + offset);
    }

    /** The length of the longest line. */
    int longest() {
        int longest = 0;
        for (int i = 0; i < count; i++) {
            longest = Math.max(longest, ends[i] - starts[i]);
        }
        return longest;
    }
}
