package dev.workingmemory.context;

import dev.workingmemory.crystal.Crystal;

import java.util.List;

/**
 * Where the full outputs of pruned tool results go besides the tool-output cache, so that {@code memory_search} finds
 * them: as crystals of kind {@link dev.workingmemory.crystal.CrystalKind#TOOL_OUTPUT}, one per passage (at most
 * {@code crystalChunkChars}, default 1,500 characters), in the scope of every crystal of the memory's resource
 * ({@link dev.workingmemory.MemoryKey#crystalScope()}). Called on the cache's writer thread, off the request path; a
 * {@code forget} of the memory waits while it runs.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface ToolOutputCrystals {

    /** Keeps no crystals: the cache alone holds the full outputs (the default until a crystal store is wired in). */
    ToolOutputCrystals NONE = chunks -> { };

    /** Keeps the chunks of one full output, in order. */
    void keep(List<Crystal> chunks);
}
