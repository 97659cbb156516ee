package dev.workingmemory.internal;

import dev.workingmemory.layer.LayerBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Renders layers into one {@code <working_memory>} block of at most a total number of characters.
 *
 * <p>Each layer renders at its own maximum first. When the sum does not fit, layers are served in
 * priority order: first up to their minimum, then, from what is left, up to what they need; a layer
 * given less than it needs renders again within its share, marking the cut; what it leaves of its share (a
 * layer may fall back to a brief form) goes to the next layer cut. Layers appear in the block in their
 * {@code order}.
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
     * A rendered block: its lines, and for each layer (in the order of the slots rendered) the characters it needed
     * (its part rendered at its own maximum) and those it was given.
     *
     * @param lines  {@code OPEN}, each non-empty layer's part, {@code CLOSE}; empty when every layer is empty. Joined
     *               with {@code "\n"} they are the block; the caller joins them once, together with whatever precedes
     *               the block (see {@link #join}).
     * @param needed per layer, the length of its part at its own maximum
     * @param used   per layer, the length of its part in the block ({@code needed} unless the budget cut it)
     */
    public record Rendered(List<String> lines, int[] needed, int[] used) {
    }

    /**
     * Called holding the locks of every scope the slots belong to.
     *
     * @param slots the layers, sorted by order
     */
    public Rendered render(List<LayerSlot> slots) {
        int count = slots.size();
        String[] parts = new String[count];
        int used = 0;
        int nonEmpty = 0;
        int[] needed = new int[count];
        for (int i = 0; i < count; i++) {
            parts[i] = slots.get(i).renderAtMax();
            needed[i] = parts[i].length();
            if (!parts[i].isEmpty()) {
                used += parts[i].length();
                nonEmpty++;
            }
        }
        if (nonEmpty == 0) {
            return new Rendered(List.of(), needed, needed);
        }
        int available = totalChars - OPEN.length() - CLOSE.length() - nonEmpty - 1;
        if (used > available) {
            fitByPriority(slots, parts, available);
        }
        List<String> lines = new ArrayList<>(count + 2);
        lines.add(OPEN);
        int[] given = needed;
        for (int i = 0; i < count; i++) {
            if (parts[i].length() != needed[i]) {
                if (given == needed) {
                    given = needed.clone();
                }
                given[i] = parts[i].length();
            }
            if (!parts[i].isEmpty()) {
                lines.add(parts[i]);
            }
        }
        lines.add(CLOSE);
        return new Rendered(lines, needed, given);
    }

    /**
     * {@code prefix} (when not {@code null}), an empty line, then {@code lines} one per line: the text of the system
     * message with the block appended, built with a single copy. {@link String#join} sizes the result and picks its
     * coder up front; a {@code StringBuilder} would copy the 6,000 characters of a full block again in
     * {@code toString()} (see benchmarks/README.md).
     */
    public static String join(String prefix, List<String> lines) {
        if (prefix == null) {
            return String.join("\n", lines);
        }
        List<String> all = new ArrayList<>(lines.size() + 2);
        all.add(prefix);
        all.add("");
        all.addAll(lines);
        return String.join("\n", all);
    }

    /** The length of the block {@code lines} make, joined with {@code "\n"}. */
    public static int length(List<String> lines) {
        int length = Math.max(lines.size() - 1, 0);
        for (int i = 0; i < lines.size(); i++) {
            length += lines.get(i).length();
        }
        return length;
    }

    private static void fitByPriority(List<LayerSlot> slots, String[] parts, int available) {
        int[] byPriority = byPriority(slots, parts);
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
        // what a cut layer leaves of its share (a layer may drop to a brief form) goes to the next cut one
        int spare = 0;
        for (int i : byPriority) {
            if (share[i] >= parts[i].length()) {
                continue;
            }
            int room = share[i] + spare;
            if (room >= parts[i].length()) {
                spare = room - parts[i].length();
                continue;
            }
            String cut = room <= 0 ? "" : slots.get(i).renderWithin(room);
            if (cut.length() > room) {
                log.warn("Layer '{}' rendered {} chars within a budget of {}; leaving it out",
                        slots.get(i).layer().name(), cut.length(), room);
                cut = "";
            }
            spare = room - cut.length();
            parts[i] = cut;
        }
    }

    /**
     * The indexes of the non-empty parts, highest priority first, equal priorities in block order. An insertion sort of
     * a handful of ints: this runs on every re-render of a full block.
     */
    private static int[] byPriority(List<LayerSlot> slots, String[] parts) {
        int[] order = new int[parts.length];
        int n = 0;
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty()) {
                continue;
            }
            int priority = slots.get(i).layer().priority();
            int at = n++;
            while (at > 0 && slots.get(order[at - 1]).layer().priority() < priority) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = i;
        }
        return n == order.length ? order : Arrays.copyOf(order, n);
    }
}
