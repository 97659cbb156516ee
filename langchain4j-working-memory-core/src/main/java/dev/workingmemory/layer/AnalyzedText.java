package dev.workingmemory.layer;

/**
 * The part of a text that request-path analysis reads ({@link LayerContext#maxAnalyzedChars()}): the whole text when
 * it is short enough, else its head and its tail. A build log, a traceback or a long message says most at its start
 * and at its end.
 *
 * <p>Thread-safe (stateless).
 */
public final class AnalyzedText {

    private AnalyzedText() {
    }

    /**
     * {@code text} when it has at most {@code maxChars} characters, else its first and last {@code maxChars / 2}
     * characters (each cut at a line break when there is one in its last quarter, so no line is read half), joined by a
     * line break.
     */
    public static String of(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        int half = maxChars / 2;
        int headEnd = text.lastIndexOf('\n', half);
        if (headEnd < half / 2) {
            headEnd = half;
        }
        int newline = text.indexOf('\n', text.length() - half);
        int tailStart = newline < 0 || newline > text.length() - half / 2 ? text.length() - half : newline + 1;
        return text.substring(0, headEnd) + "\n" + text.substring(tailStart);
    }
}
