package dev.workingmemory.jdbc;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.DefaultEmbeddingModel;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.jdbc.CrystalTable.Unembedded;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

/**
 * A {@link CrystalStore} for several application instances: crystals, their metadata and their keyword index in
 * PostgreSQL (full-text search: a {@code tsvector} per crystal under a GIN index, ranked by {@code ts_rank}), their
 * vectors in any LangChain4j {@link EmbeddingStore} the instances share (pgvector's {@code PgVectorEmbeddingStore},
 * Qdrant, ...). A search fuses the keyword and the vector lists by weighted reciprocal rank (k = {@value #RRF_K}, the
 * weights and candidates of {@link CrystalRanking}; its context weight is not used: text and context are weighted in
 * the {@code tsvector}).
 *
 * <pre>{@code
 * CrystalStore crystals = JdbcCrystalStore.builder()
 *         .dataSource(dataSource)
 *         .embeddingStore(sharedEmbeddingStore)
 *         .build();
 * }</pre>
 *
 * <p><b>Writes and vectors.</b> {@link #add} writes the crystals' rows (one short transaction, no embedding) before
 * it returns, so every instance finds them by keyword at once. It never waits for the embedder, however many rows
 * wait for their vectors: the embedder holds no connection while it embeds, and the only lock an add can meet is
 * that of a row the embedder marks as embedded in that moment (one UPDATE), when the same id is added again. Vectors follow behind, on this store's daemon thread
 * {@code crystal-embedder}: a row whose vector is missing or older than its text is embedded by whichever instance
 * gets to it first, also after a restart. A search first embeds what is still missing of its own scope, so it sees
 * every crystal added before it by meaning too (read-your-writes); when embedding fails there, it logs the failure
 * and ranks by keyword alone. Vector ids are name-based UUIDs of the crystal ids, so a re-embedded crystal replaces its
 * vector.
 *
 * <p><b>Without an embedding store</b> it searches by keyword alone and embeds nothing: the rows stay marked as
 * without vectors, so an instance opened later with the shared embedding store embeds them all.
 *
 * <p>Storage failures are {@link WorkingMemoryStoreException}s; embedding failures behind {@link #add} are logged and
 * retried after {@code 5 s}. Two instances deleting and embedding one crystal at the same moment may leave a vector
 * without its row: searches skip such vectors.
 *
 * <p>Thread-safe.
 */
public final class JdbcCrystalStore implements CrystalStore {

    private static final Logger log = LoggerFactory.getLogger(JdbcCrystalStore.class);

    private static final int BATCH = 64;
    /** The rank constant of the fusion, as in the paper that introduced it. */
    static final int RRF_K = 60;
    private static final long RETRY_SECONDS = 5;
    private static final String CRYSTAL_ID = "crystal_id";
    private static final String SCOPE = "scope";
    private static final String KIND = "kind";

    private final CrystalTable table;
    /** Null: keyword search alone. */
    private final EmbeddingStore<TextSegment> embeddingStore;
    /** Null without an embedding store. */
    private final EmbeddingModel embeddingModel;
    private final CrystalRanking ranking;
    private final int maxTextLength;
    private final WorkingMemoryListener listener;
    /** Keeps this instance's embedding, vector removal and search-time embedding from interleaving. */
    private final ReentrantLock vectors = new ReentrantLock();
    private final ScheduledExecutorService embedder;
    private final AtomicBoolean embedScheduled = new AtomicBoolean();
    private volatile boolean closed;

