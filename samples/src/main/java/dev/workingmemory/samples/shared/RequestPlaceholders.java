package dev.workingmemory.samples.shared;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the scripted model of a replay reads what it is sent, so that it says only what the memory and the tools gave it:
 * <ul>
 *   <li>{@code {{block:REGEX}}} the first group of {@code REGEX} in the {@code <working_memory>} block (a note, a
 *   line of the state document);</li>
 *   <li>{@code {{pointer:WORD}}} the search keywords of the state's crystal pointer whose topic mentions
 *   {@code WORD} ({@code - Past: <topic> → search: `<keywords>`});</li>
 *   <li>{@code {{result:REGEX}}} the first group of {@code REGEX} in the last tool result of this turn.</li>
 * </ul>
 * A placeholder the request cannot answer throws {@link IllegalStateException}: the memory did not do its job.
 * Thread-safe (stateless).
 */
public final class RequestPlaceholders implements ScriptedModel.Placeholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(block|pointer|result):(.+?)}}");
    private static final Pattern POINTER = Pattern.compile("^- Past: (.*) → search: `([^`]+)`$", Pattern.MULTILINE);

    @Override
    public String resolve(String template, ChatRequest request, BiConsumer<String, String> onResolved) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String value = switch (matcher.group(1)) {
                case "block" -> group(matcher.group(2), block(request), "the <working_memory> block");
                case "pointer" -> pointerKeywords(matcher.group(2), block(request));
                default -> group(matcher.group(2), lastToolResult(request), "the last tool result");
            };
            onResolved.accept(matcher.group(), value);
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static String block(ChatRequest request) {
        return WorkingMemoryBlock.unescape(WorkingMemoryBlock.of(WorkingMemoryBlock.systemText(request)));
    }

    private static String group(String regex, String text, String where) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        if (!matcher.find()) {
            throw new IllegalStateException("The scripted model found no /" + regex + "/ in " + where + ":\n"
                    + (text.isEmpty() ? "(nothing)" : text));
        }
        return matcher.groupCount() == 0 ? matcher.group() : matcher.group(1).strip();
    }

    private static String pointerKeywords(String word, String block) {
        Matcher pointer = POINTER.matcher(block);
        while (pointer.find()) {
            if (pointer.group(1).toLowerCase().contains(word.toLowerCase())) {
                return pointer.group(2);
            }
        }
        throw new IllegalStateException("The scripted model found no pointer about '" + word
                + "' in the state of the block:\n" + (block.isEmpty() ? "(none)" : block));
    }

    /** The text of the last tool result after the request's last user message, or "". */
    private static String lastToolResult(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage message = messages.get(i);
            if (message instanceof ToolExecutionResultMessage result) {
                return result.text();
            }
            if (message instanceof UserMessage) {
                break;
            }
        }
        return "";
    }
}
