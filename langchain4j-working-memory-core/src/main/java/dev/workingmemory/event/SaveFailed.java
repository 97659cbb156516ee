package dev.workingmemory.event;

import dev.workingmemory.layer.LayerScope;

/**
 * Saving the state of one scope (a thread or a resource) to the {@code WorkingMemoryStore} failed. Immutable.
 *
 * @param storeKey the key the state is stored under
 * @param scope    whether it is a thread's or a resource's state
 * @param error    why
 */
public record SaveFailed(String storeKey, LayerScope scope, Throwable error) {
}
