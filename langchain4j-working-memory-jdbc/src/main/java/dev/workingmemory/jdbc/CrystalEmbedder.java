package dev.workingmemory.jdbc;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.jdbc.CrystalTable.Embedded;
import dev.workingmemory.jdbc.CrystalTable.Row;
import dev.workingmemory.jdbc.ScopeCache.Cached;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

/**
 * Makes the crystals' vectors and stores each in its crystal's row, once: behind the writes on the daemon thread
 * {@value #THREAD_NAME} (rows claimed from the table, by whichever instance claims them first), and for a search the
 * rows of its scope that its index holds without a vector. A copy of each vector stored goes to the application's
 * {@link EmbeddingStore}, if it gave one.
 *
 * <p>Thread-safe.
 */
final class CrystalEmbedder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CrystalEmbedder.class);

    static final String THREAD_NAME = "crystal-embedder";
    /** Crystals embedded at once (as the embedded store's indexer). */
    private static final int BATCH = 16;
    /** Crystals claimed at once, and for how long. */
    private static final int CLAIM_BATCH = 64;
    private static final Duration CLAIM = Duration.ofMinutes(2);
    /** How often rows without vectors are looked for when nothing was added here (another instance may have left some). */
    private static final long SWEEP_SECONDS = 60;
    private static final long RETRY_SECONDS = 5;
    private static final long WARNING_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private static final String CRYSTAL_ID = "crystal_id";
    private static final String SCOPE = "scope";
    private static final String KIND = "kind";

    private final CrystalTable table;
    private final EmbeddingModel model;
    /** Null: none. */
    private final EmbeddingStore<TextSegment> copies;
    private final Duration readYourWritesTimeout;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile int dimension;
    private volatile boolean closed;
    private volatile long lastSearchWarning = System.nanoTime() - WARNING_INTERVAL_NANOS;

    CrystalEmbedder(CrystalTable table, EmbeddingModel model, EmbeddingStore<TextSegment> copies,
                    Duration readYourWritesTimeout) {
        this.table = table;
        this.model = model;
        this.copies = copies;
        this.readYourWritesTimeout = readYourWritesTimeout;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread daemon = new Thread(runnable, THREAD_NAME);
            daemon.setDaemon(true);
            return daemon;
        });
    }

    /** Embeds what is waiting now, and looks again every minute. */
    void start() {
        thread.scheduleWithFixedDelay(this::wake, 0, SWEEP_SECONDS, TimeUnit.SECONDS);
    }

    /** Has the thread embed what is waiting (crystals were added). */
    void wake() {
        schedule(0);
    }

    private void schedule(long delaySeconds) {
        if (!closed && scheduled.compareAndSet(false, true)) {
            try {
                thread.schedule(this::embedWaiting, delaySeconds, TimeUnit.SECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                scheduled.set(false); // closed meanwhile
            }
        }
    }

    /** The dimension of the model's vectors, asked of the model once. */
    int dimension() {
        int known = dimension;
        if (known == 0) {
            known = model.dimension();
            dimension = known;
        }
        return known;
    }

    /** Says once, at start-up, that the stored vectors are another model's (they are made again as scopes are searched). */
    void checkStoredDimension() {
        table.someVectorDimension().filter(stored -> stored != dimension()).ifPresent(stored -> log.warn(
                "The database holds crystal vectors of {} dimensions where this instance's embedding model makes {}:"
                        + " every instance must embed with the same model. Until a scope's crystals are embedded again"
                        + " (by the first search of the scope here), they are found by keyword only", stored,
                dimension()));
    }

    private void embedWaiting() {
        scheduled.set(false);
        try {
            while (!closed) {
                List<Row> claimed = table.claimUnembedded(CLAIM_BATCH, CLAIM);
                if (claimed.isEmpty()) {
                    return;
                }
                Map<Boolean, List<Row>> byKeywordsOnly = claimed.stream()
                        .collect(Collectors.partitioningBy(row -> row.crystal().keywordsOnly()));
                if (!byKeywordsOnly.get(true).isEmpty()) {
                    table.markKeywordsOnly(byKeywordsOnly.get(true));
                }
                claimed = byKeywordsOnly.get(false);
                for (int from = 0; from < claimed.size() && !closed; from += BATCH) {
                    List<Row> batch = claimed.subList(from, Math.min(claimed.size(), from + BATCH));
                    store(batch, embed(batch));
                }
            }
        } catch (RuntimeException e) {
            if (!closed) {
                log.warn("Cannot embed crystals now; retrying in {} s", RETRY_SECONDS, e);
                schedule(RETRY_SECONDS);
            }
        }
    }

    /**
     * Embeds and stores the crystals the cached index holds without a vector, then gives the index their vectors;
     * for at most {@code readYourWritesTimeout}, after which the search ranks what has a vector (a WARN at most once a
     * minute). Holds the index's lock.
     */
    void embedMissing(Cached cached) {
        cached.lock.lock();
        try {
            long deadline = System.nanoTime() + readYourWritesTimeout.toNanos();
            while (!cached.withoutVector.isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    warnForSearch("{} crystals of scope '{}' still have no vector after {}; ranking them by keyword"
                            + " only", cached.withoutVector.size(), cached.index.scope(), readYourWritesTimeout);
                    return;
                }
                List<Row> batch = cached.withoutVector.values().stream().limit(BATCH).toList();
                List<Embedding> embeddings;
                try {
                    embeddings = embed(batch);
                } catch (RuntimeException e) {
                    warnForSearch("Cannot embed {} crystals of scope '{}' for a search ({}); ranking them by keyword"
                            + " only", cached.withoutVector.size(), cached.index.scope(), e.toString());
                    return;
                }
                store(batch, embeddings);
                List<Row> embedded = new ArrayList<>(batch.size());
                for (int i = 0; i < batch.size(); i++) {
                    embedded.add(new Row(batch.get(i).crystal(), batch.get(i).revision(), embeddings.get(i).vector()));
                }
                cached.apply(embedded, List.of(), this::dimension);
            }
            cached.weigh();
        } finally {
            cached.lock.unlock();
        }
    }

    private void warnForSearch(String message, Object... arguments) {
        long now = System.nanoTime();
        if (now - lastSearchWarning >= WARNING_INTERVAL_NANOS) {
            lastSearchWarning = now;
            log.warn(message, arguments);
        }
    }

    private List<Embedding> embed(List<Row> rows) {
        List<TextSegment> segments = rows.stream().map(row -> TextSegment.from(row.crystal().textToIndex())).toList();
        List<Embedding> embeddings = model.embedAll(segments).content();
        if (embeddings == null || embeddings.size() != rows.size()) {
            throw new IllegalStateException("The embedding model returned " + (embeddings == null ? 0 : embeddings.size())
                    + " embeddings for " + rows.size() + " texts");
        }
        return embeddings;
    }

    /** Stores the vectors in their rows, and a copy of those stored in the application's embedding store. */
    private void store(List<Row> rows, List<Embedding> embeddings) {
        List<Embedded> vectors = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Crystal crystal = rows.get(i).crystal();
            vectors.add(new Embedded(crystal.id(), crystal.scope(), rows.get(i).revision(), embeddings.get(i).vector()));
        }
        Set<String> stored = new HashSet<>(table.storeVectors(vectors));
        if (copies == null || stored.isEmpty()) {
            return;
        }
        List<String> ids = new ArrayList<>();
        List<Embedding> copied = new ArrayList<>();
        List<TextSegment> segments = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Crystal crystal = rows.get(i).crystal();
            if (stored.contains(crystal.id())) {
                ids.add(vectorId(crystal.id()));
                copied.add(embeddings.get(i));
                segments.add(TextSegment.from(crystal.textToIndex(), new Metadata().put(CRYSTAL_ID, crystal.id())
                        .put(SCOPE, crystal.scope()).put(KIND, crystal.kind().textName())));
            }
        }
        try {
            copies.removeAll(ids); // most stores add a second entry under an id they hold
            copies.addAll(ids, copied, segments);
        } catch (RuntimeException e) {
            log.warn("Cannot copy {} crystal vectors into the application's embedding store", ids.size(), e);
        }
    }

    /** Crystals were deleted: their copies go too. */
    void removed(Collection<String> crystalIds) {
        if (copies != null && !crystalIds.isEmpty()) {
            try {
                copies.removeAll(crystalIds.stream().map(CrystalEmbedder::vectorId).toList());
            } catch (RuntimeException e) {
                log.warn("Cannot remove {} crystal vectors from the application's embedding store", crystalIds.size(), e);
            }
        }
    }

    /** A scope was deleted: its copies go too. */
    void scopeRemoved(String scope) {
        if (copies != null) {
            try {
                copies.removeAll(metadataKey(SCOPE).isEqualTo(scope));
            } catch (RuntimeException e) {
                log.warn("Cannot remove the crystal vectors of a scope from the application's embedding store", e);
            }
        }
    }

    /** The id of a crystal's copy in the application's embedding store. */
    static String vectorId(String crystalId) {
        return UUID.nameUUIDFromBytes(Texts.encode(crystalId)).toString();
    }

    @Override
    public void close() {
        closed = true;
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
