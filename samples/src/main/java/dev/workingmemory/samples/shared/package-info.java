/**
 * What the samples share: printing a conversation as it happens ({@link dev.workingmemory.samples.shared.ConversationPrinter},
 * {@link dev.workingmemory.samples.shared.ObservedChatModel}) and reading the {@code <working_memory>} block out of a
 * request the way a model would ({@link dev.workingmemory.samples.shared.WorkingMemoryBlock}).
 */
package dev.workingmemory.samples.shared;
