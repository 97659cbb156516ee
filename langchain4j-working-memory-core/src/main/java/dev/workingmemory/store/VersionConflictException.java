package dev.workingmemory.store;

/**
 * Thrown by {@link WorkingMemoryStore#save} when the stored version is not the expected one:
 * somebody else saved the key in between.
 */
public class VersionConflictException extends WorkingMemoryStoreException {

    private final String key;
    private final long expectedVersion;
    private final long actualVersion;

    public VersionConflictException(String key, long expectedVersion, long actualVersion) {
        super("Version conflict on key '" + key + "': expected version " + expectedVersion
                + " but the store holds version " + actualVersion);
        this.key = key;
        this.expectedVersion = expectedVersion;
        this.actualVersion = actualVersion;
    }

    public String key() {
        return key;
    }

    public long expectedVersion() {
        return expectedVersion;
    }

    /** The version the store holds; {@code 0} when the key is absent. */
    public long actualVersion() {
        return actualVersion;
    }
}
