/**
 * The context window's side of the memory (seed 003, tiers 3 and 4): {@link dev.workingmemory.context.ToolOutputPruner}
 * shortens tool results for the model by {@link dev.workingmemory.context.PruningMode}.
 */
package dev.workingmemory.context;
