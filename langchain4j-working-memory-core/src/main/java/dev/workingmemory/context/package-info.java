/**
 * The context window's side of the memory (seed 003, tiers 3 and 4): {@link dev.workingmemory.context.ToolOutputPruner}
 * shortens tool results for the model by {@link dev.workingmemory.context.PruningMode};
 * {@link dev.workingmemory.context.ContextPressure} measures every request against the context window, prunes by its
 * {@link dev.workingmemory.context.PressureLevel} and intervenes at high; {@link dev.workingmemory.context.ToolOutputCache}
 * keeps the full outputs and sweeps them (storage governance).
 */
package dev.workingmemory.context;
