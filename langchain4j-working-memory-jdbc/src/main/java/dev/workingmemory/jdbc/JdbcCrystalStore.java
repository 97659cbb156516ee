package dev.workingmemory.jdbc;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.ScopeIndex;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.DefaultEmbeddingModel;
import dev.workingmemory.internal.VectorModel;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.jdbc.ScopeCache.Lease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link CrystalStore} for several application instances, with nothing but a {@link DataSource}: crystals and their
 * vectors in PostgreSQL, searched in each instance exactly as {@link EmbeddedCrystalStore} searches (the same keyword
 * index of text and context, the same fusion of the keyword and vector lists, {@link CrystalRanking}) in a bounded
 * cache of per-scope indexes ({@link ScopeIndex}) that catch up with the database by each scope's change number.
 * No PostgreSQL extension is needed.
 *
 * <pre>{@code
 * CrystalStore crystals = JdbcCrystalStore.builder()
 *         .dataSource(dataSource)
 *         .build();                    // embeds with all-MiniLM-L6-v2, caches up to 256 MB of indexes
 * }</pre>
 *
 * <p><b>Writes.</b> {@link #add} only queues: the daemon thread {@code crystal-writer} writes the crystals' rows as
 * soon as it can (up to 500 in one transaction; retried after a failure), and a read of a scope here ({@link #search},
 * {@link #recent}, {@link #count}, {@link #keywords}; {@link #get} answers from the queue) first waits for that
 * scope's queued crystals, up to {@code readYourWritesTimeout}. Other instances see them once written. With 10,000
 * crystals queued (the database down), {@code add} waits for room; it never waits for the embedder, however many
 * rows wait for their vectors. Their vectors follow on the daemon thread
 * {@code crystal-embedder} of whichever instance claims them first (a claim keeps the others off them for two
 * minutes), which writes each vector into its crystal's row once; rows left without a vector (an instance stopped)
 * are claimed by any instance within a minute.
 *
 * <p><b>Searches.</b> A search brings its scope's index up to date (loading it on the scope's first search, then
 * reading what changed since), embeds and stores what of its scope still has no vector (so it finds by meaning every
 * crystal added before it, in any instance; bounded by {@code readYourWritesTimeout}, after which it ranks what has a
 * vector with a WARN), then ranks in memory. {@link #keywords} reads the same index; {@link #get}, {@link #recent} and
 * {@link #count} read the table.
 *
 * <p><b>The cache</b> holds the indexes of the scopes searched lately, up to {@code cacheSize} bytes of heap
 * (estimated; default 256 MB), evicting the least valuable first. An index takes about 2.5 KB per crystal of a few
 * hundred characters with a 384-dimension vector (the vector is 1.5 KB of it).
 *
 * <p><b>An {@code embeddingStore}</b> of the application's, if given, receives a copy of every vector (its entries'
 * ids are name-based UUIDs of the crystal ids, its metadata {@code crystal_id}, {@code scope} and {@code kind}), and
 * loses them with their crystals; searches never read it, so it changes no ranking. What it is to receive is written
 * in the database with the vector or the deletion, and done from there by the {@code crystal-embedder} thread of any
 * instance, so nothing is lost while it is unreachable: copies and removals wait until it answers again.
 *
 * <p>Storage failures are {@link dev.workingmemory.store.WorkingMemoryStoreException}s; embedding failures behind
 * {@link #add} are logged and retried. Every instance must embed with the same model: the database records the
 * model of its vectors ({@link dev.workingmemory.internal.VectorModel}), and an instance that starts with another
 * marks them stale, to be embedded again.
 *
 * <p>Thread-safe.
 */
public final class JdbcCrystalStore implements CrystalStore {

    private static final Logger log = LoggerFactory.getLogger(JdbcCrystalStore.class);

    /** The default {@code cacheSize}: 256 MB. */
    public static final long DEFAULT_CACHE_SIZE = 256L << 20;

    private final CrystalTable table;
    private final RowWriter writer;
    private final ScopeCache cache;
    private final CrystalEmbedder embedder;
    private final EmbeddingModel embeddingModel;
    private final CrystalRanking ranking;
    private final int maxTextLength;
    private final WorkingMemoryListener listener;
    private final Duration readYourWritesTimeout;
    private volatile boolean closed;

    private JdbcCrystalStore(Builder builder) {
        Ensure.notNull(builder.dataSource, "dataSource");
        Ensure.that(builder.maxTextLength > 0, "maxTextLength must be positive, was " + builder.maxTextLength);
        Ensure.that(builder.cacheSize > 0, "cacheSize must be positive, was " + builder.cacheSize);
        Ensure.that(!builder.readYourWritesTimeout.isNegative(),
                "readYourWritesTimeout must not be negative, was " + builder.readYourWritesTimeout);
        this.table = new CrystalTable(Schema.open(builder.dataSource), builder.embeddingStore != null);
        this.embeddingModel = builder.embeddingModel != null ? builder.embeddingModel : DefaultEmbeddingModel.INSTANCE;
        this.ranking = builder.ranking;
        this.maxTextLength = builder.maxTextLength;
        this.listener = builder.listener;
        this.readYourWritesTimeout = builder.readYourWritesTimeout;
        this.embedder = new CrystalEmbedder(table, embeddingModel, builder.embeddingStore,
                builder.readYourWritesTimeout);
        this.cache = new ScopeCache(table, embedder::dimension, builder.cacheSize);
        String model = VectorModel.nameOf(embeddingModel);
        table.recordVectorModel(model).ifPresent(replaced -> log.warn("The crystal vectors in the database were made"
                + " by the embedding model {}; this instance embeds with {}: the vectors of {} crystals are embedded"
                + " again (in the background, a scope's first when it is searched; until then they are found by"
                + " keyword). Every instance must embed with the same model.", replaced.model(), model,
                replaced.crystals()));
        embedder.checkStoredDimension();
        embedder.start();
        this.writer = new RowWriter(table, (crystals, time) -> {
            indexed(crystals.size(), time);
            embedder.wake();
        });
    }

    /** A builder of a store; a data source is required. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void add(List<Crystal> crystals) {
        Ensure.notNull(crystals, "crystals").forEach(this::checkLengths);
        ensureOpen();
        writer.add(crystals);
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
        checkLength(crystal.text(), "text", crystal);
        if (crystal.context() != null) {
            checkLength(crystal.context(), "context", crystal);
        }
    }

    private void checkLength(String text, String name, Crystal crystal) {
        Ensure.that(text.length() <= maxTextLength, () -> "The " + name + " of crystal '" + crystal.id() + "' has "
                + text.length() + " characters, " + (text.length() - maxTextLength) + " over the limit of "
                + maxTextLength);
    }

    @Override
    public List<CrystalHit> search(CrystalQuery query) {
        Ensure.notNull(query, "query");
        ensureOpen();
        catchUp(query.scope());
        try (Lease lease = cache.acquire(query.scope())) {
            if (ranking.vectorWeight() > 0) {
                embedder.embedMissing(lease.cached());
            }
            return lease.index().search(query, embeddingModel, ranking);
        }
    }

    @Override
    public Optional<Crystal> get(String id) {
        Ensure.notNull(id, "id");
        ensureOpen();
        Optional<Crystal> pending = writer.pending(id);
        return pending.isPresent() ? pending : table.get(id);
    }

    @Override
    public List<Crystal> recent(String scope, Instant after, int limit) {
        Ensure.notBlank(scope, "scope");
        Ensure.notNull(after, "after");
        Ensure.that(limit >= 1 && limit <= CrystalQuery.MAX_LIMIT, "limit must be within 1 and "
                + CrystalQuery.MAX_LIMIT + ", was " + limit);
        ensureOpen();
        catchUp(scope);
        return table.recent(scope, after, limit);
    }

    @Override
    public int count(String scope) {
        Ensure.notBlank(scope, "scope");
        ensureOpen();
        catchUp(scope);
        return table.count(scope);
    }

    /** The words that best find the crystal again, from its scope's index (as the embedded store finds them). */
    @Override
    public List<String> keywords(String crystalId, int max) {
        Ensure.notNull(crystalId, "crystalId");
        Ensure.positive(max, "max");
        ensureOpen();
        writer.pending(crystalId).ifPresent(pending -> catchUp(pending.scope()));
        Optional<Crystal> crystal = table.get(crystalId);
        if (crystal.isEmpty()) {
            return List.of();
        }
        try (Lease lease = cache.acquire(crystal.get().scope())) {
            return lease.index().keywords(crystalId, max);
        }
    }

    @Override
    public void delete(String scope, Collection<String> ids) {
        Ensure.notBlank(scope, "scope");
        Ensure.notNull(ids, "ids");
        ids.forEach(id -> Ensure.notNull(id, "id"));
        ensureOpen();
        if (!ids.isEmpty()) {
            Set<String> doomed = Set.copyOf(ids);
            writer.cancel(crystal -> crystal.scope().equals(scope) && doomed.contains(crystal.id()));
            catchUp(scope); // a batch being written may hold some of them
            embedder.removed(table.delete(scope, doomed));
        }
    }

    @Override
    public void deleteScope(String scope) {
        Ensure.notBlank(scope, "scope");
        ensureOpen();
        writer.cancel(crystal -> crystal.scope().equals(scope));
        catchUp(scope);
        List<CrystalTable.Uncopy> removals = table.deleteScope(scope);
        cache.invalidate(scope);
        embedder.removed(removals);
    }

    /** The crystals added and not written to the database yet. */
    @Override
    public int pendingCount() {
        return writer.size();
    }

    /** Waits until the scope's crystals added here are written (read-your-writes), up to the timeout. */
    private void catchUp(String scope) {
        if (!writer.awaitScope(scope, readYourWritesTimeout) && !closed) {
            log.warn("The crystals of scope '{}' added here are not all written to the database after {}; reading what"
                    + " is", scope, readYourWritesTimeout);
        }
    }

    /** @return the scopes whose index this instance holds, and their estimated heap (for tests and measurements) */
    CacheState cacheState() {
        return new CacheState(cache.scopes(), cache.bytes());
    }

    record CacheState(Collection<String> scopes, long bytes) {
    }

    /**
     * Writes what is queued (for up to 30 s; what is left then is lost, with an ERROR), stops embedding behind the calls
     * and releases the cache; rows still without vectors are left to the other instances. Does nothing the second time.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        writer.close();
        embedder.close();
        cache.close();
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
        private CrystalRanking ranking = CrystalRanking.defaults();
        private int maxTextLength = 20_000;
        private long cacheSize = DEFAULT_CACHE_SIZE;
        private Duration readYourWritesTimeout = Duration.ofMinutes(1);
        private WorkingMemoryListener listener = new WorkingMemoryListener() {
        };

        private Builder() {
        }

        /** Where the crystals are (the current schema of its connections; tables created there if absent); required. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        /**
         * An {@link EmbeddingStore} of the application's that receives a copy of every crystal's vector made from now
         * on (and loses it with the crystal), also after being unreachable for a while; never searched. Give every
         * instance the same one (or none). Default none.
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

        /** How keyword and vector hits are ranked; default {@link CrystalRanking#defaults()}. */
        public Builder ranking(CrystalRanking ranking) {
            this.ranking = Ensure.notNull(ranking, "ranking");
            return this;
        }

        /** The longest text (and context) of a crystal, in characters; default 20,000. */
        public Builder maxTextLength(int maxTextLength) {
            this.maxTextLength = maxTextLength;
            return this;
        }

        /**
         * The most heap, in bytes, the indexes of the scopes this instance searched may take together (estimated);
         * default {@link #DEFAULT_CACHE_SIZE} (256 MB). A scope larger than this is loaded again for each search.
         */
        public Builder cacheSize(long cacheSize) {
            this.cacheSize = cacheSize;
            return this;
        }

        /**
         * How long a read waits for its scope's crystals queued here to be written, and a search embeds what of its
         * scope has no vector yet before it ranks without; default one minute.
         */
        public Builder readYourWritesTimeout(Duration readYourWritesTimeout) {
            this.readYourWritesTimeout = Ensure.notNull(readYourWritesTimeout, "readYourWritesTimeout");
            return this;
        }

        /**
         * Told of each batch of crystals written, with the time the write took, on the writer thread
         * ({@link WorkingMemoryListener#onCrystalsIndexed}; vectors follow); what it throws is logged. Default none.
         */
        public Builder listener(WorkingMemoryListener listener) {
            this.listener = Ensure.notNull(listener, "listener");
            return this;
        }

        /**
         * Opens the store: the tables (created or migrated), the embedding model, the embedder thread.
         *
         * @throws dev.workingmemory.store.WorkingMemoryStoreException when the database cannot be reached or holds a
         *                                                             newer schema
         */
        public JdbcCrystalStore build() {
            return new JdbcCrystalStore(this);
        }
    }
}
