package dev.workingmemory.event;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.entity.Entity;

import java.util.List;

/**
 * Entities moved to the front of a memory's entities, the first most recent. Immutable.
 *
 * @param key      the memory
 * @param entities the entities tracked, in the order they came
 */
public record EntityTracked(MemoryKey key, List<Entity> entities) {

    /** Copies {@code entities}. */
    public EntityTracked {
        entities = List.copyOf(entities);
    }
}
