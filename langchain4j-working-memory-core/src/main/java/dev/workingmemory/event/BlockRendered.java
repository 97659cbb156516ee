package dev.workingmemory.event;

import dev.workingmemory.MemoryKey;

import java.time.Duration;

/**
 * A memory's {@code <working_memory>} block rendered again. Immutable.
 *
 * @param key   the memory
 * @param chars the block's length in characters ({@code 0} when every layer is empty)
 * @param time  how long the layers took to render and fit the budget
 */
public record BlockRendered(MemoryKey key, int chars, Duration time) {
}
