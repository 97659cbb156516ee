package dev.workingmemory;

import dev.workingmemory.internal.Ensure;

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
 */
public record MemoryKey(String resource, String thread) {

    /** The thread name used when a memory id names only a resource. */
    public static final String DEFAULT_THREAD = "default";

    public MemoryKey {
        Ensure.notNull(resource, "resource");
        Ensure.notNull(thread, "thread");
    }

    /** A key for the default thread of {@code resource}. */
    public static MemoryKey of(String resource) {
        return new MemoryKey(resource, DEFAULT_THREAD);
    }

    public static MemoryKey of(String resource, String thread) {
        return new MemoryKey(resource, thread);
    }

    /** The store key of this key's resource-scoped state. */
    public String resourceStoreKey() {
        return "resource:" + resource;
    }

    /** The store key of this key's thread-scoped state. The resource length keeps the split unambiguous. */
    public String threadStoreKey() {
        return "thread:" + resource.length() + ":" + resource + ":" + thread;
    }
}
