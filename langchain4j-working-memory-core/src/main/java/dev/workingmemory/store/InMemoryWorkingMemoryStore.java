package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link WorkingMemoryStore} that keeps snapshots in a map; nothing survives the JVM.
 *
 * <p>The default store when none is configured, and the reference implementation of the store
 * contract. Documents are returned exactly as they were saved.
 *
 * <p>Thread-safe: {@link #save} is an atomic compare-and-set per key
 * ({@link ConcurrentHashMap#compute}).
 */
public final class InMemoryWorkingMemoryStore implements WorkingMemoryStore {

    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();

    public InMemoryWorkingMemoryStore() {
    }

    @Override
    public Optional<Snapshot> load(String key) {
        Ensure.notNull(key, "key");
        return Optional.ofNullable(snapshots.get(key));
    }

    @Override
    public Snapshot save(String key, long expectedVersion, String document) {
        Ensure.notNull(key, "key");
        Ensure.that(expectedVersion >= 0, "expectedVersion must not be negative, was " + expectedVersion);
        Ensure.notNull(document, "document");
        // The exception thrown inside compute leaves the mapping unchanged.
        return snapshots.compute(key, (k, current) -> {
            long actualVersion = current == null ? 0 : current.version();
            if (actualVersion != expectedVersion) {
                throw new VersionConflictException(k, expectedVersion, actualVersion);
            }
            return new Snapshot(k, expectedVersion + 1, document);
        });
    }

    @Override
    public long version(String key) {
        Ensure.notNull(key, "key");
        Snapshot snapshot = snapshots.get(key);
        return snapshot == null ? 0 : snapshot.version();
    }

    @Override
    public void delete(String key) {
        Ensure.notNull(key, "key");
        snapshots.remove(key);
    }

    @Override
    public List<String> keys() {
        return List.copyOf(snapshots.keySet());
    }
}
