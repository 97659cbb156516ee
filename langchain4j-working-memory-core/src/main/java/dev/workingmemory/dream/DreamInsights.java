package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.List;

/**
 * What a dream learns about a resource besides its notes and crystals: the salience levels now, the most frequent
 * entities (one-line texts, most frequent first) and items of the session slots.
 *
 * <p>Immutable and thread-safe.
 *
 * @param salience  the salience levels now
 * @param entities  the most frequent entities, most frequent first, as one-line texts
 * @param slotItems items of the session slots, as one-line texts
 */
public record DreamInsights(SalienceLevels salience, List<String> entities, List<String> slotItems) {

    /** Nothing known: levels at zero, no entities, no slot items. */
    public static final DreamInsights NONE = new DreamInsights(SalienceLevels.NONE, List.of(), List.of());

    /** Rejects a null component with an {@link IllegalArgumentException} and copies the lists. */
    public DreamInsights {
        Ensure.notNull(salience, "salience");
        entities = List.copyOf(Ensure.notNull(entities, "entities"));
        slotItems = List.copyOf(Ensure.notNull(slotItems, "slotItems"));
    }
}
