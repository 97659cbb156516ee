package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * The tool {@code memory_search(query, limit)}: the model searches its long-term memory — its notes (also archived
 * ones) and the turns that left the message window — by meaning and by keyword, in every conversation of its user
 * and never another's (the {@code @ToolMemoryId} names the user).
 *
 * <p>Answers with the best hits first, each with its date, kind ({@code note}, {@code archived_note}, {@code turn},
 * ...) and text, within the provider's {@linkplain WorkingMemoryProvider.Builder#searchTokenBudget token budget}
 * (default 600 tokens): {@code limit} hits at most, default {@value #DEFAULT_LIMIT}, at most {@value #MAX_LIMIT}. An
 * empty or over-long query, a limit outside 1–{@value #MAX_LIMIT} and a search that finds nothing are answered with a
 * text that says so.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class MemorySearchTools {

    /** Hits returned when the model gives no limit. */
    public static final int DEFAULT_LIMIT = 5;
    /** The most hits the model may ask for. */
    public static final int MAX_LIMIT = 20;

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
                    + " migration due\".") String query,
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

    private String answer(String query, List<MemoryHit> hits) {
        if (hits.isEmpty()) {
            return "Nothing in your long-term memory matches " + Arguments.excerpt(query, 120) + ". Try other"
                    + " words (a name, a date, a key term), or ask the user.";
        }
        StringBuilder out = new StringBuilder("Found ").append(hits.size()).append(hits.size() == 1 ? " memory" : " memories")
                .append(", best first:");
        for (MemoryHit hit : hits) {
            out.append("\n- ").append(LocalDate.ofInstant(hit.time(), zone)).append(" (").append(hit.kind().textName())
                    .append(") ");
            // a past turn holds one line per message: indent them under the hit
            out.append(hit.text().contains("\n") ? "\n  " + hit.text().replace("\n", "\n  ") : hit.text());
        }
        return out.toString();
    }
}
