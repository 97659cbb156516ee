package dev.workingmemory.store;

import java.util.List;
import java.util.Optional;

/**
 * Where working memories keep their state between uses and restarts.
 *
 * <p>The state under a key is a JSON document with a version. {@link #save} is a compare-and-set:
 * it succeeds only when the stored version is the one the caller read, so two writers never
 * silently overwrite each other.
 *
 * <p>Keys are arbitrary strings (any characters, any length); an implementation maps them to its
 * storage safely. Implementations must be thread-safe. Failures are reported as
 * {@link WorkingMemoryStoreException}.
 */
public interface WorkingMemoryStore {

    /**
     * @return the latest snapshot under {@code key}, or empty when nothing was saved (or it was deleted)
     */
    Optional<Snapshot> load(String key);

    /**
     * Saves {@code document} under {@code key} if the stored version equals {@code expectedVersion}.
     *
     * @param expectedVersion the version last loaded or saved, {@code 0} when the key is expected to be absent
     * @return the saved snapshot, whose version is {@code expectedVersion + 1}
     * @throws VersionConflictException when the stored version differs
     */
    Snapshot save(String key, long expectedVersion, String document);

    /**
     * The version of the latest snapshot under {@code key}, {@code 0} when there is none. A cached memory calls it
     * before each use to notice that another application instance saved its state, so implementations should
     * answer it more cheaply than {@link #load} where they can. It may lag behind a save made at the same moment:
     * the compare-and-set of {@link #save}, not this method, is what keeps two writers from losing updates.
     */
    default long version(String key) {
        return load(key).map(Snapshot::version).orElse(0L);
    }

    /**
     * Removes the state under {@code key}; does nothing when there is none.
     */
    void delete(String key);

    /**
     * @return every key with a saved state, in no particular order
     */
    List<String> keys();
}
