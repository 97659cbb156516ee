package dev.workingmemory.render;

/**
 * Text helpers for layers rendering into the {@code <working_memory>} block.
 *
 * <p>Thread-safe (stateless).
 */
public final class BlockText {

    private BlockText() {
    }

    /**
     * Escapes text that came from users, tools or the model so that it can never open, close or
     * forge a tag of the block: {@code &}, {@code <} and {@code >} become entities.
     */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        // indexOf is vectorized: three scans of a short name cost less than one loop over its chars
        int i = firstOf(text.indexOf('&'), firstOf(text.indexOf('<'), text.indexOf('>')));
        if (i < 0) {
            return text;
        }
        int length = text.length();
        StringBuilder out = new StringBuilder(length + 16).append(text, 0, i);
        for (; i < length; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * {@link #escape} for text shown as one line of the block (an entity's name): line breaks, the Unicode line and
     * paragraph separators and other control characters become spaces, so that the text cannot add a line that
     * reads like the block's own (another entity, a guidance line).
     */
    public static String escapeLine(String text) {
        String escaped = escape(text);
        int length = escaped.length();
        for (int i = 0; i < length; i++) {
            if (breaksLine(escaped.charAt(i))) {
                StringBuilder out = new StringBuilder(length).append(escaped, 0, i);
                for (; i < length; i++) {
                    char c = escaped.charAt(i);
                    out.append(breaksLine(c) ? ' ' : c);
                }
                return out.toString();
            }
        }
        return escaped;
    }

    private static boolean breaksLine(char c) {
        return c < ' ' || c == '\u007f' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    /** The smaller of two {@code indexOf} results, where -1 means not found. */
    private static int firstOf(int a, int b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /**
     * Cuts {@code text} to at most {@code maxChars} characters, ending it with a marker that says
     * how much was cut. Returns {@code text} itself when it fits, and {@code ""} when not even the
     * marker fits.
     */
    public static String fit(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        // The marker's length depends on the number it holds; the cut count has at most as many digits as the length.
        String longestMarker = cutMarker(text.length());
        int keep = maxChars - longestMarker.length();
        if (keep <= 0) {
            return "";
        }
        if (Character.isHighSurrogate(text.charAt(keep - 1))) {
            keep--;
        }
        return text.substring(0, keep) + cutMarker(text.length() - keep);
    }

    /** The marker that ends a cut text. ASCII on purpose: one non-Latin-1 char makes Java store the whole block in UTF-16. */
    public static String cutMarker(int charsCut) {
        return "\n[... " + charsCut + " chars cut]";
    }

    /** Wraps {@code body} in {@code <name>…</name>}, or returns {@code ""} when {@code body} is empty. */
    public static String element(String name, String body) {
        if (body.isEmpty()) {
            return "";
        }
        return "<" + name + ">" + body + "</" + name + ">";
    }
}
