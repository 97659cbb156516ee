package dev.workingmemory;

import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.internal.BlockRenderer;
import dev.workingmemory.internal.MemorySearch;

import java.time.Clock;

/**
 * What every memory of one provider shares: where messages go, how the block is rendered, the clock, and how requests
 * are measured against the model's context window. Immutable.
 *
 * @param saveMessagesOnChange whether every change of a window goes to {@code chatMemoryStore} at once, rather than when
 *                             the memory is evicted or closed
 * @param search               searches the long-term memory; null when the provider keeps no crystals
 */
record MemorySettings(ChatMemoryStore chatMemoryStore, boolean saveMessagesOnChange, BlockRenderer renderer, Clock clock,
                      TokenCountEstimator tokenCountEstimator, int contextWindow, MemorySearch search) {
}
