package dev.workingmemory.slots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The items one message yields, per slot in the order found, without duplicates and at most a cap per slot.
 * Not thread-safe: one per extraction.
 */
final class Found {

    static final String ERROR = "error";
    static final String DECISION = "decision";
    static final String TODO = "todo";
    static final String DEPENDENCY = "dependency";
    static final String POOL = SessionSlots.POOL;

    private final int maxPerSlot;
    private final int maxPool;
    private final int maxItemChars;
    /** The order in which slots are reported: every slot {@link #add} is given is one of these. */
    private static final List<String> ORDER = List.of(ERROR, DEPENDENCY, DECISION, TODO, POOL);
    /** Per slot that has items: normalized text to the item. */
    private final Map<String, Map<String, String>> bySlot = new LinkedHashMap<>(8);

    Found(int maxPerSlot, int maxPool, int maxItemChars) {
        this.maxPerSlot = maxPerSlot;
        this.maxPool = maxPool;
        this.maxItemChars = maxItemChars;
    }

    /** Adds an item unless the slot is full or holds it already; blank text is ignored. */
    void add(String slot, String text) {
        if (text == null) {
            return;
        }
        String item = Texts.item(text, maxItemChars);
        if (item.isEmpty()) {
            return;
        }
        Map<String, String> items = bySlot.computeIfAbsent(slot, s -> new LinkedHashMap<>());
        if (items.size() < (POOL.equals(slot) ? maxPool : maxPerSlot)) {
            items.putIfAbsent(Texts.normalize(item), item);
        }
    }

    /** Adds a file path to the pool, shown as {@link FilePaths#display}. */
    void path(String path) {
        if (path != null && !path.isBlank()) {
            add(POOL, FilePaths.display(path.strip()));
        }
    }

    boolean has(String slot) {
        Map<String, String> items = bySlot.get(slot);
        return items != null && !items.isEmpty();
    }

    List<SessionItem> items() {
        if (bySlot.isEmpty()) {
            return List.of();
        }
        List<SessionItem> all = new ArrayList<>();
        for (String slot : ORDER) {
            Map<String, String> items = bySlot.get(slot);
            if (items != null) {
                items.values().forEach(item -> all.add(new SessionItem(slot, item)));
            }
        }
        return all;
    }
}
