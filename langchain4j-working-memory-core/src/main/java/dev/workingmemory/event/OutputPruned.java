package dev.workingmemory.event;

import dev.workingmemory.MemoryKey;

/**
 * A tool output pruned before the model saw it. Immutable.
 *
 * @param key         the memory
 * @param toolName    the tool whose output it was
 * @param mode        the pruning mode ({@code NORMAL}, {@code AGGRESSIVE}, {@code HYPER})
 * @param charsBefore the output's length before pruning
 * @param charsAfter  its length after
 */
public record OutputPruned(MemoryKey key, String toolName, String mode, int charsBefore, int charsAfter) {
}
