package dev.workingmemory.event;

import dev.workingmemory.MemoryKey;

/**
 * The context pressure of a memory moved to another level. Immutable.
 *
 * @param key     the memory
 * @param from    the level before (such as {@code safe}, {@code moderate}, {@code high})
 * @param to      the level now
 * @param percent how full the context window is, in percent
 */
public record PressureChanged(MemoryKey key, String from, String to, int percent) {
}
