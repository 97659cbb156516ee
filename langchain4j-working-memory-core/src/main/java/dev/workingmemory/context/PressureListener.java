package dev.workingmemory.context;

/**
 * Told when the memory intervened because a request reached {@link PressureLevel#HIGH}. Called on the thread that
 * asked for the messages, holding the memory's lock, so it must be quick and must not use the same memory; an
 * exception it throws is logged, never passed on.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface PressureListener {

    /** Listens to nothing. */
    PressureListener NONE = event -> { };

    /** The memory intervened on one request; {@code event} says how. */
    void intervened(PressureEvent event);
}
