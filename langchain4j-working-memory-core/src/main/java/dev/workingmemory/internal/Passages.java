package dev.workingmemory.internal;

import dev.workingmemory.crystal.Crystal;

import java.util.ArrayList;
import java.util.List;

/**
 * How a text becomes crystals: the one cutter of past turns, tool outputs and notes (issue 20). A search hit is a
 * passage of at most {@value #MAX_SIZE} by {@link #size}, so that ten hits fit the search's budget of 600 tokens and
 * the sentence that answers is most of its hit; the whole it came from stays readable by the passages' ids
 * ({@code <id>#0}, {@code <id>#1}, ...: {@link #id}, {@link #parentId}).
 *
 * <p>A passage is sized by its tokens as the default estimate counts them ({@link CharsPerTokenEstimator}), not by
 * its characters: a character of Latin text is a quarter of a token, a letter of another alphabet (Cyrillic, Greek,
 * ...) half, a CJK character one. So Latin text is cut as when passages were 320 characters, a Russian passage
 * holds about 170 characters (its spaces count a quarter) and a Japanese or Chinese one about 80: as many hits of
 * them fit the budget as of English (at 320 characters, two Japanese hits filled it). The estimate, not the model's
 * tokenizer, even where the provider has one: a text must be cut the same way by every instance and after a restart
 * (the passages' ids number its pieces).
 *
 * <p>A text is cut where it breaks best within the last half of a passage's room: at a line break, else after a
 * sentence's end ({@code . ? ! ;} before white space, or {@code 。！？}, which no space follows, with a closing
 * quote or bracket after them), else between two values of compact JSON, else at white space, else anywhere but
 * inside a surrogate pair; each piece has its white space (ASCII, as {@code \s} matches) folded into single spaces.
 *
 * <p>Thread-safe (stateless).
 */
public final class Passages {

    /**
     * The most a passage holds by {@link #size}: 320 characters of Latin text (80 tokens). LoCoMo's turns (a sentence
     * or two, 95% under 270 characters) stay whole, a plan or a log of a coding chat gives about one passage per
     * paragraph.
     */
    public static final int MAX_SIZE = 320;
    /** What separates a whole's id from a passage's number. */
    public static final char SEPARATOR = '#';

    private Passages() {
    }

    /**
     * @return the size of {@code text} as passages are measured: its estimated tokens in quarters (a character of Latin
     * text 1, a letter of another alphabet 2, a CJK character 4), at least its length
     */
    public static int size(CharSequence text) {
        return (int) Math.min(Integer.MAX_VALUE, CharsPerTokenEstimator.quarters(text));
    }

    /** @return {@code tags} and {@link Crystal#PIECE}: the tags of each passage of a whole cut into several */
    public static List<String> pieceTags(List<String> tags) {
        if (tags.contains(Crystal.PIECE)) {
            return tags;
        }
        List<String> all = new ArrayList<>(tags.size() + 1);
        all.addAll(tags);
        all.add(Crystal.PIECE);
        return List.copyOf(all);
    }

    /** @return the id of passage {@code n} of the whole with id {@code parentId} */
    public static String id(String parentId, int n) {
        return parentId + SEPARATOR + n;
    }

    /** @return the id of the whole a passage id belongs to (the id itself when it is not a passage's) */
    public static String parentId(String id) {
        int separator = id.lastIndexOf(SEPARATOR);
        if (separator <= 0 || separator == id.length() - 1) {
            return id;
        }
        for (int i = separator + 1; i < id.length(); i++) {
            if (!Character.isDigit(id.charAt(i))) {
                return id;
            }
        }
        return id.substring(0, separator);
    }

    /**
     * The passages of one message or note: the text whole (white space folded) when its {@link #size} is at most
     * {@code max} plus half of it, else {@link #cut} into pieces of at most {@code max}. Cutting a text a little longer
     * than a passage would leave a piece too short to say anything on its own and make half a sentence the hit: on
     * LoCoMo, one evidence turn in eleven is longer than 300 characters, and cut it could never be found whole.
     *
     * @param max at least 20, by {@link #size}
     */
    public static List<String> of(String text, int max) {
        return piecesOf(text, max).texts();
    }

