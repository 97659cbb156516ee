package dev.workingmemory.layer;

import dev.workingmemory.MemoryKey;

import java.time.Clock;
import java.util.function.Supplier;

/**
 * What a {@link MemoryLayer} gets from the memory that holds it: the lock that guards its state,
 * a way to report changes, and the clock.
 *
 * <p>Each scope ({@link LayerScope}) of a memory has one lock shared by all its layers. A layer
 * reads its state inside {@link #read} and changes it inside {@link #write}, calling
 * {@link #changed()} when something did change: the block is then re-rendered and the scope's
 * state is persisted when the outermost {@code write} ends.
 *
 * <p>Thread-safe.
 */
public interface LayerContext {

    /** The key of the memory that created the layer. For a resource-scoped layer only the resource counts. */
    MemoryKey key();

    /** Runs {@code action} holding the scope's lock. */
    <T> T read(Supplier<T> action);

    /** Runs {@code action} holding the scope's lock and persists the scope afterwards if {@link #changed()} was called. */
    <T> T write(Supplier<T> action);

    /** Marks the layer's state as changed. Call it inside {@link #write}. */
    void changed();

    Clock clock();
}
