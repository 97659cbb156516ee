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
     * The memory's one rule for the characters of what it writes for the model and keeps for it: the text without
     * controls, bidi embedding controls and unpaired surrogates. The memory applies it to every layer's rendering
     * (so the {@code <working_memory>} block never carries them, whatever a layer holds), to the answers of its tools,
     * to the dream prompt's data, and to text as it enters the memory (a note, a core memory block, the scratchpad, a
     * dream's state), so that the in-memory, file and PostgreSQL stores all hold the same text and a file written as
     * UTF-8 keeps it exactly. The messages of the conversation are never changed by it.
     *
     * <ul>
     *   <li>Line feed and tab stay. CR LF, a lone CR and NEL (U+0085) become one line feed: they are line breaks.</li>
     *   <li>Every other C0 control (NUL, ESC, BEL, …), DEL and C1 control (U+0080–U+009F) is <b>removed</b>, and so
     *   are the bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069). Removed rather than
     *   replaced: they carry no text. A terminal shows {@code ESC[31m} around a word as colour, not as a character,
     *   and a bidi override only reorders what a reader sees (the model reads the logical order anyway), so a
     *   replacement character or a space in their place would add marks that were never part of the text, and split
     *   words a reader sees whole. An ESC or C1 introducer that starts a complete ECMA-48 escape sequence goes with
     *   it (colours and cursor moves {@code ESC[1;31m}, a title or a hyperlink's target {@code ESC]8;;url ESC\}), so
     *   that coloured build output reads as its plain text.</li>
     *   <li>An unpaired UTF-16 surrogate becomes U+FFFD, the replacement character: it has no UTF-8 form, and a
     *   UTF-8 encoder (a model client's JSON, a file) would otherwise silently write {@code ?} or fail. Pairs stay.</li>
     * </ul>
     * Everything else stays, zero-width and other format characters included. The result is never longer than
     * {@code text} (so a layer's rendering stays within its budget), applying it again changes nothing, and
     * {@code text} itself is returned when nothing changes.
     *
     * @return the cleaned text; {@code null} for {@code null}
     */
    public static String clean(String text) {
        if (text == null) {
            return null;
        }
        int length = text.length();
        int i = 0;
        while (i < length) {
            char c = text.charAt(i);
            if (c >= ' ' && c < '\u007f' || c == '\n' || c == '\t') {
                i++; // the common case first: printable ASCII
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                i += 2;
            } else if (isRemovedOrReplaced(c)) {
                break;
            } else {
                i++;
            }
        }
        if (i == length) {
            return text;
        }
        StringBuilder out = new StringBuilder(length).append(text, 0, i);
        for (; i < length; i++) {
            char c = text.charAt(i);
            if (c == '\r') {
                out.append('\n');
                if (i + 1 < length && text.charAt(i + 1) == '\n') {
                    i++;
                }
            } else if (c == '\u0085') {
                out.append('\n');
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
            } else if (c == '\u001b' || c >= '\u0090' && c <= '\u009f') {
                i = sequenceEnd(text, i) - 1; // the whole escape sequence, or the control alone
            } else if (c == '\n' || c == '\t' || !isRemovedOrReplaced(c)) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The end of the ECMA-48 escape sequence starting at {@code start} (an ESC or a C1 introducer), or
     * {@code start + 1} when no complete one starts there: a control sequence ({@code ESC [} or CSI, parameter and
     * intermediate bytes, a final byte: colours, cursor moves), a control string ({@code ESC ]}, {@code ESC P},
     * {@code ESC X}, {@code ESC ^}, {@code ESC _} or their C1 forms, up to BEL or ST within {@value #MAX_CONTROL_STRING}
     * characters: a window title, a hyperlink's target) or another escape ({@code ESC (B}, {@code ESC M}).
     */
    private static int sequenceEnd(String text, int start) {
        int length = text.length();
        char c = text.charAt(start);
        int j = start + 1;
        boolean controlSequence = c == '\u009b';
        boolean controlString = c == '\u0090' || c == '\u0098' || c == '\u009d' || c == '\u009e' || c == '\u009f';
        if (c == '\u001b') {
            if (j == length) {
                return j;
            }
            char next = text.charAt(j);
            controlSequence = next == '[';
            controlString = next == ']' || next == 'P' || next == 'X' || next == '^' || next == '_';
            if (!controlSequence && !controlString) {
                while (j < length && text.charAt(j) >= 0x20 && text.charAt(j) <= 0x2f) {
                    j++;
                }
                return j < length && text.charAt(j) >= 0x30 && text.charAt(j) <= 0x7e ? j + 1 : start + 1;
            }
            j++;
        }
        if (controlSequence) {
            while (j < length && text.charAt(j) >= 0x30 && text.charAt(j) <= 0x3f) {
                j++;
            }
            while (j < length && text.charAt(j) >= 0x20 && text.charAt(j) <= 0x2f) {
                j++;
            }
            return j < length && text.charAt(j) >= 0x40 && text.charAt(j) <= 0x7e ? j + 1 : start + 1;
        }
        if (controlString) {
            int limit = (int) Math.min(length, (long) j + MAX_CONTROL_STRING);
            for (; j < limit; j++) {
                char d = text.charAt(j);
                if (d == '\u0007' || d == '\u009c') {
                    return j + 1;
                }
                if (d == '\u001b') {
                    return j + 1 < length && text.charAt(j + 1) == '\\' ? j + 2 : start + 1;
                }
            }
        }
        return start + 1;
    }

    /** The longest control string removed whole (a hyperlink's target is one): past it, its introducer alone goes. */
    private static final int MAX_CONTROL_STRING = 4_096;

    /** A control (other than line feed and tab, asked before), a bidi embedding control or a surrogate. */
    private static boolean isRemovedOrReplaced(char c) {
        return c < ' ' || c >= '\u007f' && c <= '\u009f' || c >= '\u202a' && c <= '\u202e'
                || c >= '\u2066' && c <= '\u2069' || Character.isSurrogate(c);
    }

    /**
     * {@link #escape} of the {@link #clean cleaned} text, for text shown as one line of the block (an entity's name):
     * line breaks, the Unicode line and paragraph separators and tabs become spaces, so that the text cannot add a line
     * that reads like the block's own (another entity, a guidance line).
     */
    public static String escapeLine(String text) {
        String escaped = escape(clean(text));
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
