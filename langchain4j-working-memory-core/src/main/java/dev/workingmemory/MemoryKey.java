package dev.workingmemory;

import dev.workingmemory.internal.DirectoryNames;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Utf16;

import java.util.Optional;

/**
 * Identifies one working memory: a {@code resource} (a user, a tenant, an agent) and a
 * {@code thread} (one conversation of that resource).
 *
 * <p>Resource-scoped state (a resource-scoped scratchpad, later the state document and notes) is
 * shared by every thread of the resource; thread-scoped state (entities, core blocks, the message
 * window) belongs to one thread. Pass a {@code MemoryKey} as the {@code @MemoryId} to choose both;
 * any other memory id is mapped by the provider's key mapper (by default to
 * {@code MemoryKey.of(String.valueOf(id))}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param resource the resource: a user, a tenant or an agent; not null
 * @param thread   the conversation of that resource; not null
 */
public record MemoryKey(String resource, String thread) {

    /** The thread name used when a memory id names only a resource. */
    public static final String DEFAULT_THREAD = "default";
    private static final String RESOURCE_PREFIX = "resource:";
    private static final String THREAD_PREFIX = "thread:";
    /** The longest resource used as its crystal scope as it is (a crystal scope has at most 1,000 characters). */
    private static final int MAX_PLAIN_SCOPE_LENGTH = 900;

    /** Rejects a null {@code resource} or {@code thread} with an {@link IllegalArgumentException}. */
    public MemoryKey {
        Ensure.notNull(resource, "resource");
        Ensure.notNull(thread, "thread");
    }

    /** A key for the default thread of {@code resource}. */
    public static MemoryKey of(String resource) {
        return new MemoryKey(resource, DEFAULT_THREAD);
    }

    /** A key for the thread {@code thread} of {@code resource}; the same as the constructor. */
    public static MemoryKey of(String resource, String thread) {
        return new MemoryKey(resource, thread);
    }

    /** The store key of this key's resource-scoped state. */
    public String resourceStoreKey() {
        return RESOURCE_PREFIX + resource;
    }

    /**
     * The scope of this key's resource in the crystal store: the one name of everything the resource owns there
     * (notes, archived notes, past turns, tool outputs, migrated MEMORY.md chunks, dream topics), which searches and
     * {@code forget} use too. It is the resource itself when that is 1 to {@value #MAX_PLAIN_SCOPE_LENGTH} characters,
     * not blank, does not start with {@code #} and holds no unpaired surrogate; otherwise {@code #} followed by the
     * SHA-256 hex of the resource's UTF-16 code units. So every resource has its own scope, no resource can name
     * another's, and a scope is well-formed text that every store keeps apart from the others (an index that stores
     * text as UTF-8 would make all unpaired surrogates one character).
     */
    public String crystalScope() {
        boolean plain = !resource.isBlank() && resource.length() <= MAX_PLAIN_SCOPE_LENGTH && !resource.startsWith("#")
                && !Utf16.hasUnpairedSurrogate(resource);
        return plain ? resource : "#" + DirectoryNames.sha256Hex(resource);
    }

    /** The store key of this key's thread-scoped state. The resource length keeps the split unambiguous. */
    public String threadStoreKey() {
        return THREAD_PREFIX + resource.length() + ":" + resource + ":" + thread;
    }

    /**
     * The key whose {@link #threadStoreKey()} is {@code storeKey}; empty for any other string (a resource's store key,
     * a key some other code stored).
     */
    public static Optional<MemoryKey> ofThreadStoreKey(String storeKey) {
        Ensure.notNull(storeKey, "storeKey");
        if (!storeKey.startsWith(THREAD_PREFIX)) {
            return Optional.empty();
        }
        int colon = storeKey.indexOf(':', THREAD_PREFIX.length());
        if (colon < 0) {
            return Optional.empty();
        }
        int length;
        try {
            length = Integer.parseInt(storeKey.substring(THREAD_PREFIX.length(), colon));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        int end = colon + 1 + length;
        if (length < 0 || end >= storeKey.length() || storeKey.charAt(end) != ':') {
            return Optional.empty();
        }
        return Optional.of(new MemoryKey(storeKey.substring(colon + 1, end), storeKey.substring(end + 1)));
    }

    /**
     * The resource of a store key made by {@link #resourceStoreKey()} or {@link #threadStoreKey()}; empty for any other
     * string.
     */
    public static Optional<String> resourceOfStoreKey(String storeKey) {
        Ensure.notNull(storeKey, "storeKey");
        if (storeKey.startsWith(RESOURCE_PREFIX)) {
            return Optional.of(storeKey.substring(RESOURCE_PREFIX.length()));
        }
        return ofThreadStoreKey(storeKey).map(MemoryKey::resource);
    }
}
