package dev.workingmemory.layer;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.ErrorLines;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a text that request-path analysis reads ({@link LayerContext#maxAnalyzedChars()}): the whole text when
 * it is short enough, else its head, the error lines of the part between ({@code [ERROR]}, {@code FAILED},
 * {@code Exception:}, a non-zero exit code, ...) and its tail. A build log, a traceback or a long message says most at
 * its start and at its end, and a build that fails in its middle says so in an error line there.
 *
 * <p>Thread-safe (stateless).
 */
public final class AnalyzedText {

    /** Error lines read from the part between the head and the tail, the first ones. */
    public static final int MIDDLE_ERROR_LINES = 10;
    /** Characters read of each of those lines. */
    public static final int MIDDLE_LINE_CHARS = 1_000;

    /**
     * The last window found: the layers of one memory read the same huge message one after the other (salience, the
     * session, pruning), so it is found once. Shared by all threads; another thread's text only costs a search. The
     * text is held weakly: a megabyte of tool output is not kept alive for this.
     */
    private static volatile Found last;

    private record Found(WeakReference<String> text, int maxChars, Window window) {
    }

    private AnalyzedText() {
    }

    /**
     * What analysis reads of a text longer than its limit.
     *
     * @param headEnd    the head is {@code [0, headEnd)}
     * @param errorLines the error lines between head and tail, in order, each at most {@link #MIDDLE_LINE_CHARS}
     * @param tailStart  the tail is {@code [tailStart, length)}
     */
    public record Window(int headEnd, List<Span> errorLines, int tailStart) {

        /** Copies {@code errorLines}. */
        public Window {
            errorLines = List.copyOf(errorLines);
        }
    }

    /** Characters {@code [start, end)} of a text. */
    public record Span(int start, int end) {
    }

    /**
     * {@code text} when it has at most {@code maxChars} characters, else its first and last {@code maxChars / 2}
     * characters (each cut at a line break when there is one in its last quarter, so no line is read half) with the
     * error lines between them ({@link #window}), joined by line breaks.
     */
    public static String of(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        Window window = window(text, maxChars);
        StringBuilder out = new StringBuilder(maxChars + 64).append(text, 0, window.headEnd()).append('\n');
        for (Span line : window.errorLines()) {
            out.append(text, line.start(), line.end()).append('\n');
        }
        return out.append(text, window.tailStart(), text.length()).toString();
    }

    /**
     * The head, the first {@link #MIDDLE_ERROR_LINES} error lines between ({@link ErrorLines}) and the tail that
     * {@link #of} reads of a text longer than {@code maxChars}. Finding the error lines reads the part between in one
     * pass ({@link ErrorLines}), a few milliseconds for a megabyte.
     *
     * @throws IllegalArgumentException when the text is not longer than {@code maxChars}
     */
    public static Window window(String text, int maxChars) {
        Ensure.that(text.length() > maxChars, "only a text longer than maxChars is read in parts");
        Found found = last;
        if (found != null && found.text().get() == text && found.maxChars() == maxChars) {
            return found.window();
        }
        Window window = find(text, maxChars);
        last = new Found(new WeakReference<>(text), maxChars, window);
        return window;
    }

    private static Window find(String text, int maxChars) {
        int half = maxChars / 2;
        int headEnd = text.lastIndexOf('\n', half);
        if (headEnd < half / 2) {
            headEnd = half;
        }
        int newline = text.indexOf('\n', text.length() - half);
        int tailStart = newline < 0 || newline > text.length() - half / 2 ? text.length() - half : newline + 1;
        List<Span> errors = new ArrayList<>();
        if (headEnd < tailStart) {
            for (int start : ErrorLines.starts(text, headEnd, tailStart, MIDDLE_ERROR_LINES)) {
                int end = ErrorLines.lineEnd(text, start);
                errors.add(new Span(start, Math.min(end, start + MIDDLE_LINE_CHARS)));
            }
        }
        return new Window(headEnd, errors, tailStart);
    }
}
