package dev.workingmemory.slots;

import dev.workingmemory.internal.EnglishNouns;
import dev.workingmemory.render.BlockText;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renders the session as {@code <session>}: a heading with the item count per non-empty slot, its items, then the
 * best pool items. ASCII only apart from the items' own text, which is escaped. Thread-safe (stateless).
 */
final class SessionText {

    private static final String OPEN = "<" + SessionSlots.NAME + ">";
    private static final String CLOSE = "</" + SessionSlots.NAME + ">";
    /** Smallest room worth showing a cut item in. */
    private static final int MIN_ITEM_CHARS = 40;

    private SessionText() {
    }

    /**
     * @param slots     per slot, its items newest first
     * @param limits    per slot, its limit
     * @param shownPool the pool items to show, best first
     * @param poolSize  how many items the pool holds
     * @param maxChars  the most characters the element may take
     * @return the element, or {@code ""} when there is nothing to show or no room for it
     */
    static String render(Map<String, ? extends List<String>> slots, Map<String, Integer> limits, List<String> shownPool,
                         int poolSize, int maxChars) {
        List<Section> sections = new ArrayList<>();
        slots.forEach((slot, items) -> {
            if (!items.isEmpty()) {
                sections.add(new Section(EnglishNouns.plural(slot) + " (" + items.size() + "/" + limits.get(slot) + "):", items));
            }
        });
        if (!shownPool.isEmpty()) {
            String heading = shownPool.size() < poolSize
                    ? "pool (top " + shownPool.size() + " of " + poolSize + "):"
                    : "pool (" + poolSize + "):";
            sections.add(new Section(heading, shownPool));
        }
        if (sections.isEmpty()) {
            return "";
        }
        int total = sections.stream().mapToInt(s -> s.items().size()).sum();
        StringBuilder out = new StringBuilder(Math.min(maxChars, 4096)).append(OPEN);
        int shown = 0;
        sections:
        for (Section section : sections) {
            String heading = "\n" + section.heading();
            boolean headed = false;
            for (String item : section.items()) {
                String line = line(item);
                int needed = (headed ? 0 : heading.length()) + line.length();
                int left = total - shown - 1;
                if (!fits(out, needed, left, maxChars)) {
                    if (shown == 0) {
                        // not even the first item fits whole: show its start rather than nothing
                        int room = maxChars - out.length() - heading.length() - closing(left);
                        String cut = room >= MIN_ITEM_CHARS ? BlockText.fit(line, room) : "";
                        if (!cut.isEmpty()) {
                            out.append(heading).append(cut);
                            shown++;
                        }
                    }
                    break sections;
                }
                if (!headed) {
                    out.append(heading);
                    headed = true;
                }
                out.append(line);
                shown++;
            }
        }
        if (shown == 0) {
            return "";
        }
        if (shown < total) {
            out.append(cutCount(total - shown));
        }
        return out.append('\n').append(CLOSE).toString();
    }

    /** Whether {@code length} more characters fit, leaving room for the close tag and the cut marker of later items. */
    private static boolean fits(StringBuilder out, int length, int itemsAfter, int maxChars) {
        return out.length() + length + closing(itemsAfter) <= maxChars;
    }

    /** The characters the element still needs after its items: the cut marker of {@code itemsAfter} items and the close tag. */
    private static int closing(int itemsAfter) {
        return (itemsAfter > 0 ? cutCount(itemsAfter).length() : 0) + 1 + CLOSE.length();
    }

    private static String cutCount(int items) {
        return "\n[... " + items + (items == 1 ? " item" : " items") + " cut]";
    }

    private static String line(String item) {
        return "\n- " + BlockText.escape(item).replace("\n", "\n  ");
    }

    private record Section(String heading, List<String> items) {
    }
}
