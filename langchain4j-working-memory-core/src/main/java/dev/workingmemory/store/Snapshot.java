package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;

/**
 * One stored version of the state under a key.
 *
 * <p>Immutable and thread-safe.
 *
 * @param key      the store key
 * @param version  the version, {@code 1} for the first save, incremented by each save
 * @param document the state as a JSON text
 */
public record Snapshot(String key, long version, String document) {

    /** Rejects a null {@code key} or {@code document} or a {@code version} below 1 with an {@link IllegalArgumentException}. */
    public Snapshot {
        Ensure.notNull(key, "key");
        Ensure.that(version > 0, "version must be positive, was " + version);
        Ensure.notNull(document, "document");
    }
}
