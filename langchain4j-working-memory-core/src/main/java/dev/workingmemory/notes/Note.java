package dev.workingmemory.notes;

import dev.workingmemory.internal.Ensure;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A note the agent took (seed 000's scratch buffer): a time to the second, an importance from 0 to 1, tags and a text.
 * One note is one line of the notes log:
 * <pre>
 * - [2026-03-12T14:30:00Z] (importance: 0.8) User's name is Douglas, prefers tabs over spaces
 * - [2026-03-12T14:45:00Z] (importance: 0.9; tags: decision, architecture) Use PostgreSQL for the event store
 * </pre>
 * A line break in the text ({@code \n}, {@code \r\n}, {@code \r}, U+0085, U+2028, U+2029) is written as {@code \n}
 * and a backslash as {@code \\}, so a note stays one line and reads back with {@code \n} for each break. Tags are
 * lower case letters, digits, {@code -} and {@code _}. Importance is kept to two decimals.
 *
 * <p>Immutable and thread-safe.
 *
 * @param time       when the note was taken, kept to the second
 * @param importance 0 to 1, kept to two decimals
 * @param tags       1 to 40 characters each of {@code a-z}, digits, {@code -} and {@code _} (lower-cased, trimmed and
 *                   made distinct); may be empty
 * @param text       the note, not blank
 */
public record Note(Instant time, double importance, List<String> tags, String text) {

    private static final Pattern LINE = Pattern.compile(
            "- \\[([0-9T:.\\-+Z]+)] \\(importance: ([0-9]+(?:\\.[0-9]+)?)(?:; tags: ([\\p{L}\\p{M}\\p{N}_\\-, ]*))?\\) (.+)",
            Pattern.DOTALL); // a line an earlier version wrote with a U+2028 in its text is still read
    /** Letters and digits of any script (a conversation in Japanese may tag in Japanese), '-' and '_'. */
    private static final Pattern TAG = Pattern.compile("[\\p{L}\\p{M}\\p{N}_\\-]{1,40}");

    /**
     * Normalizes the components as described above; a null component, an importance outside 0–1, a bad tag or a
     * blank text is an {@link IllegalArgumentException}.
     */
    public Note {
        Ensure.notNull(time, "time");
        time = time.truncatedTo(ChronoUnit.SECONDS);
        Ensure.that(importance >= 0 && importance <= 1 && !Double.isNaN(importance),
                "importance must be between 0 and 1, was " + importance);
        importance = Math.round(importance * 100) / 100.0;
        Ensure.notNull(tags, "tags");
        tags = tags.stream().map(Note::tag).distinct().toList();
        Ensure.notNull(text, "text");
        Ensure.that(!text.isBlank(), "text must not be blank");
    }

    /**
     * {@code tag} in lower case, trimmed; rejected when it holds other characters than letters and digits (of any
     * script), - and _, or more than 40.
     */
    static String tag(String tag) {
        Ensure.that(tag != null, "A tag is 1 to 40 letters, digits, '-' or '_', was null");
        String normalized = tag.strip().toLowerCase(Locale.ROOT);
        Ensure.that(TAG.matcher(normalized).matches(),
                "A tag is 1 to 40 letters, digits, '-' or '_', was '" + tag + "'");
        return normalized;
    }

    /** The line of the notes log. */
    public String line() {
        StringBuilder line = new StringBuilder(text.length() + 64)
                .append("- [").append(time).append("] (importance: ").append(importanceText());
        if (!tags.isEmpty()) {
            line.append("; tags: ").append(String.join(", ", tags));
        }
        line.append(") ");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '\n', '\u0085', '\u2028', '\u2029' -> line.append("\\n");
                case '\r' -> {
                    if (i + 1 == text.length() || text.charAt(i + 1) != '\n') {
                        line.append("\\n"); // a lone CR breaks a line; of CR LF the LF writes the break
                    }
                }
                default -> line.append(c);
            }
        }
        return line.toString();
    }

    /** The importance as the log writes it: {@code 0.8}, {@code 0.75}, {@code 1}. */
    public String importanceText() {
        return BigDecimal.valueOf(importance).stripTrailingZeros().toPlainString();
    }

    /** Whether the note has any of {@code tags}. */
    public boolean hasAnyTag(java.util.Collection<String> tags) {
        for (String tag : this.tags) {
            if (tags.contains(tag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A stable id for the note's crystal: the same line gives the same id in every instance and after a restart, so
     * indexing a note again replaces its crystal.
     */
    public String crystalId() {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(line().getBytes(StandardCharsets.UTF_8));
            return "note-" + HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** Reads a line of the notes log; empty when it is not a note in this format. */
    public static Optional<Note> parse(String line) {
        if (line == null) {
            return Optional.empty();
        }
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            Instant time = Instant.parse(m.group(1));
            double importance = Double.parseDouble(m.group(2));
            List<String> tags = m.group(3) == null || m.group(3).isBlank() ? List.of()
                    : List.of(m.group(3).split(",")).stream().filter(t -> !t.isBlank()).map(Note::tag).toList();
            String text = unescape(m.group(4));
            if (text.isBlank() || importance > 1) {
                return Optional.empty();
            }
            return Optional.of(new Note(time, importance, tags, text));
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String unescape(String escaped) {
        if (escaped.indexOf('\\') < 0) {
            return escaped;
        }
        StringBuilder text = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            char next = i + 1 < escaped.length() ? escaped.charAt(i + 1) : 0;
            if (c == '\\' && (next == 'n' || next == '\\')) {
                text.append(next == 'n' ? '\n' : '\\');
                i++;
            } else { // a backslash typed by hand, as in C:\temp, stays
                text.append(c);
            }
        }
        return text.toString();
    }
}
