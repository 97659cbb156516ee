package dev.workingmemory.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Checks of the string arguments the model sends.
 *
 * <p>LangChain4j (1.19) hands a {@code String} tool parameter the {@code toString()} of whatever JSON value
 * the model sent: a number {@code 5} arrives as {@code "5"}, an object {@code {"a":1}} as {@code "{a=1}"}
 * (Java's map notation, the original JSON is lost). A tool cannot see the original type, so this class
 * recognises that map notation: text that starts with <code>{</code>, ends with <code>}</code>, holds
 * {@code key=} right after the brace and is not valid JSON. Real text of that exact shape is rejected
 * too; JSON written as text (<code>{"a": 1}</code>) is valid JSON and accepted.
 *
 * <p>Thread-safe (stateless).
 */
final class Arguments {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern STRINGIFIED_OBJECT = Pattern.compile("\\{[^=\"{}\\[\\]]+=.*}", Pattern.DOTALL);
    private static final int EXCERPT_CHARS = 120;

    private Arguments() {
    }

    /** The argument trimmed, or a {@link ToolInputException} when it is missing or blank. */
    static String required(String value, String name, String fix) {
        if (value == null) {
            throw new ToolInputException("The parameter '" + name + "' is missing.", fix);
        }
        if (value.isBlank()) {
            throw new ToolInputException("The parameter '" + name + "' is empty.", fix);
        }
        return value.strip();
    }

    /** The argument trimmed and lower-cased (names of blocks and operations are matched that way). */
    static String name(String value, String name, String fix) {
        return required(value, name, fix).toLowerCase(Locale.ROOT);
    }

    /**
     * Rejects text that is a JSON object turned into Java's map notation by LangChain4j. (The memory's layers clean
     * what they keep themselves: {@code BlockText.clean}.)
     */
    static String text(String value, String name, String fix) {
        if (value != null && looksLikeStringifiedObject(value)) {
            throw new ToolInputException("The parameter '" + name + "' must be text, but a JSON object was sent (it arrived as "
                    + excerpt(value) + ").", fix);
        }
        return value;
    }

    static boolean looksLikeStringifiedObject(String value) {
        String trimmed = value.strip();
        if (!STRINGIFIED_OBJECT.matcher(trimmed).matches()) {
            return false;
        }
        try {
            JSON.readTree(trimmed);
            return false;
        } catch (JsonProcessingException e) {
            return true;
        }
    }

    /** {@code text} on one line, shortened for a message, in single quotes. */
    static String excerpt(String text) {
        return excerpt(text, EXCERPT_CHARS);
    }

    /** {@code text} on one line, at most {@code maxChars} long (plus an ellipsis), in single quotes. */
    static String excerpt(String text, int maxChars) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return "'" + (oneLine.length() <= maxChars ? oneLine : oneLine.substring(0, maxChars) + "…") + "'";
    }
}
