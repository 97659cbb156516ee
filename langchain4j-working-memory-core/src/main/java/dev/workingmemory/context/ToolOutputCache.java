package dev.workingmemory.context;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Passages;
import dev.workingmemory.internal.Utf16;
import dev.workingmemory.internal.Wtf8;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The tool-output cache: the full text of every tool result the memory pruned, kept as a document of the memory's
 * thread in the {@link WorkingMemoryStore} (seed 003: the full output is never lost), so that the model can read it
 * back ({@code read_tool_output}) and, through {@link ToolOutputCrystals}, find it with {@code memory_search}.
 *
 * <p>An entry is named {@code tool-output-<UTC time>-<hash>}, e.g. {@code tool-output-20261123T091500Z-3fa9c2d14b7e0a51}:
 * the time it was first cached and 16 hex digits of a SHA-256 of the tool call id, tool name and text, so the same
 * result keeps its name while the provider runs (also after its memory was evicted and reloaded). The name is handed
 * out at once; the document is written by the cache's daemon thread {@code working-memory-tool-outputs}, and
 * {@link #read} serves it from memory until then.
 *
 * <p><b>Governance.</b> {@link #sweep} keeps a memory's newest {@link ToolOutputCacheConfig#keepNewest()} entries and
 * deletes those older than {@link ToolOutputCacheConfig#maxAge()}, and logs what it scanned, deleted, reclaimed and
 * what failed; the {@link ContextPressure} layer schedules it every {@link ToolOutputCacheConfig#sweepEveryEvents()}
 * messages. {@link #forget} drops what is pending for a memory that is being deleted.
 *
 * <p>Thread-safe.
 */
public final class ToolOutputCache implements AutoCloseable {

    /** The prefix of every entry's document name. */
    public static final String PREFIX = "tool-output-";
    private static final Logger log = LoggerFactory.getLogger(ToolOutputCache.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final int HASH_HEX = 16;
    private static final int WRITE_ATTEMPTS = 3;
    private static final int FORGET_WAIT_SECONDS = 30;

    private final WorkingMemoryStore store;
    private final ToolOutputCacheConfig config;
    private final Clock clock;
    private final ThreadPoolExecutor writer;
    /** Per store key: entry name by content hash, read from the store once per key. */
    private final Cache<String, Map<String, String>> names;
    /** Per store key: texts handed out but not yet written. */
    private final Map<String, Map<String, String>> pending = new ConcurrentHashMap<>();
    /**
     * Bumped by {@link #forget}: a write of an older generation is dropped. Only deleted keys are held, for an hour:
     * far longer than a queued write waits.
     */
    private final Cache<String, Long> generations = Caffeine.newBuilder().expireAfterWrite(java.time.Duration.ofHours(1))
            .build();
    /** Orders a write's generation check and put against {@link #forget}. */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Signalled when a written entry's crystals were handed over. */
    private final Condition crystalsKept = writeLock.newCondition();
    /** Per store key: written entries whose crystals are being handed over. Guarded by {@link #writeLock}. */
    private final Map<String, Integer> keeping = new HashMap<>();

    /**
     * A cache that keeps entries in {@code store}, times them by {@code clock} and writes them on its own daemon thread,
     * queueing at most {@link ToolOutputCacheConfig#maxPendingWrites()} writes (past that the caller writes). Close it
     * to stop that thread.
     */
    public ToolOutputCache(WorkingMemoryStore store, ToolOutputCacheConfig config, Clock clock) {
        this.store = Ensure.notNull(store, "store");
        this.config = Ensure.notNull(config, "config");
        this.clock = Ensure.notNull(clock, "clock");
        this.names = Caffeine.newBuilder().maximumSize(10_000).build();
        this.writer = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new ArrayBlockingQueue<>(config.maxPendingWrites()),
                task -> {
                    Thread thread = new Thread(task, "working-memory-tool-outputs");
                    thread.setDaemon(true);
                    return thread;
                },
                // a full queue: the caller writes, rather than losing an output the model was told is kept
                new ThreadPoolExecutor.CallerRunsPolicy());
        writer.allowCoreThreadTimeOut(true);
    }

    /** The governance limits this cache was created with. */
    public ToolOutputCacheConfig config() {
        return config;
    }

    /**
     * The entry name of a tool result's full text, caching it (off the calling thread) when it is not cached yet.
     *
     * @param key      the memory it belongs to (its thread's documents hold it)
     * @param callId   the tool call's id, may be null
     * @param toolName the tool's name, may be null
     */
    public String keep(MemoryKey key, String callId, String toolName, String text) {
        Ensure.notNull(key, "key");
        Ensure.notNull(text, "text");
        String storeKey = key.threadStoreKey();
        String hash = hash(callId, toolName, text);
        Map<String, String> byHash = names.get(storeKey, this::existingNames);
        String name;
        synchronized (byHash) {
            name = byHash.get(hash);
            if (name != null) {
                return name;
            }
            Instant now = clock.instant();
            name = PREFIX + TIME.format(now) + "-" + hash;
            // waiting before the name is given out: else a second keep of the same output, given the name, could read
            // it before this thread put it here, and find nothing
            addPending(storeKey, name, text);
            byHash.put(hash, name);
        }
        String entry = name;
        long generation = generationOf(storeKey);
        writer.execute(() -> write(key, entry, toolName, text, generation));
        return name;
    }

    /** The full text of entry {@code name} of {@code key}'s thread; empty when there is none (or it was swept). */
    public Optional<String> read(MemoryKey key, String name) {
        Ensure.notNull(key, "key");
        Ensure.notNull(name, "name");
        String storeKey = key.threadStoreKey();
        Map<String, String> waiting = pending.get(storeKey);
        String text = waiting == null ? null : waiting.get(name);
        if (text != null) {
            return Optional.of(text);
        }
        if (!isEntryName(name)) {
            return Optional.empty();
        }
        return store.getDocument(storeKey, name);
    }

    /** Sweeps {@code key}'s entries on the writer thread, after the writes queued before. */
    public void sweepLater(MemoryKey key) {
        Ensure.notNull(key, "key");
        writer.execute(() -> sweep(key.threadStoreKey()));
    }

    /**
     * Sweeps the entries of the thread store key {@code storeKey} now: keeps the newest
     * {@link ToolOutputCacheConfig#keepNewest()}, deletes the rest and every entry older than
     * {@link ToolOutputCacheConfig#maxAge()}. Logged at INFO when it deleted something or failed.
     */
    public SweepResult sweep(String storeKey) {
        Ensure.notNull(storeKey, "storeKey");
        List<String> errors = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        try {
            for (StoredDocument document : store.documents(storeKey)) {
                timeOf(document.name()).ifPresent(time -> entries.add(new Entry(document, time)));
            }
        } catch (WorkingMemoryStoreException e) {
            errors.add("listing: " + e.getMessage());
        }
        entries.sort(Comparator.comparing(Entry::time).thenComparing(e -> e.document().name()).reversed());
        Instant oldest = clock.instant().minus(config.maxAge());
        int deleted = 0;
        long bytes = 0;
        Map<String, String> byHash = names.getIfPresent(storeKey);
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            if (i < config.keepNewest() && !entry.time().isBefore(oldest)) {
                continue;
            }
            try {
                store.deleteDocument(storeKey, entry.document().name());
                deleted++;
                bytes += entry.document().bytes();
                if (byHash != null) {
                    synchronized (byHash) {
                        byHash.values().remove(entry.document().name());
                    }
                }
            } catch (WorkingMemoryStoreException e) {
                errors.add(entry.document().name() + ": " + e.getMessage());
            }
        }
        SweepResult result = new SweepResult(storeKey, entries.size(), deleted, bytes, errors);
        if (deleted > 0 || !errors.isEmpty()) {
            log.info("Swept the tool-output cache of '{}': scanned {}, deleted {}, reclaimed {} bytes, errors {}",
                    storeKey, result.scanned(), deleted, bytes, errors);
        } else {
            log.debug("Swept the tool-output cache of '{}': scanned {}, nothing to delete", storeKey, result.scanned());
        }
        return result;
    }

    /**
     * Drops what is pending for {@code key}'s thread and makes the writes still queued for it do nothing: call it
     * before deleting the memory from the store and its crystals, so that no entry is written after the delete. An
     * entry already written whose crystals are being handed over is waited for (up to
     * {@value #FORGET_WAIT_SECONDS} seconds), so that deleting the scope's crystals afterwards deletes them too.
     */
    public void forget(MemoryKey key) {
        Ensure.notNull(key, "key");
        forget(key.threadStoreKey());
    }

    /**
     * {@link #forget(MemoryKey)} for each thread whose store key starts with {@code threadKeyPrefix} and that has outputs
     * waiting to be written: the threads of a resource being forgotten, also those the store holds nothing of yet (an
     * evicted thread whose messages an application's ChatMemoryStore keeps). Call it before listing the store's keys:
     * an output written meanwhile is in the store by then.
     */
    public void forgetWaiting(String threadKeyPrefix) {
        Ensure.notNull(threadKeyPrefix, "threadKeyPrefix");
        for (String storeKey : List.copyOf(pending.keySet())) {
            if (storeKey.startsWith(threadKeyPrefix)) {
                forget(storeKey);
            }
        }
    }

    private void forget(String storeKey) {
        writeLock.lock();
        try {
            generations.put(storeKey, generationOf(storeKey) + 1);
            pending.remove(storeKey);
            names.invalidate(storeKey);
            long wait = TimeUnit.SECONDS.toNanos(FORGET_WAIT_SECONDS);
            while (keeping.containsKey(storeKey) && wait > 0) {
                wait = crystalsKept.awaitNanos(wait);
            }
            if (keeping.containsKey(storeKey)) {
                log.warn("The crystals of a tool output of '{}' were still being kept after {} seconds; they may outlive"
                        + " the memory's deletion", storeKey, FORGET_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            writeLock.unlock();
        }
    }

    /** Finishes the writes and sweeps queued (waiting up to 30 seconds), then stops the writer thread. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(30, TimeUnit.SECONDS)) {
                log.warn("Tool outputs were still being cached after 30 seconds; {} left unwritten",
                        writer.getQueue().size());
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writer.shutdownNow();
        }
    }

    /** Whether {@code name} is the name of a cache entry. */
    public static boolean isEntryName(String name) {
        return timeOf(name).isPresent();
    }

    private void write(MemoryKey key, String name, String toolName, String text, long generation) {
        String storeKey = key.threadStoreKey();
        for (int attempt = 1; ; attempt++) {
            writeLock.lock();
            try {
                if (generationOf(storeKey) != generation) {
                    return; // the memory was deleted meanwhile
                }
                store.putDocument(storeKey, name, text);
                removePending(storeKey, name);
                keeping.merge(storeKey, 1, Integer::sum); // a forget from now on waits for the crystals
                break;
            } catch (WorkingMemoryStoreException e) {
                if (attempt == WRITE_ATTEMPTS) {
                    log.error("Could not cache tool output '{}' of '{}' after {} attempts; read_tool_output will not find it",
                            name, storeKey, attempt, e);
                    removePending(storeKey, name);
                    return;
                }
                log.warn("Could not cache tool output '{}' of '{}'; trying again", name, storeKey, e);
            } finally {
                writeLock.unlock();
            }
            pause(attempt);
        }
        try {
            config.crystals().keep(crystals(key, name, toolName, text));
        } catch (RuntimeException e) {
            log.warn("Could not keep tool output '{}' of '{}' as crystals", name, storeKey, e);
        } finally {
            writeLock.lock();
            try {
                keeping.computeIfPresent(storeKey, (k, n) -> n == 1 ? null : n - 1);
                crystalsKept.signalAll();
            } finally {
                writeLock.unlock();
            }
        }
    }

    private long generationOf(String storeKey) {
        Long generation = generations.getIfPresent(storeKey);
        return generation == null ? 0 : generation;
    }

    /**
     * Added and removed ({@link #removePending}) under the map's lock of the key: else the writer, emptying the key's
     * waiting outputs, could drop them with one just put in, which a read would then not find.
     */
    private void addPending(String storeKey, String name, String text) {
        pending.compute(storeKey, (k, waiting) -> {
            Map<String, String> outputs = waiting == null ? new ConcurrentHashMap<>() : waiting;
            outputs.put(name, text);
            return outputs;
        });
    }

    private void removePending(String storeKey, String name) {
        pending.computeIfPresent(storeKey, (k, waiting) -> {
            waiting.remove(name);
            return waiting.isEmpty() ? null : waiting;
        });
    }

    /**
     * The passages of a full output as crystals ({@link Passages#spans}: at most {@code crystalChunkChars} each, cut
     * at line ends where possible, joining back to the output), in the scope of {@link MemoryKey#crystalScope()} like
     * every crystal of the resource. Passage {@code i} is named {@code <id>#i}, the id made by {@link CrystalIds} from
     * the scope and the entry's name: the entry name alone is the same for two users given the same result under the
     * same call id in the same second.
     */
    List<Crystal> crystals(MemoryKey key, String name, String toolName, String text) {
        String scope = key.crystalScope();
        String id = CrystalIds.of("tool-output", scope, name);
        List<Crystal> chunks = new ArrayList<>();
        Instant time = timeOf(name).orElse(clock.instant());
        List<String> passages = Passages.spans(text, config.crystalChunkChars());
        List<String> named = toolName == null || toolName.isBlank() ? List.of() : List.of(tag(toolName));
        List<String> tags = passages.size() == 1 ? named : Passages.pieceTags(named);
        for (String passage : passages) {
            chunks.add(new Crystal(Passages.id(id, chunks.size()), scope, CrystalKind.TOOL_OUTPUT, time, 0.3, tags,
                    passage, name));
        }
        return chunks;
    }

    /**
     * The tool's name as a crystal's tag: its first {@link Crystal#MAX_TAG_LENGTH} characters, as a tool server may
     * name its tools at any length.
     */
    private static String tag(String toolName) {
        return Utf16.prefix(toolName, Crystal.MAX_TAG_LENGTH);
    }

    private Map<String, String> existingNames(String storeKey) {
        Map<String, String> byHash = new HashMap<>();
        try {
            for (StoredDocument document : store.documents(storeKey)) {
                String name = document.name();
                if (isEntryName(name)) {
                    byHash.put(name.substring(name.length() - HASH_HEX), name);
                }
            }
        } catch (WorkingMemoryStoreException e) {
            log.warn("Could not list the cached tool outputs of '{}'; outputs cached before may be cached again", storeKey, e);
        }
        return byHash;
    }

    private static Optional<Instant> timeOf(String name) {
        // tool-output-yyyyMMddTHHmmssZ-<16 hex>
        if (name == null || !name.startsWith(PREFIX) || name.length() != PREFIX.length() + 16 + 1 + HASH_HEX
                || name.charAt(PREFIX.length() + 16) != '-') {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.from(TIME.parse(name.substring(PREFIX.length(), PREFIX.length() + 16))));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String hash(String callId, String toolName, String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            // WTF-8, not UTF-8: UTF-8 writes every unpaired surrogate as '?', so two texts differing only there would
            // share one entry and read back as the first
            digest.update(Wtf8.encode(String.valueOf(callId)));
            digest.update((byte) 0);
            digest.update(Wtf8.encode(String.valueOf(toolName)));
            digest.update((byte) 0);
            digest.update(Wtf8.encode(text));
            return HexFormat.of().formatHex(digest.digest()).substring(0, HASH_HEX);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(100L * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Entry(StoredDocument document, Instant time) {
    }
}
