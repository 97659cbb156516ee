package dev.workingmemory.samples.shared;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.entity.Entity;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code <working_memory>} block the way a model would: out of the system message of a request.
 *
 * <p>The scripted model of the replay uses it to resolve "it" and "the About Us page" from the entities the
 * block lists, instead of knowing the ids beforehand. Thread-safe (stateless).
 */
public final class WorkingMemoryBlock {

    private static final String OPEN = "<working_memory>";
    private static final String CLOSE = "</working_memory>";
    private static final Pattern ENTITIES = Pattern.compile("<entities>(.*?)</entities>", Pattern.DOTALL);
    private static final Pattern GROUP = Pattern.compile("^([^\\s\"].*):$");
    private static final Pattern ITEM = Pattern.compile("^ {2}- \"(.*)\" \\((.*)\\)$");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)(?:\\.(name)|:([^}]+))?}}");

    private WorkingMemoryBlock() {
    }

    /** The text of the request's (first) system message, or {@code ""}. */
    public static String systemText(ChatRequest request) {
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage system) {
                return system.text();
            }
        }
        return "";
    }

    /** The {@code <working_memory>…</working_memory>} part of {@code systemText}, or {@code ""} when there is none. */
    public static String of(String systemText) {
        // The library appends the block to the system message; search from the end so that a prompt
        // mentioning the tag is not mistaken for the block.
        int end = systemText.lastIndexOf(CLOSE);
        int start = end < 0 ? -1 : systemText.lastIndexOf(OPEN, end);
        return start < 0 ? "" : systemText.substring(start, end + CLOSE.length());
    }

    /**
     * The entities listed in the block's {@code <entities>} element, in the order listed (most recent first
     * within a type). The type is the group header as written ({@code pages}, {@code images}).
     */
    public static List<Entity> entities(String block) {
        List<Entity> entities = new ArrayList<>();
        Matcher element = ENTITIES.matcher(block);
        if (!element.find()) {
            return entities;
        }
        String group = null;
        for (String line : element.group(1).split("\n")) {
            Matcher item = ITEM.matcher(line);
            if (item.matches() && group != null) {
                entities.add(new Entity(unescape(item.group(2)), unescape(item.group(1)), group));
                continue;
            }
            Matcher header = GROUP.matcher(line);
            group = header.matches() ? unescape(header.group(1)) : null;
        }
        return entities;
    }

    /**
     * Replaces each placeholder in {@code template} with what the block says:
     * {@code {{page}}} the id of the most recent page, {@code {{page.name}}} its name,
     * {@code {{page:About Us}}} the id of the most recent page named "About Us".
     *
     * @throws IllegalStateException when the block lists no such entity: then the working memory did not do its job
     */
    public static String resolve(String template, String block) {
        return resolve(template, block, (placeholder, value) -> {
        });
    }

    /** Like {@link #resolve(String, String)}, telling {@code onResolved} each placeholder and its value. */
    public static String resolve(String template, String block, BiConsumer<String, String> onResolved) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        if (!matcher.find()) {
            return template;
        }
        List<Entity> entities = entities(block);
        StringBuilder out = new StringBuilder();
        do {
            String type = matcher.group(1);
            String name = matcher.group(3);
            Entity entity = entities.stream()
                    .filter(e -> isGroupOf(e.type(), type))
                    .filter(e -> name == null || e.name().equalsIgnoreCase(name.strip()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("The scripted model cannot resolve " + matcher.group()
                            + ": the <working_memory> block it was sent lists no such " + type + ".\nBlock:\n"
                            + (block.isEmpty() ? "(none)" : block)));
            String value = matcher.group(2) != null ? entity.name() : entity.id();
            onResolved.accept(matcher.group(), value);
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        } while (matcher.find());
        matcher.appendTail(out);
        return out.toString();
    }

    private static boolean isGroupOf(String group, String type) {
        return group.equals(type) || group.equals(type + "s") || group.equals(type + "es")
                || (type.endsWith("y") && group.equals(type.substring(0, type.length() - 1) + "ies"));
    }

    /** The text with the block's XML escapes ({@code &lt; &gt; &amp;}) undone, as a model reads it. */
    public static String unescape(String text) {
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}
