package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A crystal pointer (seed 000): one line of the state document telling the model what to search for when the user
 * comes back to a topic that faded into long-term memory.
 * <pre>
 * - Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`
 * </pre>
 * {@link #parse} also reads {@code ->} (and {@code =>}) for the arrow, {@code *} or {@code +} for the bullet, keywords in
 * quotes or bare, and a line without {@code Past:}; {@link #line()} always writes the form above. The topic and the
 * keywords are one line each; backticks are removed from the keywords (they delimit them).
 *
 * <p>Immutable and thread-safe.
 *
 * @param topic    what the topic was, on one line
 * @param keywords what to search for, separated by spaces, on one line and without backticks
 */
public record CrystalPointer(String topic, String keywords) {

    static final Pattern LINE = Pattern.compile(
            "\\s*+(?:[-*+]\\s++)?+(?:\\*\\*)?+(?:Past:)?+(?:\\*\\*)?+\\s*+(.+?)(?<!\\s)\\s*+(?:→|->|=>|⟶)\\s*+(?:\\*\\*)?search:"
                    + "(?:\\*\\*)?\\s*+(.+?)(?<!\\s)\\s*+",
            Pattern.CASE_INSENSITIVE);

    /**
     * Joins each component onto one line and removes the backticks from {@code keywords}; a null or blank component is
     * an {@link IllegalArgumentException}.
     */
    public CrystalPointer {
        topic = oneLine(Ensure.notNull(topic, "topic"));
        keywords = oneLine(Ensure.notNull(keywords, "keywords").replace("`", ""));
        Ensure.that(!topic.isEmpty(), "A pointer's topic must not be blank");
        Ensure.that(!keywords.isEmpty(), "A pointer's keywords must not be blank");
    }

    /** The pointer line, without a line break. */
    public String line() {
        return "- Past: " + topic + " → search: `" + keywords + "`";
    }

    /** The keywords one by one. */
    public List<String> keywordList() {
        return List.of(keywords.split("\\s+"));
    }

    /** Reads a pointer line; empty when {@code line} is not one. */
    public static Optional<CrystalPointer> parse(String line) {
        if (line == null || line.indexOf('\n') >= 0) {
            return Optional.empty();
        }
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return Optional.empty();
        }
        String keywords = unquote(m.group(2));
        String topic = m.group(1).strip();
        if (topic.isEmpty() || keywords.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new CrystalPointer(topic, keywords));
    }

    private static String unquote(String keywords) {
        String k = keywords.strip();
        int close = k.indexOf('`', 1);
        if (k.startsWith("`") && close > 1) { // text after the closing backtick is a remark, not keywords
            return k.substring(1, close).strip();
        }
        while (k.length() >= 2 && isQuote(k.charAt(0)) && isQuote(k.charAt(k.length() - 1))) {
            k = k.substring(1, k.length() - 1).strip();
        }
        return k.replace("`", "");
    }

    private static boolean isQuote(char c) {
        return c == '`' || c == '"' || c == '\'' || c == '“' || c == '”';
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }
}
