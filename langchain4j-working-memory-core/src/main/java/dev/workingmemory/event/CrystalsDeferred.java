package dev.workingmemory.event;

/**
 * Crystals added while the indexer was behind by its whole queue: a store with a directory recorded them and indexes
 * them from its records later, without holding them in memory; a store in memory keeps them queued beyond its bound.
 * Either way the caller did not wait. Immutable.
 *
 * @param count how many crystals
 */
public record CrystalsDeferred(int count) {
}
