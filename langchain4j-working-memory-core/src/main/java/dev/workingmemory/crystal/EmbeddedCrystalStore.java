package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.workingmemory.crystal.CrystalIndex.Marker;
import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.crystal.PendingQueue.Pending;
import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.crystal.RankFusion.Scored;
import dev.workingmemory.event.CrystalsDeferred;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.DefaultEmbeddingModel;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.SearchAnalyzer;
import dev.workingmemory.internal.VectorModel;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.apache.lucene.analysis.Analyzer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

/**
 * The embedded {@link CrystalStore}: Lucene for keywords (BM25, English stemming and stop words), a LangChain4j
 * {@link EmbeddingModel} (default: in-process all-MiniLM-L6-v2, offline) and {@link EmbeddingStore} for vectors
 * (default: Lucene HNSW vectors in the same index), their scores standardized and summed ({@link CrystalRanking}).
 * A crystal's text and its context are searched in two keyword fields, the context with less weight; the text alone
 * is embedded; a query loses its question words ("when did", "what is") before both searches.
 *
 * <pre>{@code
 * try (CrystalStore crystals = EmbeddedCrystalStore.builder().directory(Path.of("memory/crystals")).build()) {
 *     crystals.add(List.of(new Crystal("note-1", "user-42", CrystalKind.NOTE, Instant.now(), 0.8, List.of(),
 *             "Deadline for the API migration is March 20th", null)));
 *     List<CrystalHit> hits = crystals.search(new CrystalQuery("user-42", "when is the migration due", 5));
 * }
 * }</pre>
 *
 * <h2>Off the request path</h2>
 * {@link #add} only queues, and never waits for the indexer. One daemon thread, {@value Indexer#THREAD_NAME}, takes
 * batches, embeds them ({@code embedAll}), indexes them and commits every {@code commitInterval} and on
 * {@link #close}. With a directory a second one, {@value Recorder#THREAD_NAME}, appends every crystal added to the
 * records moments after the add, however far behind the indexer is. When {@code queueCapacity} new crystals wait in
 * memory, the crystals added next are <i>deferred</i>: recorded, dropped from memory, and read back from the records
 * by the indexer once it has indexed what waits in memory (a scope a reader waits for first, a bounded number at a
 * time); deferring goes on until all are read back, so the order of adds is kept. One WARN says so when deferring
 * starts (once a minute at most), an INFO when the indexer caught up, and {@link WorkingMemoryListener#onCrystalsDeferred}
 * counts them. Without a directory there is nowhere to put them: the queue holds them beyond its bound (memory grows
 * by what is added, as the in-memory index does once they are indexed), with the same WARN and count. Failures
 * behind {@code add} are logged and retried, never thrown at its caller; a crystal the index refuses every time is
 * left out with an ERROR instead of holding back every crystal behind it (see the indexer's policy in the README).
 *
 * <h2>Read-your-writes</h2>
 * {@link #search}, {@link #recent}, {@link #count} and {@link #keywords} first wait until the indexer has indexed
 * the crystals of their scope added before the call, deferred ones included (the indexer takes that scope's
 * crystals ahead of others).
 * The wait is bounded by {@code readYourWritesTimeout} (default one minute, only reached when a write fails or
 * far more than a batch of the scope waits); after it they read what is indexed, with a WARN. They do not wait while
 * the embedding model is down (the indexer holds its batch until the model is back): they read what is indexed at
 * once, with a WARN, and a search whose query the model cannot embed ranks by keyword only (WARN), never failing for
 * it. {@link #get} also
 * returns crystals waiting in memory, and waits (the same way) for a deferred one to be read back.
 *
 * <h2>Scoped</h2>
 * The scope is a filter clause inside the Lucene keyword query and, for the vectors, the metadata filter
 * {@code scope = <scope>} of the {@link EmbeddingSearchRequest}. The default vector store keeps the vectors in one
 * of 64 HNSW graphs chosen by the scope's hash, so a search walks the graph of its scope (shared with few others)
 * rather than filtering one graph of every scope's vectors; the keyword fields are partitioned alike, so BM25 walks
 * the postings of its scope's partition and weighs words by the scope's own statistics. A scope alone in its
 * partition is searched without the filter (Lucene would otherwise visit each of its crystals).
 *
 * <h2>A search</h2>
 * Each list takes its best {@link CrystalRanking#candidates()} crystals and scores an evenly spread sample of the
 * scope (up to 256 crystals), from which the list's scores are standardized over the whole scope. The lists meet
 * under a 64-bit key of each crystal's vector id, read from doc values, and only the crystals of the fused top are
 * read from the index.
 *
 * <h2>Files</h2>
 * With a directory (else everything is in memory and gone on close):
 * <pre>
 * directory/
 *   crystals/&lt;scope directory name&gt;/crystals.jsonl   the records: the source of truth, one JSON line per crystal
 *   index/                                            the Lucene index (keywords, vectors), derived from the records
 * </pre>
 * The index is rebuilt from the records (re-embedding them) when it is missing, corrupt, unreadable or of another
 * format, or when another embedding model made its vectors ({@link VectorModel}), with a WARN; after a crash,
 * crystals recorded but not indexed are found (each scope's marker in the index commit says how much of its file is
 * indexed) and indexed after opening, a scope's ahead of others when it is read. Deleting crystals rewrites their
 * scope's file without them; {@link #deleteScope} also removes the file and rewrites the index segments that held
 * the scope, so its text is left nowhere on disk. A crystal not yet indexed
 * when the store closes is recorded (if it was not already) and indexed after the next open. The process ending
 * without {@code close} (killed) loses only what the recorder had not appended yet, the crystals of the last
 * moments (records reach the OS at once and the disk before each index commit); crystals are derived from the notes
 * and messages, which their own stores keep.
 *
 * <p>Thread-safe. One store per directory (a second one on the same directory is refused).
 */
