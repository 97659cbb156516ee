package dev.workingmemory.tools;

import dev.workingmemory.layer.MemoryLayer;

/**
 * A bean of tools that serve one layer, and are offered to a model only where that layer acts
 * ({@link MemoryLayer#active()}): see {@link WorkingMemoryTools#toolProvider}.
 */
interface LayerTools {

    /** The layer whose state the tools read and write. */
    Class<? extends MemoryLayer> layer();
}