    private JdbcCrystalStore(Builder builder) {
        Ensure.notNull(builder.dataSource, "dataSource");
        Ensure.notBlank(builder.textSearchConfig, "textSearchConfig");
        Ensure.that(builder.maxTextLength > 0, "maxTextLength must be positive, was " + builder.maxTextLength);
        this.table = new CrystalTable(Schema.open(builder.dataSource), builder.textSearchConfig);
        this.embeddingStore = builder.embeddingStore;
        this.embeddingModel = builder.embeddingStore == null ? null
                : builder.embeddingModel != null ? builder.embeddingModel : DefaultEmbeddingModel.INSTANCE;
        this.ranking = builder.ranking != null ? builder.ranking : CrystalRanking.defaults();
        this.maxTextLength = builder.maxTextLength;
        this.listener = builder.listener;
        this.embedder = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "crystal-embedder");
            thread.setDaemon(true);
            return thread;
        });
        scheduleEmbedding(0); // what other instances, or this one before a restart, left without vectors
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void add(List<Crystal> crystals) {
        Ensure.notNull(crystals, "crystals").forEach(this::checkLengths);
        ensureOpen();
        if (!crystals.isEmpty()) {
            long start = System.nanoTime();
            table.upsert(crystals);
            indexed(crystals.size(), Duration.ofNanos(System.nanoTime() - start));
            scheduleEmbedding(0);
        }
    }

    private void indexed(int count, Duration time) {
        try {
            listener.onCrystalsIndexed(new CrystalsIndexed(count, time));
        } catch (RuntimeException e) {
            log.warn("A listener failed on {} crystals indexed", count, e);
        }
    }

    private void checkLengths(Crystal crystal) {
        Ensure.notNull(crystal, "crystal");
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("text", crystal.text());
        parts.put("context", crystal.context() == null ? "" : crystal.context());
        parts.forEach((name, text) -> Ensure.that(text.length() <= maxTextLength, "The " + name + " of crystal '"
                + crystal.id() + "' has " + text.length() + " characters, " + (text.length() - maxTextLength)
                + " over the limit of " + maxTextLength));
    }

    @Override
    public List<CrystalHit> search(CrystalQuery query) {
        Ensure.notNull(query, "query");
        ensureOpen();
        int candidates = Math.max(ranking.candidates(), query.limit());
        List<String> keyword = ranking.keywordWeight() == 0 ? List.of()
                : table.keywordSearch(query.scope(), query.kinds(), query.text(), candidates);
        List<String> vector = ranking.vectorWeight() == 0 || embeddingStore == null ? List.of()
                : vectorSearch(query, candidates);

        Map<String, Double> scores = new LinkedHashMap<>();
        addRanks(scores, keyword, ranking.keywordWeight());
        addRanks(scores, vector, ranking.vectorWeight());
        Map<String, Crystal> crystals = table.get(query.scope(), scores.keySet());
        List<CrystalHit> hits = new ArrayList<>();
        scores.forEach((id, score) -> {
            Crystal crystal = crystals.get(id);
            if (crystal != null) { // a vector whose row another instance deleted
                hits.add(new CrystalHit(crystal, score));
            }
        });
        hits.sort((a, b) -> Double.compare(b.score(), a.score())); // stable: ties keep the keyword list's order
        return hits.size() > query.limit() ? List.copyOf(hits.subList(0, query.limit())) : hits;
    }

    /** Weighted reciprocal rank: the crystal at rank r (from 1) gains weight / (k + r). */
    private void addRanks(Map<String, Double> scores, List<String> ids, double weight) {
        for (int rank = 1; rank <= ids.size(); rank++) {
            scores.merge(ids.get(rank - 1), weight / (RRF_K + rank), Double::sum);
        }
    }

    private List<String> vectorSearch(CrystalQuery query, int candidates) {
        vectors.lock();
        try {
            embedPending(query.scope());
        } catch (RuntimeException e) {
            log.warn("Cannot embed the crystals of a scope before searching it; its newest crystals are found by"
                    + " keyword only until they are embedded", e);
        } finally {
            vectors.unlock();
        }
        Filter filter = metadataKey(SCOPE).isEqualTo(query.scope());
        if (!query.kinds().isEmpty()) {
            filter = filter.and(metadataKey(KIND).isIn(query.kinds().stream().map(CrystalKind::textName).toList()));
        }
        Embedding embedding = embeddingModel.embed(query.text()).content();
        List<String> ids = new ArrayList<>();
        for (EmbeddingMatch<TextSegment> match : embeddingStore.search(EmbeddingSearchRequest.builder()
                .queryEmbedding(embedding).maxResults(candidates).filter(filter).build()).matches()) {
            String id = match.embedded() == null ? null : match.embedded().metadata().getString(CRYSTAL_ID);
            if (id != null && !ids.contains(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** Embeds the crystals still without a current vector (of one scope, or all when null). Holds {@link #vectors}. */
    private void embedPending(String scope) {
        for (List<Unembedded> batch = table.unembedded(scope, BATCH); !batch.isEmpty();
             batch = table.unembedded(scope, BATCH)) {
            List<String> vectorIds = new ArrayList<>();
            List<TextSegment> segments = new ArrayList<>();
            for (Unembedded pending : batch) {
                Crystal crystal = pending.crystal();
                vectorIds.add(vectorId(crystal.id()));
                segments.add(TextSegment.from(crystal.textToIndex(), new Metadata()
                        .put(CRYSTAL_ID, crystal.id()).put(SCOPE, crystal.scope()).put(KIND, crystal.kind().textName())));
            }
            List<Embedding> embeddings = embeddingModel.embedAll(segments).content();
            embeddingStore.removeAll(vectorIds);
            embeddingStore.addAll(vectorIds, embeddings, segments);
            List<String> stale = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                Unembedded pending = batch.get(i);
                if (!table.markEmbedded(pending.crystal().id(), pending.revision())
                        && table.get(pending.crystal().id()).isEmpty()) {
                    stale.add(vectorIds.get(i)); // deleted while it was embedded
                }
            }
            if (!stale.isEmpty()) {
                embeddingStore.removeAll(stale);
            }
        }
    }

    private void scheduleEmbedding(long delaySeconds) {
        if (!closed && embeddingStore != null && embedScheduled.compareAndSet(false, true)) {
            embedder.schedule(this::embedInBackground, delaySeconds, TimeUnit.SECONDS);
        }
    }

    private void embedInBackground() {
        embedScheduled.set(false);
        if (closed) {
            return;
        }
        vectors.lock();
        try {
            embedPending(null);
        } catch (RuntimeException e) {
            log.warn("Cannot embed crystals now; retrying in {} s", RETRY_SECONDS, e);
            scheduleEmbedding(RETRY_SECONDS);
        } finally {
            vectors.unlock();
        }
    }

    private static String vectorId(String crystalId) {
        return UUID.nameUUIDFromBytes(Texts.encode(crystalId)).toString();
    }

    @Override
    public Optional<Crystal> get(String id) {
        Ensure.notNull(id, "id");
        ensureOpen();
        return table.get(id);
    }

    @Override
    public List<Crystal> recent(String scope, Instant after, int limit) {
        Ensure.notNull(scope, "scope");
        Ensure.notNull(after, "after");
        Ensure.positive(limit, "limit");
        ensureOpen();
        return table.recent(scope, after, limit);
    }

    @Override
    public int count(String scope) {
        Ensure.notNull(scope, "scope");
        ensureOpen();
        return table.count(scope);
    }

    @Override
    public List<String> keywords(String crystalId, int max) {
        Ensure.notNull(crystalId, "crystalId");
        Ensure.positive(max, "max");
        ensureOpen();
        return table.keywords(crystalId, max);
    }

    @Override
    public void delete(String scope, Collection<String> ids) {
        Ensure.notNull(scope, "scope");
        Ensure.notNull(ids, "ids");
        ids.forEach(id -> Ensure.notNull(id, "id"));
        ensureOpen();
        if (ids.isEmpty()) {
            return;
        }
        vectors.lock();
        try {
            List<String> deleted = table.delete(scope, ids);
            if (!deleted.isEmpty() && embeddingStore != null) {
                embeddingStore.removeAll(deleted.stream().map(JdbcCrystalStore::vectorId).toList());
            }
        } finally {
            vectors.unlock();
        }
    }

    @Override
    public void deleteScope(String scope) {
        Ensure.notNull(scope, "scope");
        ensureOpen();
        vectors.lock();
        try {
            table.deleteScope(scope);
            if (embeddingStore != null) {
                embeddingStore.removeAll(metadataKey(SCOPE).isEqualTo(scope));
            }
        } finally {
            vectors.unlock();
        }
    }

    /** Stops embedding behind the calls; rows still without vectors are embedded by the next store that opens. */
    @Override
    public void close() {
        closed = true;
        embedder.shutdownNow();
        try {
            embedder.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The crystal store is closed");
        }
    }

    /** Builds a {@link JdbcCrystalStore}. Not thread-safe. */
    public static final class Builder {

        private DataSource dataSource;
        private EmbeddingStore<TextSegment> embeddingStore;
        private EmbeddingModel embeddingModel;
        private CrystalRanking ranking;
        private int maxTextLength = 20_000;
        private String textSearchConfig = "english";
        private WorkingMemoryListener listener = new WorkingMemoryListener() {
        };

        private Builder() {
        }

        /** Where the crystal rows are (the current schema of its connections); required. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        /**
         * Where the vectors are, shared by every instance (e.g. pgvector's {@code PgVectorEmbeddingStore}); without
         * one the store searches by keyword alone.
         */
        public Builder embeddingStore(EmbeddingStore<TextSegment> embeddingStore) {
            this.embeddingStore = embeddingStore;
            return this;
        }

        /** Embeds crystals and queries; default the in-process all-MiniLM-L6-v2. Every instance must use the same. */
        public Builder embeddingModel(EmbeddingModel embeddingModel) {
            this.embeddingModel = embeddingModel;
            return this;
        }

        /** How keyword and vector hits are fused; default {@link CrystalRanking#defaults()}. */
        public Builder ranking(CrystalRanking ranking) {
            this.ranking = ranking;
            return this;
        }

        /** The longest text (and context) of a crystal, in characters; default 20,000. */
        public Builder maxTextLength(int maxTextLength) {
            this.maxTextLength = maxTextLength;
            return this;
        }

        /** PostgreSQL's text search configuration for stemming and stop words; default {@code english}. */
        public Builder textSearchConfig(String textSearchConfig) {
            this.textSearchConfig = textSearchConfig;
            return this;
        }

        /**
         * Told of each {@link #add} once its rows (and keyword index) are written, with the time that took
         * ({@link WorkingMemoryListener#onCrystalsIndexed}; vectors follow); what it throws is logged. Default none.
         */
        public Builder listener(WorkingMemoryListener listener) {
            this.listener = Ensure.notNull(listener, "listener");
            return this;
        }

        public JdbcCrystalStore build() {
            return new JdbcCrystalStore(this);
        }
    }
}