public final class EmbeddedCrystalStore implements CrystalStore {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedCrystalStore.class);
    /** The records' directory in the store's directory (the index is beside it, in {@code index}). */
    private static final String RECORDS = "crystals";

    private final Path directory;
    private final EmbeddingModel embeddingModel;
    private final EmbeddingStore<TextSegment> vectors;
    private final CrystalRanking ranking;
    private final int maxTextLength;
    private final Duration readYourWritesTimeout;
    private final int queueCapacity;
    private final CrystalIndex index;
    private final PendingQueue queue;
    private final CrystalWriter writer;
    private final Indexer indexer;
    private final Thread thread;
    /** Null without a directory. */
    private final Recorder recorder;
    private final Thread recorderThread;
    private final WorkingMemoryListener listener;
    private volatile boolean closed;

    private EmbeddedCrystalStore(Builder builder) {
        Ensure.that(builder.queueCapacity > 0, "queueCapacity must be positive, was " + builder.queueCapacity);
        Ensure.that(builder.batchSize > 0, "batchSize must be positive, was " + builder.batchSize);
        Ensure.that(builder.maxTextLength > 0, "maxTextLength must be positive, was " + builder.maxTextLength);
        Ensure.that(!builder.commitInterval.isNegative() && !builder.commitInterval.isZero(),
                "commitInterval must be positive, was " + builder.commitInterval);
        Ensure.that(!builder.readYourWritesTimeout.isNegative(),
                "readYourWritesTimeout must not be negative, was " + builder.readYourWritesTimeout);
        this.directory = builder.directory == null ? null : ownDirectory(builder.directory);
        this.ranking = builder.ranking;
        this.maxTextLength = builder.maxTextLength;
        this.readYourWritesTimeout = builder.readYourWritesTimeout;
        this.queueCapacity = builder.queueCapacity;
        this.embeddingModel = builder.embeddingModel != null ? builder.embeddingModel : DefaultEmbeddingModel.INSTANCE;
        Analyzer analyzer = builder.analyzer != null ? builder.analyzer : new SearchAnalyzer();
        try {
            this.index = CrystalIndex.open(directory == null ? null : directory.resolve("index"), analyzer,
                    VectorModel.nameOf(embeddingModel));
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot open the crystal index in " + directory + ": " + e, e);
        }
        try {
            this.vectors = builder.embeddingStore != null ? builder.embeddingStore
                    : new LuceneEmbeddingStore(index.writer(), index.searchers(), CrystalWriter.SCOPE);
            RecordLog records = directory == null ? null : new RecordLog(directory.resolve(RECORDS));
            Recovery recovery = records == null ? new Recovery(1, Set.of()) : recover(records);
            this.queue = new PendingQueue(builder.queueCapacity, recovery.nextSeq(), records != null);
            this.writer = new CrystalWriter(index, records, vectors, queue);
            queue.addUnreconciled(recovery.scopes());
            if (!recovery.scopes().isEmpty()) {
                log.info("{} scope(s) of {} have crystals to index again; indexing them in the background",
                        recovery.scopes().size(), directory);
            }
        } catch (IOException | RuntimeException e) {
            try {
                index.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof WorkingMemoryStoreException storeException) {
                throw storeException;
            }
            throw new WorkingMemoryStoreException("Cannot open the crystal store in " + directory + ": " + e, e);
        }
        this.listener = builder.listener;
        this.indexer = new Indexer(queue, writer, embeddingModel, builder.batchSize, builder.commitInterval,
                builder.listener);
        this.thread = new Thread(indexer, Indexer.THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        this.recorder = directory == null ? null : new Recorder(queue, writer);
        this.recorderThread = recorder == null ? null : new Thread(recorder, Recorder.THREAD_NAME);
        if (recorderThread != null) {
            recorderThread.setDaemon(true);
            recorderThread.start();
        }
    }

    /** The directory, created when missing, as a real path (it may be a link; what is inside it may not). */
    private static Path ownDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
            return directory.toRealPath();
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot use " + directory + " as the crystal store's directory: " + e,
                    e);
        }
    }

    private record Recovery(long nextSeq, Set<String> scopes) {
    }

    /**
     * Which scopes' records the committed index does not hold exactly (by each scope's marker). Records that are gone
     * because what held them was damaged (the records' directory, or a scope's, moved aside or missing) are written
     * anew from the index, which keeps every field of a crystal; records gone otherwise (a scope deleted) drop their
     * crystals from the index.
     */
    private Recovery recover(RecordLog records) throws IOException {
        Map<String, Marker> markers = new java.util.HashMap<>(index.markers());
        Path recordsDirectory = directory.resolve(RECORDS);
        boolean recordsGone = records.replaced() != null && (!records.replaced().equals("missing") || !markers.isEmpty());
        if (recordsGone && markers.isEmpty()) {
            log.error("The crystal records in {} are gone ({}) and the index holds no crystals to write them anew from:"
                    + " whatever long-term memory was kept there is lost (notes stay in their notes logs and are"
                    + " indexed again when their memory loads); it starts empty", recordsDirectory, records.replaced());
        }
        long nextSeq = index.committedNextSeq();
        Set<String> scopes = new LinkedHashSet<>();
        for (RecordLog.ScopeFile file : records.files()) {
            Marker marker = markers.remove(file.directoryName());
            Optional<Stored> last = records.last(file.file());
            if (last.isEmpty()) {
                if (marker != null) {
                    scopes.add(marker.scope());
                }
                continue;
            }
            nextSeq = Math.max(nextSeq, last.get().seq() + 1);
            if (index.rebuilt() || marker == null || marker.length() != file.length()
                    || marker.lastSeq() != last.get().seq()) {
                scopes.add(last.get().crystal().scope());
            }
        }
        int restored = 0;
        List<String> restoredScopes = new ArrayList<>();
        for (Map.Entry<String, Marker> lost : markers.entrySet()) {
            String scope = lost.getValue().scope();
            scopes.add(scope); // compared again: dropped from the index unless written anew here
            if (recordsGone || records.movedAside().contains(lost.getKey())) {
                List<Stored> kept = index.stored(scope);
                if (!kept.isEmpty()) {
                    records.append(scope, kept);
                    restored += kept.size();
                    restoredScopes.add(scope);
                    nextSeq = Math.max(nextSeq, kept.get(kept.size() - 1).seq() + 1);
                }
            }
        }
        if (!restoredScopes.isEmpty()) {
            log.warn("The crystal records of {} scope(s) in {} were gone ({}): {} crystal(s) written anew from the index",
                    restoredScopes.size(), recordsDirectory, recordsGone ? records.replaced() : "moved aside",
                    restored);
        }
        return new Recovery(nextSeq, scopes);
    }

    /** A builder of a store; see {@link Builder} for its options and their defaults. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void add(List<Crystal> crystals) {
        Ensure.notNull(crystals, "crystals");
        for (Crystal crystal : crystals) {
            Ensure.notNull(crystal, "crystal");
            checkLength(crystal.text(), "text", crystal);
            if (crystal.context() != null) {
                checkLength(crystal.context(), "context", crystal);
            }
        }
        ensureOpen();
        PendingQueue.Added added = queue.add(crystals);
        if (added.warn()) {
            log.warn(directory != null
                    ? "{} crystals wait to be indexed: the crystals added from now on are recorded to {} and indexed"
                    + " from there as the indexer catches up (add does not wait; the metric crystals.deferred counts"
                    + " them)"
                    : "{} crystals wait to be indexed: the crystals added beyond them wait in memory, as this store"
                    + " has no directory to record them in{} (add does not wait; the metric crystals.deferred counts"
                    + " them)", queueCapacity, directory != null ? directory.resolve(RECORDS) : "");
        }
        if (added.deferred() > 0) {
            try {
                listener.onCrystalsDeferred(new CrystalsDeferred(added.deferred()));
            } catch (RuntimeException e) {
                log.warn("A listener failed on {} crystals deferred", added.deferred(), e);
            }
        }
    }

    private void checkLength(String text, String name, Crystal crystal) {
        if (text.length() > maxTextLength) {
            throw new IllegalArgumentException("The " + name + " of crystal '" + crystal.id() + "' has "
                    + text.length() + " characters, " + (text.length() - maxTextLength) + " over the limit of "
                    + maxTextLength);
        }
    }

    @Override
    public List<CrystalHit> search(CrystalQuery query) {
        Ensure.notNull(query, "query");
        ensureOpen();
        catchUp(query.scope());
        try {
            return CrystalSearch.run(index, query, ranking, (text, candidates) -> vectorSearch(query, text, candidates));
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot search the crystals of scope '" + query.scope() + "': " + e, e);
        }
    }

    private Ranked vectorSearch(CrystalQuery query, String text, int candidates) throws IOException {
        Embedding embedding = CrystalSearch.embedQuery(embeddingModel, text, query.scope());
        if (embedding == null) {
            return Ranked.EMPTY;
        }
        Filter filter = metadataKey(CrystalWriter.SCOPE).isEqualTo(query.scope());
        if (!query.kinds().isEmpty()) {
            filter = filter.and(metadataKey(CrystalWriter.KIND)
                    .isIn(query.kinds().stream().map(CrystalKind::textName).toList()));
        }
        if (vectors instanceof LuceneEmbeddingStore own) {
            return own.searchIds(embedding, candidates, filter, ScopeSample.SIZE);
        }
        List<EmbeddingMatch<TextSegment>> matches = vectors.search(EmbeddingSearchRequest.builder()
                .queryEmbedding(embedding)
                .maxResults(candidates)
                .filter(filter)
                .build()).matches();
        // another store scores no sample: the crystals outside its list count at its lowest score
        return new Ranked(matches.stream().map(match -> new Scored(VectorKeys.of(match.embeddingId()),
                match.score())).toList(), List.of(), index.count(query.scope(), query.kinds()));
    }

    /** The crystals queued and not indexed yet, the batch being indexed included. */
    @Override
    public int pendingCount() {
        return queue.size();
    }

    @Override
    public Optional<Crystal> get(String id) {
        Ensure.notNull(id, "id");
        ensureOpen();
        Optional<Crystal> pending = queue.pending(id);
        if (pending.isPresent()) {
            return pending;
        }
        String deferredScope = queue.deferredScope(id);
        if (deferredScope != null) {
            catchUp(deferredScope); // recorded beyond the queue's bound: read back first
        }
        try {
            return index.get(id);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot read crystal '" + id + "': " + e, e);
        }
    }

    @Override
    public List<Crystal> recent(String scope, Instant after, int limit) {
        Ensure.notBlank(scope, "scope");
        Ensure.notNull(after, "after");
        Ensure.that(limit >= 1 && limit <= CrystalQuery.MAX_LIMIT, "limit must be within 1 and "
                + CrystalQuery.MAX_LIMIT + ", was " + limit);
        ensureOpen();
        catchUp(scope);
        try {
            return index.recent(scope, after, limit);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot read the recent crystals of scope '" + scope + "': " + e, e);
        }
    }

    @Override
    public int count(String scope) {
        Ensure.notBlank(scope, "scope");
        ensureOpen();
        catchUp(scope);
        try {
            return index.count(scope);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot count the crystals of scope '" + scope + "': " + e, e);
        }
    }

    @Override
    public List<String> keywords(String crystalId, int max) {
        Ensure.notNull(crystalId, "crystalId");
        Ensure.positive(max, "max");
        ensureOpen();
        queue.pending(crystalId).ifPresent(crystal -> catchUp(crystal.scope()));
        String deferredScope = queue.deferredScope(crystalId);
        if (deferredScope != null) {
            catchUp(deferredScope);
        }
        try {
            return index.keywords(crystalId, max);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot read the keywords of crystal '" + crystalId + "': " + e, e);
        }
    }

    @Override
    public void delete(String scope, Collection<String> ids) {
        Ensure.notBlank(scope, "scope");
        Ensure.notNull(ids, "ids");
        ids.forEach(id -> Ensure.notNull(id, "id"));
        ensureOpen();
        if (ids.isEmpty()) {
            return;
        }
        try {
            writer.delete(scope, ids);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot delete crystals of scope '" + scope + "': " + e, e);
        }
    }

    @Override
    public void deleteScope(String scope) {
        Ensure.notBlank(scope, "scope");
        ensureOpen();
        try {
            writer.deleteScope(scope);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot delete the crystals of scope '" + scope + "': " + e, e);
        }
    }

    private void catchUp(String scope) {
        if (!queue.awaitScope(scope, readYourWritesTimeout) && !closed) {
            if (queue.modelDown()) {
                log.warn("The crystals of scope '{}' are not all indexed: the indexer waits for the embedding model,"
                        + " which is down; reading what is", scope);
            } else {
                log.warn("The crystals of scope '{}' are not all indexed after {}; reading what is", scope,
                        readYourWritesTimeout);
            }
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The crystal store is closed");
        }
    }

    /**
     * Stops the indexer after its current batch, records what is still queued (indexed after the next open),
     * commits and closes the index. Does nothing the second time.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        List<Pending> left = new ArrayList<>(queue.close());
        // read before the threads end: a batch the indexer gives up on is marked done (it is added below)
        Set<String> behind = new LinkedHashSet<>(queue.scopesBehindOnClose());
        indexer.stop();
        if (recorder != null) {
            recorder.stop();
        }
        join(thread, "indexer");
        if (recorderThread != null) {
            join(recorderThread, "recorder");
            left.addAll(0, recorder.unfinished());
        }
        left.addAll(0, indexer.unfinished());
        indexer.unfinished().forEach(pending -> behind.add(pending.crystal.scope()));
        try {
            writer.recordOnly(left);
            writer.commit(() -> behind);
        } catch (IOException | RuntimeException e) {
            log.error("Cannot commit the crystal index of {} on close: {}", directory, e.toString(), e);
        } finally {
            try {
                index.close();
            } catch (IOException | RuntimeException e) {
                log.error("Cannot close the crystal index of {}: {}", directory, e.toString(), e);
            }
        }
    }

    private static void join(Thread thread, String name) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("The crystal {} did not stop within 30 s; closing the index anyway", name);
        }
    }

    /**
     * Builds an {@link EmbeddedCrystalStore}. Not thread-safe.
     */
    public static final class Builder {

        private Path directory;
        private EmbeddingModel embeddingModel;
        private EmbeddingStore<TextSegment> embeddingStore;
        private int queueCapacity = 10_000;
        private int batchSize = 16;
        private Duration commitInterval = Duration.ofSeconds(10);
        private int maxTextLength = 20_000;
        private CrystalRanking ranking = CrystalRanking.defaults();
        private Duration readYourWritesTimeout = Duration.ofMinutes(1);
        private WorkingMemoryListener listener = new WorkingMemoryListener() {
        };
        /** For measurements (the analyzer is part of the index format: keep it fixed for a directory). */
        Analyzer analyzer;

        private Builder() {
        }

        /**
         * Told of each batch of crystals embedded and indexed ({@link WorkingMemoryListener#onCrystalsIndexed}), on
         * the indexer thread; what it throws is logged. Default none.
         */
        public Builder listener(WorkingMemoryListener listener) {
            this.listener = Ensure.notNull(listener, "listener");
            return this;
        }

        /** Where the records and the index live (created when missing); null (the default) keeps all in memory. */
        public Builder directory(Path directory) {
            this.directory = directory;
            return this;
        }

        /** Embeds crystals and queries; default: in-process all-MiniLM-L6-v2 (384 dimensions, offline). */
        public Builder embeddingModel(EmbeddingModel embeddingModel) {
            this.embeddingModel = embeddingModel;
            return this;
        }

        /**
         * Holds the vectors instead of the Lucene index (e.g. pgvector). It must support metadata filters
         * ({@code IsEqualTo}, {@code IsIn}, {@code And}), {@code removeAll(ids)} and {@code removeAll(filter)}.
         * Its entries' ids are name-based UUIDs of the crystal ids; its metadata {@code crystal_id}, {@code scope}
         * and {@code kind}. The store does not close it. A failure is retried while the store answers nothing (no
         * vector is lost while it is unreachable); an entry it refuses while it takes others or answers a read is
         * tried four times (about 2 s), then given up with an ERROR naming the crystal: the crystal is found by its
         * words only, and its vector is written again when the index is rebuilt or the crystal added again.
         */
        public Builder embeddingStore(EmbeddingStore<TextSegment> embeddingStore) {
            this.embeddingStore = embeddingStore;
            return this;
        }

        /**
         * How many added crystals may wait for the indexer in memory; the crystals added beyond them are recorded and
         * indexed later from the records (with a directory) or kept queued in memory (without): {@code add} never
         * waits. Default 10,000.
         */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /** How many crystals the indexer embeds at once; default 16. */
        public Builder batchSize(int batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        /** How often the index is committed (and the records forced to disk) while crystals arrive; default 10 s. */
        public Builder commitInterval(Duration commitInterval) {
            this.commitInterval = Ensure.notNull(commitInterval, "commitInterval");
            return this;
        }

        /** The longest {@code text} (and {@code context}) a crystal may have; default 20,000 characters. */
        public Builder maxTextLength(int maxTextLength) {
            this.maxTextLength = maxTextLength;
            return this;
        }

        /** How keyword and vector hits are merged; default {@link CrystalRanking#defaults()}. */
        public Builder ranking(CrystalRanking ranking) {
            this.ranking = Ensure.notNull(ranking, "ranking");
            return this;
        }

        /** How long a read waits for its scope's queued crystals to be indexed; default one minute. */
        public Builder readYourWritesTimeout(Duration readYourWritesTimeout) {
            this.readYourWritesTimeout = Ensure.notNull(readYourWritesTimeout, "readYourWritesTimeout");
            return this;
        }

        /**
         * Opens the store: the index (rebuilt when missing or corrupt), the records, and starts the indexer.
         *
         * @throws dev.workingmemory.store.WorkingMemoryStoreException when the directory cannot be used (or
         *                                                             another store has it open)
         */
        public EmbeddedCrystalStore build() {
            return new EmbeddedCrystalStore(this);
        }
    }
}
