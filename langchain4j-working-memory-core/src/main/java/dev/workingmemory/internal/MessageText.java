package dev.workingmemory.internal;

import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.input.PromptTemplate;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.service.output.ServiceOutputParser;

import java.lang.reflect.Type;
import java.util.ArrayList;
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

    /**
     * The starts of what {@code AiServices} appends to a user's text, read from LangChain4j itself so that they follow
     * its version: the words its {@code ServiceOutputParser} puts before every output format ("\nYou must answer
     * strictly "), and what the default template of its {@code DefaultContentInjector} puts between the user's text
     * and the retrieved contents ("\n\nAnswer using the following information:\n"). An application's own injector
     * template is not known here: its contents stay in what the user said unless the application keeps them out of the
     * memory ({@code AiServices.storeRetrievedContentInChatMemory(false)}, the README's "Using with RAG").
     */
    private static final List<String> APPENDED = appended();

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

    private static List<String> appended() {
        List<String> appended = new ArrayList<>(2);
        String format = outputFormatStart();
        if (!format.isBlank()) {
            appended.add(format);
        }
        String beforeContents = beforeContents(DefaultContentInjector.DEFAULT_PROMPT_TEMPLATE);
        if (!beforeContents.isBlank()) {
            appended.add(beforeContents);
        }
        return List.copyOf(appended);
    }

    /**
     * What {@code template} puts between the user's text and the contents, when the user's text opens it and the
     * contents follow; {@code ""} otherwise (text put before the user's would be taken for the user's).
     */
    static String beforeContents(PromptTemplate template) {
        String text = template.template();
        String user = "{{userMessage}}";
        int contents = text.indexOf("{{contents}}");
        return text.startsWith(user) && contents > user.length() ? text.substring(user.length(), contents) : "";
    }

    /** The words every output format instruction of {@code ServiceOutputParser} starts with. */
    private static String outputFormatStart() {
        ServiceOutputParser parser = new ServiceOutputParser();
        String common = null;
        // a JSON object, an enum, a number, a boolean: each format its own, their common start LangChain4j's words
        for (Type type : List.<Type>of(Shape.class, Thread.State.class, Integer.class, Boolean.class)) {
            String instructions = parser.outputFormatInstructions(type);
            common = common == null ? instructions : commonStart(common, instructions);
        }
        return common == null || !common.startsWith("\n") ? "" : common;
    }

    /** A type whose output format is a JSON object. */
    private record Shape(String text) {
    }

    private static String commonStart(String a, String b) {
        int length = 0;
        while (length < Math.min(a.length(), b.length()) && a.charAt(length) == b.charAt(length)) {
            length++;
        }
        return a.substring(0, length);
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