    /**
     * {@link #of} with the {@link #size} of the last piece, for a caller that packs pieces by size: measured once,
     * here, where a text kept whole was measured anyway (a turn's lines are packed as they leave the window).
     *
     * @param max at least 20, by {@link #size}
     */
    public static Pieces piecesOf(String text, int max) {
        Ensure.that(max >= 20, () -> "max must be at least 20, was " + max);
        String whole = fold(text, 0, text.length());
        if (whole.isEmpty()) {
            return new Pieces(List.of(), 0);
        }
        // a text's size is at least its length: a longer one is not measured
        if (whole.length() <= max + max / 2) {
            int size = size(whole);
            if (size <= max + max / 2) {
                return new Pieces(List.of(whole), size);
            }
        }
        List<String> pieces = cut(text, max);
        return new Pieces(pieces, size(pieces.get(pieces.size() - 1)));
    }

    /**
     * The pieces of a text and the {@link #size} of the last one (0 when there is none).
     *
     * @param texts    the pieces, white space folded
     * @param lastSize the size of the last piece
     */
    public record Pieces(List<String> texts, int lastSize) {
    }

    /**
     * Cuts {@code text} into pieces of at most {@code max} by {@link #size}, white space folded (none blank).
     *
     * @param max at least 20, by {@link #size}
     */
    public static List<String> cut(String text, int max) {
        Ensure.that(max >= 20, () -> "max must be at least 20, was " + max);
        List<String> pieces = new ArrayList<>();
        // where each character is a quarter token, the room is max characters: no need to measure piece by piece
        boolean quarterEach = size(text) == text.length();
        int from = skipSpace(text, 0);
        while (from < text.length()) {
            // folding only shrinks a piece (a run of white space becomes one space), so a raw span within max fits
            int end = quarterEach ? Math.min(text.length(), from + max) : room(text, from, max);
            if (end < text.length()) {
                end = breakBefore(text, from, end);
            }
            String piece = fold(text, from, end);
            if (!piece.isEmpty()) {
                pieces.add(piece);
            }
            from = skipSpace(text, end);
        }
        return pieces;
    }

    /**
     * @return the end of the longest span from {@code from} of at most {@code max} by {@link #size}: {@code from + max}
     * for Latin text, as when passages were sized in characters (a surrogate pair may end half in it, as then: the
     * break is chosen before it)
     */
    private static int room(String text, int from, int max) {
        int end = from;
        for (int size = 0; end < text.length(); end++) {
            size += CharsPerTokenEstimator.quarters(text, end);
            if (size > max) {
                break;
            }
        }
        return end;
    }

