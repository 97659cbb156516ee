package dev.workingmemory.internal;

import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;

import java.util.List;

/**
 * The text of a message whose contents may be more than one text: a user's message with an image, or a tool's result
 * with one (LangChain4j 1.19 makes a tool that returns an {@code Image}, a {@code Content} or a list of them into
 * such a result). Their {@code text()} throws for those, so every layer reads them here: the text parts, one per
 * line; what is not text (an image, audio, a file) is left out.
 *
 * <p>Thread-safe (stateless).
 */
public final class MessageText {

    /** The starts of what {@code AiServices} appends to a user's text (LangChain4j 1.19's own templates). */
    private static final List<String> APPENDED = List.of(
            "\nYou must answer strictly ", // ServiceOutputParser, before every output format
            "\n\nAnswer using the following information:\n"); // DefaultContentInjector's default prompt

    private MessageText() {
    }

    /** @return the result's text parts, one per line; {@code ""} when it has none */
    public static String of(ToolExecutionResultMessage result) {
        return of(result.contents());
    }

    /** @return the message's text parts, one per line; {@code ""} when it has none */
    public static String of(UserMessage user) {
        return of(user.contents());
    }

    /**
     * What the user said: the message's text parts without what {@code AiServices} appends to them, which is
     * LangChain4j's own text, the same in every message (the output format of a method that returns a type, "\nYou must
     * answer strictly …"; the retrieved contents of the default content injector, "\n\nAnswer using the following
     * information:\n…"). Cut at the first of those; the message sent to the model keeps them.
     *
     * @return the text, {@code ""} when it has none
     */
    public static String said(UserMessage user) {
        String text = of(user);
        int end = text.length();
        for (String appended : APPENDED) {
            int at = text.indexOf(appended);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return end == text.length() ? text : text.substring(0, end);
    }

    /** @return how many of {@code contents} are not text (an image, audio, a file); 0 for null */
    public static int partsOtherThanText(List<Content> contents) {
        int others = 0;
        if (contents != null) {
            for (Content content : contents) {
                others += content instanceof TextContent ? 0 : 1;
            }
        }
        return others;
    }

    private static String of(List<Content> contents) {
        if (contents == null) {
            return "";
        }
        if (contents.size() == 1 && contents.get(0) instanceof TextContent only) {
            return only.text() == null ? "" : only.text();
        }
        StringBuilder out = new StringBuilder();
        for (Content content : contents) {
            if (content instanceof TextContent text && text.text() != null) {
                if (!out.isEmpty()) {
                    out.append('\n');
                }
                out.append(text.text());
            }
        }
        return out.toString();
    }
}
