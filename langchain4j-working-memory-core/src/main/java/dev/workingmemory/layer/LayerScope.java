package dev.workingmemory.layer;

/**
 * Which memories share a layer's state.
 */
public enum LayerScope {
    /** One state per conversation ({@code MemoryKey.thread}). */
    THREAD,
    /** One state per resource, shared by all its threads and copied by {@code fork}. */
    RESOURCE
}
