package dev.workingmemory.event;

import java.time.Duration;

/**
 * A batch of crystals embedded and indexed. Immutable.
 *
 * @param count how many crystals
 * @param time  how long embedding and indexing took
 */
public record CrystalsIndexed(int count, Duration time) {
}
