package dev.workingmemory.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.entity.Entity;

import java.util.ArrayList;
import java.util.List;

/**
 * The state and payloads the benchmarks share: a working memory with a "full state" (10 entities, the
 * three core blocks near their limits, a 1 KB scratchpad) and realistic tool results.
 *
 * <p>Every text is built anew on each call, so that memories filled with it share no strings (the idle
 * memory footprint would be understated otherwise).
 */
final class Fixtures {

    /** The window of both memories in the per-turn benchmark, in messages besides the system message. */
    static final int WINDOW = 20;

    static final String SYSTEM_PROMPT = "You are a CMS assistant. You edit pages, sections and images with the tools "
            + "you are given. Answer briefly and say what you changed.";

    /** The tool of the per-turn benchmark. */
    static final String TOOL = "cms_getPage";

    private static final String WORDS = "the hero section of the landing page needs a shorter headline and a new "
            + "call to action that points at the pricing page while the footer keeps its links to legal and "
            + "contact pages and the images get alt texts that describe them for screen readers ";

    private Fixtures() {
    }

    /** {@code length} characters of English-looking text, starting with {@code tag}; a new string each call. */
    static String text(String tag, int length) {
        StringBuilder out = new StringBuilder(length).append(tag).append(": ");
        int i = 0;
        while (out.length() < length) {
            out.append(WORDS.charAt(i++ % WORDS.length()));
        }
        out.setLength(length);
        return out.toString();
    }

    /**
     * Fills {@code memory} with the full state of the benchmarks: core blocks at 95% of their limits
     * (goal 950/1000, progress 1900/2000, context 1425/1500), a 1,024-character scratchpad and 10 entities.
     * The most recent entity is {@code Entity("page-0", "Home", "page")}, the one {@link #pageResult(int)
     * pageResult(0)} yields.
     */
    static void fill(WorkingMemory memory, String tag) {
        memory.coreMemory().replace("goal", text(tag + " goal", 950));
        memory.coreMemory().replace("progress", text(tag + " progress", 1900));
        memory.coreMemory().replace("context", text(tag + " context", 1425));
        memory.scratchpad().update(text(tag + " scratchpad", 1024));
        memory.entityMemory().track(entities(tag));
    }

    /** Ten entities of four types, {@code page-0} first (most recent). */
    static List<Entity> entities(String tag) {
        List<Entity> entities = new ArrayList<>(10);
        entities.add(new Entity(new String("page-0"), new String("Home"), "page"));
        entities.add(new Entity("sec-" + tag + "-1", "Hero " + tag, "section"));
        entities.add(new Entity("img-" + tag + "-1", "Team photo " + tag, "image"));
        entities.add(new Entity("page-" + tag + "-2", "Pricing " + tag, "page"));
        entities.add(new Entity("sec-" + tag + "-2", "Testimonials " + tag, "section"));
        entities.add(new Entity("post-" + tag + "-1", "Launch announcement " + tag, "post"));
        entities.add(new Entity("page-" + tag + "-3", "About Us " + tag, "page"));
        entities.add(new Entity("img-" + tag + "-2", "Office map " + tag, "image"));
        entities.add(new Entity("sec-" + tag + "-3", "Footer " + tag, "section"));
        entities.add(new Entity("page-" + tag + "-4", "Contact " + tag, "page"));
        return entities;
    }

    /** What {@code cms_getPage} returns for page {@code n}: about 400 characters, one page entity. */
    static String pageResult(int n) {
        String title = n == 0 ? "Home" : "Landing page " + n;
        return "{\"success\":true,\"page\":{\"id\":\"page-" + n + "\",\"title\":\"" + title + "\",\"slug\":\"landing-" + n
                + "\",\"status\":\"published\",\"updatedAt\":\"2026-03-12T14:30:00Z\",\"sections\":["
                + "{\"id\":\"sec-" + n + "-a\",\"heading\":\"Hero\",\"type\":\"hero\"},"
                + "{\"id\":\"sec-" + n + "-b\",\"heading\":\"Features\",\"type\":\"grid\"},"
                + "{\"id\":\"sec-" + n + "-c\",\"heading\":\"Pricing\",\"type\":\"table\"}],"
                + "\"seo\":{\"description\":\"The page that greets visitors and points them at pricing.\"}}}";
    }

    static ToolExecutionRequest request(int n) {
        return ToolExecutionRequest.builder().id("call-" + n).name(TOOL).arguments("{\"id\":\"page-" + n + "\"}").build();
    }

    static AiMessage toolCall(ToolExecutionRequest request) {
        return AiMessage.from(request);
    }

    static ToolExecutionResultMessage toolResult(ToolExecutionRequest request, String text) {
        return ToolExecutionResultMessage.from(request, text);
    }
}
