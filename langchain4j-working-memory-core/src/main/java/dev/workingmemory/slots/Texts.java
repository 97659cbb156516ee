package dev.workingmemory.slots;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.workingmemory.internal.MessageText;
import dev.workingmemory.layer.AnalyzedText;
import dev.workingmemory.render.BlockText;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Text helpers of the session layer and its extractor. Thread-safe (stateless).
 */
final class Texts {

    private Texts() {
    }

    /** The text an item is compared by: lower case, whitespace collapsed, trailing punctuation dropped. */
    static String normalize(String content) {
        String collapsed = collapseWhitespace(content).toLowerCase(Locale.ROOT);
        int end = collapsed.length();
        while (end > 0 && ".,;:!".indexOf(collapsed.charAt(end - 1)) >= 0) {
            end--;
        }
        return collapsed.substring(0, end).strip();
    }

    /** {@code text} on one line: runs of whitespace (line breaks included) become one space. */
    static String collapseWhitespace(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                space = out.length() > 0;
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * An extracted text as an item: {@link BlockText#clean cleaned} (an item holds what the block shows, so that
     * {@code working_memory_remove} finds it by that text), on one line, the symbols build tools print in place of
     * ASCII replaced (so the block stays Latin-1), at most {@code maxChars} long (cut with {@code "..."}).
     */
    static String item(String text, int maxChars) {
        String line = collapseWhitespace(asciiSymbols(BlockText.clean(text)));
        if (line.length() <= maxChars) {
            return line;
        }
        int keep = maxChars - 3;
        if (Character.isHighSurrogate(line.charAt(keep - 1))) {
            keep--;
        }
        return line.substring(0, keep) + "...";
    }

    private static String asciiSymbols(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = switch (c) {
                case '\u203A', '\u276F', '\u25B6' -> ">";
                case '\u2039' -> "<";
                case '\u25CF', '\u2022' -> "*";
                case '\u2713', '\u2714' -> "ok";
                case '\u2715', '\u2716', '\u2717', '\u2718' -> "x";
                case '\u2502', '\u2503' -> "|";
                case '\u2014', '\u2013', '\u2500' -> "-";
                case '\u2018', '\u2019' -> "'";
                case '\u201C', '\u201D' -> "\"";
                case '\u2026' -> "...";
                default -> null;
            };
            if (replacement != null && out == null) {
                out = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }

    /** {@code text} as analysis reads it: whole up to {@code maxChars}, else its head and tail ({@link AnalyzedText#of}). */
    static String window(String text, int maxChars) {
        return AnalyzedText.of(text, maxChars);
    }

    /**
     * {@code message} as the session analyses it: itself when its text ({@link #of}) has at most {@code maxChars}
     * characters, else a message of the same kind with that text's head and tail ({@link AnalyzedText#of}).
     */
    static ChatMessage analysed(ChatMessage message, int maxChars) {
        if (message instanceof AiMessage ai) { // its text without the tool calls' arguments, which are short
            return ai.text() == null || ai.text().length() <= maxChars ? ai
                    : AiMessage.from(AnalyzedText.of(ai.text(), maxChars));
        }
        String text = of(message);
        if (text.length() <= maxChars) {
            return message;
        }
        if (message instanceof ToolExecutionResultMessage result) {
            return ToolExecutionResultMessage.from(result.id(), result.toolName(), AnalyzedText.of(text, maxChars));
        }
        return message instanceof UserMessage ? UserMessage.from(AnalyzedText.of(text, maxChars)) : message;
    }

    /** Whether {@code text} holds one of {@code strings}. */
    static boolean containsAny(String text, List<String> strings) {
        for (String string : strings) {
            if (text.contains(string)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code text} starts with one of {@code prefixes}. */
    static boolean startsWithAny(String text, List<String> prefixes) {
        for (String prefix : prefixes) {
            if (text.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Where the line that starts at {@code start} ends: its {@code \n}, or the text's end. */
    static int lineEnd(String text, int start) {
        int end = text.indexOf('\n', start);
        return end < 0 ? text.length() : end;
    }

    /** The lines of {@code text}, without their line breaks ({@code \n}, {@code \r\n} or {@code \r}). */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                lines.add(text.substring(start, i));
                if (c == '\r' && i + 1 < length && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < length) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    /**
     * The text a message carries: what a user said ({@link MessageText#said}), the model's text and the arguments of
     * the tools it calls, a tool's result. {@code ""} for anything else. A tool's result or a user's text holding an
     * escape character is {@link BlockText#clean cleaned}: coloured output (a build's {@code ESC[1;31m[ERROR]ESC[m})
     * reads as its plain text, as a developer sees it.
     */
    static String of(ChatMessage message) {
        if (message instanceof ToolExecutionResultMessage result) {
            return plain(MessageText.of(result));
        }
        if (message instanceof UserMessage user) {
            return plain(MessageText.said(user));
        }
        if (message instanceof AiMessage ai) {
            StringBuilder out = new StringBuilder(ai.text() == null ? "" : ai.text());
            if (ai.hasToolExecutionRequests()) {
                for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
                    if (request.arguments() != null) {
                        out.append('\n').append(request.arguments());
                    }
                }
            }
            return out.toString();
        }
        return "";
    }

    /** {@code text} without escape sequences when it holds an ESC (most results do not: one look at each). */
    private static String plain(String text) {
        return text.indexOf('\u001b') < 0 ? text : BlockText.clean(text);
    }

    /** Whether {@code c} can be part of a word or identifier. */
    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Whether {@code needle} occurs in {@code text} with no word character right before or after it. */
    static boolean containsWord(String text, String needle) {
        if (needle.isEmpty()) {
            return false;
        }
        int from = 0;
        while (true) {
            int at = text.indexOf(needle, from);
            if (at < 0) {
                return false;
            }
            int end = at + needle.length();
            boolean startOk = at == 0 || !isWordChar(text.charAt(at - 1)) || !isWordChar(needle.charAt(0));
            boolean endOk = end == text.length() || !isWordChar(text.charAt(end))
                    || !isWordChar(needle.charAt(needle.length() - 1));
            if (startOk && endOk) {
                return true;
            }
            from = at + 1;
        }
    }
}
