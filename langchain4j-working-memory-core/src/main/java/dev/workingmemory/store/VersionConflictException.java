package dev.workingmemory.store;

/**
 * Thrown by {@link WorkingMemoryStore#save} when the stored version is not the expected one:
 * somebody else saved the key in between.
 *
 * <p>Immutable, so thread-safe.
 */
public class VersionConflictException extends WorkingMemoryStoreException {

    private static final long serialVersionUID = 1L;

    /** The store key that was saved. */
    private final String key;
    /** The version the save expected. */
    private final long expectedVersion;
    /** The version the store holds. */
    private final long actualVersion;

    /**
     * A conflict on {@code key}: the save expected {@code expectedVersion}, the store holds {@code actualVersion}
     * ({@code 0} when the key is absent).
     */
    public VersionConflictException(String key, long expectedVersion, long actualVersion) {
        super("Version conflict on key '" + key + "': expected version " + expectedVersion
                + " but the store holds version " + actualVersion);
        this.key = key;
        this.expectedVersion = expectedVersion;
        this.actualVersion = actualVersion;
    }

    /** The store key that was saved. */
    public String key() {
        return key;
    }

    /** The version the save expected: the one last loaded or saved, {@code 0} when the key was expected to be absent. */
    public long expectedVersion() {
        return expectedVersion;
    }

    /** The version the store holds; {@code 0} when the key is absent. */
    public long actualVersion() {
        return actualVersion;
    }
}
