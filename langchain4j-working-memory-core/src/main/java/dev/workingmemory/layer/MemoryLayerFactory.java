package dev.workingmemory.layer;

/**
 * Creates a layer for one memory (thread-scoped layers) or one resource (resource-scoped layers).
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface MemoryLayerFactory {

    /** The scope of the layers this factory creates; the layer's {@link MemoryLayer#scope()} must match. */
    default LayerScope scope() {
        return LayerScope.THREAD;
    }

    /** A new layer for the memory (or resource) behind {@code context}, guarding its state with that context. */
    MemoryLayer create(LayerContext context);
}
