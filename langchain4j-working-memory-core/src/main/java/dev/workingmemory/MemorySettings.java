package dev.workingmemory;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.internal.BlockRenderer;
import dev.workingmemory.internal.MemorySearch;
import dev.workingmemory.internal.UnpausedThreads;

import java.time.Clock;
import java.time.Duration;

/**
 * What every memory of one provider shares: how the block is rendered, the clock, and how requests are measured against
 * the model's context window. Immutable.
 *
 * @param search searches the long-term memory; null when the provider keeps no crystals
 * @param pauseAfter how long a conversation goes without a message before its layers are told it paused
 * @param unpaused   where the threads not told of a pause since their last message are marked
 */
record MemorySettings(BlockRenderer renderer, Clock clock,
                      TokenCountEstimator tokenCountEstimator, int contextWindow, MemorySearch search,
                      Duration pauseAfter, UnpausedThreads unpaused) {
}
