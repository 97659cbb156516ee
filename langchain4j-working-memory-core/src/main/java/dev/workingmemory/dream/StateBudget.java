package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.render.BlockBudget;

import java.util.ArrayList;
import java.util.List;

/**
 * The size of the state document for a model's context window, and the cut of a state that is over it.
 *
 * <p>Seed 000's table: 200K tokens and more → 8,000 characters; 128K → 6,000; 64K → 4,000; 32K → 3,200; a window
 * between two rows gets the lower row's budget. Below 32K the state gets what {@link BlockBudget} gives the whole
 * block there (a tenth of the window's tokens in characters, at least 800): the table is the same as the block's above
 * 32K, so the state keeps the same rule below it.
 *
 * <p>Thread-safe (stateless).
 */
public final class StateBudget {

    /** The last line of a state cut to its budget (seed 000). */
    public static final String TRUNCATION_MARKER = "[Full working memory available via memory_search]";
    /** The last line of a state cut to its budget, shown to a model that has no {@code memory_search}. */
    public static final String CUT_MARKER = "[Working memory cut to its budget]";

    private StateBudget() {
    }

    /** The state document's budget in characters for a context window of {@code contextWindowTokens}. */
    public static int forContextWindow(int contextWindowTokens) {
        return BlockBudget.forContextWindow(contextWindowTokens);
    }

    /**
     * {@code text} itself when it fits in {@code maxChars}; otherwise its first lines, cut at a line boundary (and
     * without a heading left with nothing under it), followed by a blank line and {@value #TRUNCATION_MARKER}. The
     * result never exceeds {@code maxChars}; it is the marker alone when not even a first line fits with it, and
     * {@code ""} when the marker does not fit.
     */
    public static String fit(String text, int maxChars) {
        return fit(text, maxChars, TRUNCATION_MARKER);
    }

    /** {@link #fit(String, int)} ending a cut state with {@code marker}. */
    public static String fit(String text, int maxChars, String marker) {
        Ensure.notNull(text, "text");
        Ensure.notNegative(maxChars, "maxChars");
        Ensure.notBlank(marker, "marker");
        if (text.length() <= maxChars) {
            return text;
        }
        if (marker.length() > maxChars) {
            return "";
        }
        int room = maxChars - marker.length() - 2; // "\n\n" before the marker
        List<String> kept = new ArrayList<>();
        int used = 0;
        for (String line : StateLines.lines(text)) {
            int cost = line.length() + (kept.isEmpty() ? 0 : 1);
            if (used + cost > room) {
                break;
            }
            kept.add(line);
            used += cost;
        }
        while (!kept.isEmpty() && (kept.get(kept.size() - 1).isBlank() || isHeading(kept.get(kept.size() - 1)))) {
            kept.remove(kept.size() - 1);
        }
        return kept.isEmpty() ? marker : String.join("\n", kept) + "\n\n" + marker;
    }

    private static boolean isHeading(String line) {
        return line.startsWith("#") && !line.startsWith("#!");
    }
}
