package dev.workingmemory.internal;

import dev.workingmemory.layer.LayerBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Renders layers into one {@code <working_memory>} block of at most a total number of characters.
 *
 * <p>Each layer renders at its own maximum first. When the sum does not fit, layers are served in
 * priority order: first up to their minimum, then, from what is left, up to what they need; a layer
 * given less than it needs renders again within its share, marking the cut. Layers appear in the
 * block in their {@code order}.
 *
 * <p>Thread-safe (stateless); the layers' rendering caches live in their {@link LayerSlot}s.
 */
public final class BlockRenderer {

    public static final String OPEN = "<working_memory>";
    public static final String CLOSE = "</working_memory>";
    private static final Logger log = LoggerFactory.getLogger(BlockRenderer.class);

    private final int totalChars;

    public BlockRenderer(int totalChars) {
        this.totalChars = Ensure.positive(totalChars, "totalChars");
    }

    public int totalChars() {
        return totalChars;
    }

    /**
     * @param slots the layers, sorted by order
     * @return the block, or {@code ""} when every layer is empty
     */
    public String render(List<LayerSlot> slots) {
        int count = slots.size();
        String[] parts = new String[count];
        int used = 0;
        int nonEmpty = 0;
        for (int i = 0; i < count; i++) {
            parts[i] = slots.get(i).renderAtMax();
            if (!parts[i].isEmpty()) {
                used += parts[i].length();
                nonEmpty++;
            }
        }
        if (nonEmpty == 0) {
            return "";
        }
        int available = totalChars - OPEN.length() - CLOSE.length() - nonEmpty - 1;
        if (used > available) {
            fitByPriority(slots, parts, available);
        }
        return joinLines(parts);
    }

    /**
     * {@code OPEN}, the non-empty parts and {@code CLOSE}, one per line. {@link String#join} sizes the result and
     * picks its coder up front; a {@code StringBuilder} holding a non-Latin-1 character (the {@code …} of a cut
     * marker) would first try to compress all its characters in {@code toString()}, a cost that showed up in every
     * re-render (see benchmarks/README.md).
     */
    private static String joinLines(String[] parts) {
        String[] lines = new String[parts.length + 2];
        int n = 0;
        lines[n++] = OPEN;
        for (String part : parts) {
            if (!part.isEmpty()) {
                lines[n++] = part;
            }
        }
        lines[n++] = CLOSE;
        return String.join("\n", n == lines.length ? lines : Arrays.copyOf(lines, n));
    }

    private static void fitByPriority(List<LayerSlot> slots, String[] parts, int available) {
        List<Integer> byPriority = new ArrayList<>(slots.size());
        for (int i = 0; i < slots.size(); i++) {
            if (!parts[i].isEmpty()) {
                byPriority.add(i);
            }
        }
        byPriority.sort(Comparator.comparingInt((Integer i) -> slots.get(i).layer().priority()).reversed());
        int[] share = new int[slots.size()];
        int left = Math.max(available, 0);
        for (int i : byPriority) {
            LayerBudget budget = slots.get(i).layer().budget();
            share[i] = Math.min(left, Math.min(parts[i].length(), budget.minChars()));
            left -= share[i];
        }
        for (int i : byPriority) {
            int more = Math.min(left, parts[i].length() - share[i]);
            share[i] += more;
            left -= more;
        }
        for (int i : byPriority) {
            if (share[i] >= parts[i].length()) {
                continue;
            }
            String cut = share[i] <= 0 ? "" : slots.get(i).renderWithin(share[i]);
            if (cut.length() > share[i]) {
                log.warn("Layer '{}' rendered {} chars within a budget of {}; leaving it out",
                        slots.get(i).layer().name(), cut.length(), share[i]);
                cut = "";
            }
            parts[i] = cut;
        }
    }
}
