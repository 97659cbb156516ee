package dev.workingmemory.context;

import dev.workingmemory.crystal.Crystal;

import java.util.List;

/**
 * Where the full outputs of pruned tool results go besides the tool-output cache, so that {@code memory_search} finds
 * them: as crystals of kind {@link dev.workingmemory.crystal.CrystalKind#TOOL_OUTPUT}, one per chunk of about 1,500
 * characters, scoped to the memory's resource. Called when an output is first cached, on the thread that prunes it:
 * it must not wait for embedding (a {@link dev.workingmemory.crystal.CrystalStore#add} only queues).
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