    /**
     * Cuts {@code text} into spans of at most {@code max} characters as they are (white space kept, blank spans left
     * out), each ending after a line break, else after white space, in the last half of its room when it can: the
     * spans of a tool output, which join back to it.
     *
     * @param max at least 20
     */
    public static List<String> spans(String text, int max) {
        Ensure.that(max >= 20, () -> "max must be at least 20, was " + max);
        List<String> spans = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = Math.min(text.length(), start + max);
            if (end < text.length()) {
                int least = start + max / 2;
                int cut = -1;
                for (int i = end - 1; i > least && cut < 0; i--) {
                    if (text.charAt(i) == '\n') {
                        cut = i + 1;
                    }
                }
                for (int i = end - 1; i > least && cut < 0; i--) {
                    if (isSpace(text.charAt(i))) {
                        cut = i + 1;
                    }
                }
                end = cut > 0 ? cut : Character.isLowSurrogate(text.charAt(end)) ? end - 1 : end;
            }
            String span = text.substring(start, end);
            if (!span.isBlank()) {
                spans.add(span);
            }
            start = end;
        }
        return spans;
    }

    /**
     * The best place to end a piece in {@code [from, end]}: a line break, a sentence's end, between two values of
     * compact JSON, white space, or end.
     */
    private static int breakBefore(String text, int from, int end) {
        int least = from + (end - from) / 2;
        for (int i = end; i > least; i--) {
            if (text.charAt(i) == '\n') {
                return i;
            }
        }
        for (int i = end - 1; i > least; i--) {
            char c = text.charAt(i - 1);
            if ((c == '.' || c == '?' || c == '!' || c == ';') && isSpace(text.charAt(i))
                    || c >= '\u3002' && endsCjkSentence(text, i)) {
                return i;
            }
        }
        // compact JSON: after a value, before the next key or element ("sku":"SKU-1002","name":...), not in a string
        for (int i = end; i > least; i--) {
            char before = text.charAt(i - 1);
            char after = text.charAt(i);
            if ((before == ',' || before == '}' || before == ']') && (after == '"' || after == '{' || after == '[')) {
                return i;
            }
        }
        for (int i = end; i > least; i--) {
            if (isSpace(text.charAt(i))) {
                return i;
            }
        }
        // a run without a break: never split a surrogate pair
        return Character.isLowSurrogate(text.charAt(end)) && end - 1 > from ? end - 1 : end;
    }

    /**
     * Whether a CJK sentence ends before {@code i}: after {@code 。！？} (no space follows them), or after the closing
     * quote or bracket right after one ({@code 「…。」}), not between the two.
     */
    private static boolean endsCjkSentence(String text, int i) {
        char c = text.charAt(i - 1);
        if (isCjkSentenceEnd(c)) {
            return !isClosing(text.charAt(i));
        }
        return isClosing(c) && i >= 2 && isCjkSentenceEnd(text.charAt(i - 2));
    }

    private static boolean isCjkSentenceEnd(char c) {
        return c == '。' || c == '！' || c == '？';
    }

    private static boolean isClosing(char c) {
        int type = Character.getType(c);
        return type == Character.END_PUNCTUATION || type == Character.FINAL_QUOTE_PUNCTUATION;
    }

    private static int skipSpace(String text, int from) {
        while (from < text.length() && isSpace(text.charAt(from))) {
            from++;
        }
        return from;
    }

    /**
     * The white space folded: a space, a control character ({@code \t}, {@code \n}, ...) and the line breaks past
     * ASCII (U+0085, U+2028, U+2029), so that a tool's text folded into a past turn cannot start a line of its own
     * ({@code \u2028user: ...}).
     */
    public static boolean isSpace(char c) {
        // two comparisons for the ASCII characters that are not: every text of a turn is scanned with this
        return c <= ' ' || c >= '\u0085' && (c == '\u0085' || c == '\u2028' || c == '\u2029');
    }

    /** {@code text[from, end)} with each run of white space as one space, trimmed. */
    static String fold(String text, int from, int end) {
        if (isFolded(text, from, end)) {
            return text.substring(from, end); // most messages: no copy char by char
        }
        StringBuilder folded = new StringBuilder(end - from);
        boolean space = false;
        for (int i = from; i < end; i++) {
            char c = text.charAt(i);
            if (isSpace(c)) {
                space = !folded.isEmpty();
            } else {
                if (space) {
                    folded.append(' ');
                    space = false;
                }
                folded.append(c);
            }
        }
        return folded.toString();
    }

    /**
     * Whether {@code text[from, end)} is folded already: no white space at its ends, none but single spaces inside
     * (white space as {@link #isSpace} sees it).
     */
    public static boolean isFolded(String text, int from, int end) {
        if (from == end) {
            return true;
        }
        if (isSpace(text.charAt(from)) || isSpace(text.charAt(end - 1))) {
            return false;
        }
        for (int i = from + 1; i < end - 1; i++) {
            char c = text.charAt(i);
            if (isSpace(c) && (c != ' ' || isSpace(text.charAt(i + 1)))) {
                return false;
            }
        }
        return true;
    }
}
