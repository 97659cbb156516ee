package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.internal.Passages;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * The tools {@code memory_search(query, limit)} and {@code memory_read(id, from)}: the model searches its long-term
 * memory — its notes (also archived ones), the turns that left the message window and pruned tool outputs — by meaning
 * and by keyword, in every conversation of its user and never another's (the {@code @ToolMemoryId} names the user),
 * and reads the whole a hit came from.
 *
 * <p>{@code memory_search} answers with the best hits first, each a passage with its date, kind ({@code note},
 * {@code archived_note}, {@code turn}, ...), id and text, within the provider's
 * {@linkplain WorkingMemoryProvider.Builder#searchTokenBudget token budget} (default 600 tokens): {@code limit} hits at
 * most, default {@value #DEFAULT_LIMIT}, at most {@value #MAX_LIMIT}. A hit that a newer hit above it restates (a
 * value that changed) is marked {@code earlier}. An empty or over-long query, a limit outside 1–{@value #MAX_LIMIT}
 * and a search that finds nothing are answered with a text that says so.
 *
 * <p>{@code memory_read} reads the whole exchange (or note, or tool output) of a hit by the hit's id, in pages of
 * {@value #READ_PAGE} passages (about {@value #READ_PAGE}×320 characters), saying where the next page starts.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class MemorySearchTools {

    /** Hits returned when the model gives no limit. */
    public static final int DEFAULT_LIMIT = 5;
    /** The most hits the model may ask for. */
    public static final int MAX_LIMIT = 20;
    /** The tool's name that reads the whole of a hit. */
    public static final String MEMORY_READ = "memory_read";
    /** Passages per page of {@code memory_read}. */
    static final int READ_PAGE = 10;
    private static final String READ_FIX = "Pass the id of a hit of " + WorkingMemoryTools.MEMORY_SEARCH
            + " exactly as it was shown, like {\"id\": \"turn-3fa9c2d14b7e0a51c2d3e4f5a6b7c8d9#2\"}, and optionally"
            + " from, the passage to start at (0 for the first).";

    private static final String FIX = "Call " + WorkingMemoryTools.MEMORY_SEARCH + " again with a few key words, like"
            + " {\"query\": \"API migration deadline\"}, and optionally a limit from 1 to " + MAX_LIMIT + ".";

    private final WorkingMemoryProvider provider;
    private final ZoneId zone;

    /**
     * @param provider the memories to search
     * @throws IllegalArgumentException when {@code provider} was built without crystals
     */
    public MemorySearchTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, MemorySearchTools.class);
        Checks.that(provider.crystalStore().isPresent(), "The WorkingMemoryProvider was built withoutCrystals(), so"
                + " there is no long-term memory to search; WorkingMemoryTools.all(provider) leaves this tool out");
        this.zone = provider.clock().getZone();
    }

    /**
     * The tool {@code memory_search}. Never throws.
     *
     * @return the hits, a text saying that nothing was found, or {@code "Error: … How to fix: …"}
     */
    @Tool(name = WorkingMemoryTools.MEMORY_SEARCH, value = "Searches your long-term memory: the notes you took and"
            + " earlier parts of your conversations with this user that are no longer in view. Use it when the user"
            + " refers to something said before that you do not see, asks what you remember, or when a name, date,"
            + " preference or decision from earlier would help. Finds by meaning and by keyword; returns the best"
            + " matches with their dates, best first.")
    public String memorySearch(
            @ToolMemoryId Object memoryId,
            @P(name = "query", value = "What to look for: a question or a few key words, e.g. \"when is the API"
                    + " migration due\". Name a day (\"on March 3\") to see first what was said that day.")
            String query,
            @P(name = "limit", value = "How many results at most, from 1 to " + MAX_LIMIT + "; default "
                    + DEFAULT_LIMIT + ".", required = false) Integer limit) {
        return ToolRunner.run(WorkingMemoryTools.MEMORY_SEARCH, provider, memoryId, FIX, memory -> {
            String text = Arguments.text(Arguments.required(query, "query", FIX), "query", FIX);
            int max = limit == null ? DEFAULT_LIMIT : limit;
            if (max < 1 || max > MAX_LIMIT) {
                throw new ToolInputException("The limit must be a whole number from 1 to " + MAX_LIMIT + ", was "
                        + limit + ".", FIX);
            }
            return answer(text, memory.search(text, max));
        });
    }

    /**
     * The tool {@code memory_read}. Never throws.
     *
     * @return a page of the whole's passages, a text saying there is no such memory, or {@code "Error: … How to fix: …"}
     */
    @Tool(name = MEMORY_READ, value = "Reads the whole conversation exchange (or note, or tool output) that a hit of"
            + " memory_search came from, when the hit's passage is not enough: pass the hit's id. Returns up to "
            + READ_PAGE + " passages per call, in order; call again with from to read on.")
    public String memoryRead(
            @ToolMemoryId Object memoryId,
            @P(name = "id", value = "The id of a memory_search hit, like turn-3fa9c2d1…#2.") String id,
            @P(name = "from", value = "The passage to start at, counting from 0; default 0.", required = false)
            Integer from) {
        return ToolRunner.run(MEMORY_READ, provider, memoryId, READ_FIX, memory -> {
            String name = Arguments.required(Arguments.text(id, "id", READ_FIX), "id", READ_FIX).strip()
                    .replace("\"", "");
            int first = from == null ? 0 : from;
            if (first < 0) {
                throw new ToolInputException("from must be 0 or more, was " + first + ".", READ_FIX);
            }
            List<Crystal> passages = memory.read(name, first, READ_PAGE + 1);
            if (passages.isEmpty()) {
                return "Nothing in your long-term memory has the id " + Arguments.excerpt(name, 120)
                        + (first > 0 ? " from passage " + first : "") + ". Use an id exactly as " 
                        + WorkingMemoryTools.MEMORY_SEARCH + " showed it.";
            }
            boolean more = passages.size() > READ_PAGE;
            List<Crystal> page = more ? passages.subList(0, READ_PAGE) : passages;
            StringBuilder out = new StringBuilder("Passages ").append(first).append('-')
                    .append(first + page.size() - 1).append(" of ").append(Passages.parentId(name)).append(':');
            for (Crystal passage : page) {
                out.append("\n- ").append(LocalDate.ofInstant(passage.time(), zone)).append(' ')
                        .append(indented(passage.text()));
            }
            if (more) {
                out.append("\n[More: call ").append(MEMORY_READ).append(" with from ").append(first + READ_PAGE)
                        .append(".]");
            } else {
                out.append("\n[End.]");
            }
            return out.toString();
        });
    }

    /** A text of several lines (a passage of a past turn holds a line per message) indented under its item. */
    private static String indented(String text) {
        return text.contains("\n") ? "\n  " + text.replace("\n", "\n  ") : text;
    }

    private String answer(String query, List<MemoryHit> hits) {
        if (hits.isEmpty()) {
            return "Nothing in your long-term memory matches " + Arguments.excerpt(query, 120) + ". Try other"
                    + " words (a name, a date, a key term), or ask the user.";
        }
        StringBuilder out = new StringBuilder("Found ").append(hits.size()).append(hits.size() == 1 ? " memory" : " memories")
                .append(", best first:");
        for (MemoryHit hit : hits) {
            out.append("\n- ").append(LocalDate.ofInstant(hit.time(), zone)).append(" (").append(hit.kind().textName())
                    .append(", id ").append(hit.id());
            if (hit.earlierThan() != null) {
                out.append(", earlier than ").append(hit.earlierThan());
            }
            // a passage of a past turn may hold a line per message: indent them under the hit
            out.append(") ").append(indented(hit.text()));
        }
        boolean cut = hits.stream().anyMatch(hit -> hit.text().contains("…"));
        return out.append("\nRead the whole exchange of a hit").append(cut ? " (… marks what a hit leaves out)" : "")
                .append(" with ").append(MEMORY_READ).append("(id).").toString();
    }
}
