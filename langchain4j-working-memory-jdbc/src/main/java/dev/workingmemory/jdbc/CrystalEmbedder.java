package dev.workingmemory.jdbc;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.internal.Attempts;
import dev.workingmemory.internal.MinuteWarning;
import dev.workingmemory.internal.OneEmbedding;
import dev.workingmemory.jdbc.CrystalTable.Embedded;
import dev.workingmemory.jdbc.CrystalTable.Row;
import dev.workingmemory.jdbc.CrystalTable.Uncopy;
import dev.workingmemory.jdbc.ScopeCache.Cached;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Makes the crystals' vectors and stores each in its crystal's row, once: behind the writes on the daemon thread
 * {@value #THREAD_NAME} (rows claimed from the table, by whichever instance claims them first), and for a search the
 * rows of its scope that its index holds without a vector. A copy of each vector stored goes to the application's
 * {@link EmbeddingStore}, if it gave one: the row says it is to be copied, and this thread copies it
 * ({@link StoreCopies}), again after that store failed, until it is.
 *
 * <p>A batch the model fails is embedded text by text ({@link #embed}), so that a text it refuses holds back none of
 * the others; a crystal it refuses every time while it embeds others is marked found by keyword only, with one ERROR
 * naming it and its scope. A model that embeds no text of a pass is down: nothing is marked, and the crystals are tried
 * again (by the background in {@value #RETRY_SECONDS} s, what it claimed once the claim ends; by the next search).
 * The application's store is told apart so too ({@link Pass}): an entry it refuses every time loses its copy alone;
 * while it is down, the copies and removals wait in the database and are tried again every {@value #RETRY_SECONDS} s.
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

    private final CrystalTable table;
    private final EmbeddingModel model;
    /** Null: no application's embedding store. */
    private final StoreCopies copies;
    private final Duration readYourWritesTimeout;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile int dimension;
    private volatile boolean closed;
    private final MinuteWarning searchWarning = new MinuteWarning(log);

    CrystalEmbedder(CrystalTable table, EmbeddingModel model, EmbeddingStore<TextSegment> copies,
                    Duration readYourWritesTimeout) {
        this.table = table;
        this.model = model;
        this.copies = copies == null ? null : new StoreCopies(table, copies);
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

    /**
     * Embeds the rows claimed, a claim at a time, and after each claim copies into the application's store what waits
     * to be copied (or removed); runs again in {@value #RETRY_SECONDS} s when the model or that store was down.
     */
    private void embedWaiting() {
        scheduled.set(false);
        boolean again = false;
        try {
            boolean claimed = true;
            while (!closed && claimed) {
                claimed = embedClaimed();
                if (copies != null && !again) {
                    again = !syncCopies();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
            return;
        } catch (RuntimeException e) {
            if (!closed) {
                log.warn("Cannot embed crystals now; retrying in {} s", RETRY_SECONDS, e);
                again = true;
            }
        }
        if (again) {
            schedule(RETRY_SECONDS);
        }
    }

    /**
     * Embeds one claim of rows.
     *
     * @return false when there was none to claim
     * @throws RuntimeException when the model is down (the rest of the claim waits for its end) or the database fails
     */
    private boolean embedClaimed() throws InterruptedException {
        List<Row> claimed = table.claimUnembedded(CLAIM_BATCH, CLAIM);
        if (claimed.isEmpty()) {
            return false;
        }
        Map<Boolean, List<Row>> byKeywordsOnly = claimed.stream()
                .collect(Collectors.partitioningBy(row -> row.crystal().keywordsOnly()));
        table.markKeywordsOnly(byKeywordsOnly.get(true), 0); // tagged so: any vector goes
        claimed = byKeywordsOnly.get(false);
        Pass pass = new Pass();
        for (int from = 0; from < claimed.size() && !closed; from += BATCH) {
            List<Row> batch = claimed.subList(from, Math.min(claimed.size(), from + BATCH));
            Vectors vectors = embed(batch, pass);
            store(batch, vectors.embeddings());
            keywordsOnly(vectors.refused());
            if (vectors.down() != null) {
                throw vectors.down();
            }
        }
        return true;
    }

    /** @return false when the application's store is down or the database fails (tried again later) */
    private boolean syncCopies() throws InterruptedException {
        try {
            return copies.sync();
        } catch (RuntimeException e) {
            if (!closed) {
                log.warn("Cannot copy crystal vectors into the application's embedding store now; retrying in {} s",
                        RETRY_SECONDS, e);
            }
            return false;
        }
    }

    /**
     * Embeds and stores the crystals the cached index holds without a vector, then gives the index their vectors
     * (and marks those the model refuses, as the background does); for at most {@code readYourWritesTimeout}, after
     * which the search ranks what has a vector (a WARN at most once a minute), as it does at once when the model is
     * down. Holds the index's lock.
     */
    void embedMissing(Cached cached) {
        cached.lock.lock();
        try {
            long deadline = System.nanoTime() + readYourWritesTimeout.toNanos();
            List<Row> missing = List.copyOf(cached.withoutVector.values());
            Pass pass = new Pass();
            for (int from = 0; from < missing.size(); from += BATCH) {
                if (System.nanoTime() - deadline > 0) {
                    searchWarning.warn("{} crystals of scope '{}' still have no vector after {}; ranking them by"
                            + " keyword only", cached.withoutVector.size(), cached.index.scope(),
                            readYourWritesTimeout);
                    return;
                }
                List<Row> batch = missing.subList(from, Math.min(missing.size(), from + BATCH));
                Vectors vectors;
                try {
                    vectors = embed(batch, pass);
                    store(batch, vectors.embeddings());
                    keywordsOnly(vectors.refused());
                    if (copies != null) {
                        wake(); // the background copies them, off the search's path
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                List<Row> done = new ArrayList<>(batch.size());
                for (int i = 0; i < batch.size(); i++) {
                    Embedding embedding = vectors.embeddings().get(i);
                    if (embedding != null) {
                        done.add(new Row(batch.get(i).crystal(), batch.get(i).revision(), embedding.vector(), false));
                    }
                }
                for (Refusal refusal : vectors.refused()) {
                    done.add(new Row(refusal.row().crystal(), refusal.row().revision(), null, true));
                }
                cached.apply(done, List.of(), this::dimension);
                if (vectors.down() != null) {
                    searchWarning.warn("Cannot embed {} crystals of scope '{}' for a search ({}); ranking them by"
                            + " keyword only", cached.withoutVector.size(), cached.index.scope(),
                            vectors.down().toString());
                    return;
                }
            }
        } finally {
            cached.weigh();
            cached.lock.unlock();
        }
    }


    /**
     * What embedding a batch gave.
     *
     * @param embeddings the vectors, in the batch's order; null for a text that has none
     * @param refused    the crystals whose text the model refused at every attempt while it embedded others
     * @param down       why the model embedded nothing (it is down), or null
     */
    private record Vectors(List<Embedding> embeddings, List<Refusal> refused, RuntimeException down) {
    }

    /** A crystal the model refused, and its last refusal. */
    private record Refusal(Row row, RuntimeException cause) {
    }

    /**
     * Embeds a batch at once and, when that fails, text by text, by the rule of {@link Attempts} (one {@link Pass}: a
     * claim, or a search's crystals without a vector): a text the model refuses (too long for it, a content filter, a
     * provider's 400) does not keep its batch-mates from their vectors, and a model that embeds nothing of the pass is
     * down.
     *
     * @throws InterruptedException when the thread is interrupted (the store closes) during a pause
     */
    private Vectors embed(List<Row> rows, Pass pass) throws InterruptedException {
        List<TextSegment> segments = rows.stream().map(row -> TextSegment.from(row.crystal().textToIndex())).toList();
        List<Embedding> embeddings = new ArrayList<>(Collections.nCopies(rows.size(), null));
        Attempts.Outcome<Integer> outcome = pass.run(IntStream.range(0, rows.size()).boxed().toList(), texts -> {
            List<Embedding> made = texts.size() == 1 ? List.of(OneEmbedding.of(model, segments.get(texts.get(0))))
                    : model.embedAll(texts.stream().map(segments::get).toList()).content();
            if (made == null || made.size() != texts.size()) {
                throw new IllegalStateException("The embedding model returned " + (made == null ? 0 : made.size())
                        + " embeddings for " + texts.size() + " texts");
            }
            for (int i = 0; i < texts.size(); i++) {
                embeddings.set(texts.get(i), made.get(i));
            }
        });
        List<Refusal> refused = outcome.refused().entrySet().stream()
                .map(text -> new Refusal(rows.get(text.getKey()), text.getValue())).toList();
        return new Vectors(embeddings, refused, outcome.down());
    }

    /** Marks the crystals the model refused as found by keyword only, with an ERROR for each this instance marked. */
    private void keywordsOnly(List<Refusal> refused) {
        if (refused.isEmpty()) {
            return;
        }
        Set<String> marked = new HashSet<>(table.markKeywordsOnly(refused.stream().map(Refusal::row).toList(),
                dimension()));
        for (Refusal refusal : refused) {
            Crystal crystal = refusal.row().crystal();
            if (marked.contains(crystal.id())) {
                log.error("The embedding model refused crystal '{}' of scope '{}' {} times ({}) while it embedded other"
                                + " texts: it is found by keyword only", crystal.id(), crystal.scope(),
                        Attempts.ATTEMPTS, refusal.cause().toString());
            }
        }
    }

    /**
     * Stores the vectors (null: none) in their rows; with an application's embedding store, the rows say they are to be
     * copied there, and the background thread copies them (after its claim, or woken by a search).
     */
    private void store(List<Row> rows, List<Embedding> embeddings) {
        List<Embedded> vectors = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Crystal crystal = rows.get(i).crystal();
            if (embeddings.get(i) != null) {
                vectors.add(new Embedded(crystal.id(), crystal.scope(), rows.get(i).revision(),
                        embeddings.get(i).vector()));
            }
        }
        table.storeVectors(vectors);
    }

    /**
     * Crystals or a scope were deleted (and their copies recorded as to be removed): the copies are removed from the
     * application's embedding store now, or when it answers again.
     */
    void removed(List<Uncopy> removals) {
        if (copies != null && !removals.isEmpty()) {
            try {
                if (!copies.removeNow(removals)) {
                    schedule(RETRY_SECONDS);
                }
            } catch (RuntimeException e) { // the database: the removals are recorded, the background does them
                log.warn("Cannot record that {} crystal vector copies were removed from the application's embedding"
                        + " store", removals.size(), e);
            }
        }
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
