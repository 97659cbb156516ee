/**
 * The scratchpad layer: free-text or structured (JSON, optionally schema-validated) notes the agent
 * rewrites every turn, rendered as {@code <scratchpad>…</scratchpad>} in the working memory block.
 * Entry points: {@link dev.workingmemory.scratchpad.ScratchpadConfig} and
 * {@link dev.workingmemory.scratchpad.Scratchpad#factory(ScratchpadConfig)}.
 */
package dev.workingmemory.scratchpad;
