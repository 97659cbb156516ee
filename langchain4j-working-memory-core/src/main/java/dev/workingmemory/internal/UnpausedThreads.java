package dev.workingmemory.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.WorkingMemoryStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The threads of each user whose layers were not told of a pause since messages were added ({@link Pauses}), kept as
 * documents under the user's store key, one per thread and provider: marked by the first message after a pause and
 * unmarked when the pause is told. Each provider keeps its own mark, so that one instance's pause does not take the
 * mark of another that goes on adding to the thread; a memory loaded with messages takes every mark of its thread at
 * its first pause, since what it tells covers what they marked. A process that stops without closing its provider
 * (killed, out of memory, power lost) leaves its marks behind, and the next time a provider loads a memory of that
 * user, or a conversation of that user pauses, it hands each marked thread's pause over behind the turn
 * ({@link #sweepOnce}, {@link #sweepLater}). Without the marks, a
 * conversation going on when the process died reached the long-term memory only when that thread was loaded again,
 * which may be never.
 *
 * <p>A mark names the thread and, when the memory was asked for by a {@link String} id, that id: with an
 * application's {@code ChatMemoryStore} the messages are kept under the id, so a thread whose id is neither a string
 * nor a {@link MemoryKey} is not marked there.
 *
 * <p>Thread-safe.
 */
public final class UnpausedThreads {

    private static final Logger log = LoggerFactory.getLogger(UnpausedThreads.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A mark's document name: this, 32 hex digits of the thread's hash, {@code -} and 8 of the provider's. */
    static final String PREFIX = "unpaused-";
    private static final int THREAD_HEX = CrystalIds.HASH_HEX;
    private static final int PROVIDER_HEX = 8;

    private final WorkingMemoryStore store;
    /** The messages are kept under the memory id (an application's ChatMemoryStore), not only under the key. */
    private final boolean idKeepsMessages;
    private final SaveScheduler saver;
    /** This provider's part of its marks' names. */
    private final String provider = UUID.randomUUID().toString().substring(0, PROVIDER_HEX);
    /** The resource states whose marks were swept: once per load of a user's state into the provider. */
    private final Set<Object> swept = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    /** The users whose sweep after a pause waits on the saver thread. */
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private volatile Consumer<Marked> handOver;

    /**
     * A marked thread, to load by {@code memoryId}.
     *
     * @param key      the memory's key
     * @param memoryId the id to load it by: the string id it was asked for by, else {@code key}
     */
    public record Marked(MemoryKey key, Object memoryId) {
    }

    public UnpausedThreads(WorkingMemoryStore store, boolean idKeepsMessages, SaveScheduler saver) {
        this.store = Ensure.notNull(store, "store");
        this.idKeepsMessages = idKeepsMessages;
        this.saver = Ensure.notNull(saver, "saver");
    }

    /** Marks the thread of {@code key}; false when it cannot be recovered by its id and is not marked. */
    boolean mark(MemoryKey key, Object memoryId) {
        ObjectNode mark = JSON.createObjectNode().put("thread", key.thread());
        if (memoryId instanceof String id) {
            mark.put("memoryId", id);
        } else if (idKeepsMessages && !(memoryId instanceof MemoryKey)) {
            return false;
        }
        try {
            store.putDocument(key.resourceStoreKey(), name(key), JSON.writeValueAsString(mark));
            return true;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the mark of " + key, e);
        }
    }

    /** Removes this provider's mark of {@code key}'s thread, if any. */
    void unmark(MemoryKey key) {
        store.deleteDocument(key.resourceStoreKey(), name(key));
    }

    /** Removes every mark of {@code key}'s thread, whichever provider wrote it. */
    public void unmarkThread(MemoryKey key) {
        String resourceKey = key.resourceStoreKey();
        String thread = threadPrefix(key);
        for (StoredDocument document : store.documents(resourceKey)) {
            if (document.name().startsWith(thread)) {
                store.deleteDocument(resourceKey, document.name());
            }
        }
    }

    private String name(MemoryKey key) {
        return threadPrefix(key) + provider;
    }

    /** The start of the names of {@code key}'s thread's marks. */
    private static String threadPrefix(MemoryKey key) {
        return PREFIX + DirectoryNames.sha256Hex(key.thread()).substring(0, THREAD_HEX) + "-";
    }

    /**
     * The threads of {@code resource} marked now, each once. A mark that cannot be read is logged and left out.
     */
    public List<Marked> marked(String resource) {
        String resourceKey = MemoryKey.of(resource).resourceStoreKey();
        Map<MemoryKey, Marked> marked = new LinkedHashMap<>();
        for (StoredDocument document : store.documents(resourceKey)) {
            if (!document.name().startsWith(PREFIX)) {
                continue;
            }
            String text = store.getDocument(resourceKey, document.name()).orElse(null);
            if (text == null) {
                continue; // unmarked meanwhile
            }
            try {
                JsonNode mark = JSON.readTree(text);
                JsonNode thread = mark.get("thread");
                JsonNode id = mark.get("memoryId");
                if (thread == null || !thread.isTextual() || id != null && !id.isTextual()) {
                    throw new IllegalArgumentException("no thread");
                }
                MemoryKey key = MemoryKey.of(resource, thread.asText());
                String prefix = threadPrefix(key);
                if (!document.name().startsWith(prefix) || document.name().length() != prefix.length() + PROVIDER_HEX) {
                    throw new IllegalArgumentException("named for another thread");
                }
                marked.putIfAbsent(key, new Marked(key, id != null ? id.asText() : key));
            } catch (JsonProcessingException | IllegalArgumentException e) {
                log.warn("Ignoring the unreadable mark '{}' of resource '{}': {}", document.name(), resource,
                        e.getMessage());
            }
        }
        return List.copyOf(marked.values());
    }

    /** Where a sweep hands each marked thread: the provider loads it and tells its pause when it is quiet. */
    public void handOverWith(Consumer<Marked> handOver) {
        this.handOver = Ensure.notNull(handOver, "handOver");
    }

    /**
     * The first time {@code resourceState} (a user's state, loaded into the provider) is seen: hands each of the
     * user's marked threads over, on the saver thread (on the caller's when saves are not deferred).
     */
    public void sweepOnce(Object resourceState, String resource) {
        if (!swept.add(resourceState)) {
            return;
        }
        Runnable sweep = () -> sweep(resource);
        if (!saver.schedule(sweep, Duration.ZERO)) {
            sweep.run();
        }
    }

    /**
     * After a pause of one of {@code resource}'s threads: its marks are swept again on the saver thread (not at all
     * when saves are not deferred), so that a user whose state a provider keeps loaded for days still gets the
     * pauses another, stopped process left.
     */
    void sweepLater(String resource) {
        if (handOver != null && queued.add(resource) && !saver.schedule(() -> {
            queued.remove(resource);
            sweep(resource);
        }, Duration.ZERO)) {
            queued.remove(resource);
        }
    }

    /** A failure is logged; the marks it did not get to stay for the next sweep. */
    private void sweep(String resource) {
        Consumer<Marked> to = handOver;
        if (to == null) {
            return;
        }
        try {
            for (Marked thread : marked(resource)) {
                to.accept(thread);
            }
        } catch (RuntimeException e) {
            log.warn("Could not hand over the pauses of resource '{}' left by a process that stopped", resource, e);
        }
    }
}
