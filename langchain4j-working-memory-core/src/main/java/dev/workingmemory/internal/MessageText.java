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
