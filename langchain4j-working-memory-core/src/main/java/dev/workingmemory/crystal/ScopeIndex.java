package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.SearchAnalyzer;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * One scope's crystals held in memory and searched exactly as {@link EmbeddedCrystalStore} searches them: the same
 * keyword index (BM25 over text and context, the same analyzer, question words left out of the query), the same
 * fusion ({@link CrystalRanking}, each list standardized over a sample of the scope); only the vector list is made
 * another way, by an exact scan of the scope's vectors instead of an HNSW graph (which would have to be built when
 * the scope is loaded). A building block for crystal stores whose crystals live elsewhere, such as the JDBC module's,
 * which keeps crystals and vectors in PostgreSQL and a bounded cache of these in each instance: every store ranks
 * alike, and a change to the ranking is made once.
 *
 * <pre>{@code
 * ScopeIndex index = ScopeIndex.create("user-42");
 * index.update(List.of(new ScopeIndex.Entry(crystal, embeddingModel.embed(crystal.textToIndex()).content())), List.of());
 * List<CrystalHit> hits = index.search(new CrystalQuery("user-42", "when is the migration due", 5), embeddingModel,
 *         CrystalRanking.defaults());
 * }</pre>
 *
 * <p>Thread-safe: searches run in parallel with each other and with {@link #update} (a search during an update
 * may see part of it).
 */
public final class ScopeIndex implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ScopeIndex.class);
    /** Estimated heap of an index apart from its files and vectors (its writer, searcher and analyzer). */
    private static final long OVERHEAD_BYTES = 64 * 1024;

    private final String scope;
    private final CrystalIndex index;
    private final ScopeVectors vectors = new ScopeVectors();

    /**
     * A crystal of the scope and its vector.
     *
     * @param crystal   the crystal, of the index's scope
     * @param embedding the vector of its {@link Crystal#textToIndex()}, made by the model that embeds the queries; null
     *                  while it has none (it is then found by keyword only)
     */
    public record Entry(Crystal crystal, Embedding embedding) {

        /** Rejects a null {@code crystal} with an {@link IllegalArgumentException}. */
        public Entry {
            Ensure.notNull(crystal, "crystal");
        }
    }

    private ScopeIndex(String scope, CrystalIndex index) {
        this.scope = scope;
        this.index = index;
    }

    /** An empty index of the scope's crystals. */
    public static ScopeIndex create(String scope) {
        Ensure.notBlank(scope, "scope");
        try {
            return new ScopeIndex(scope, CrystalIndex.open(null, new SearchAnalyzer()));
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot create an index in memory: " + e, e);
        }
    }

    /** The scope whose crystals this index holds. */
    public String scope() {
        return scope;
    }

    /**
     * Removes crystals, then adds or replaces others (by id), visible to the reads that start after it returns (the
     * keyword index is refreshed once, before the next read, however many updates came before it: loading a scope in
     * chunks costs one refresh). A crystal the index refuses every time (Lucene refuses its document, or it has a time beyond
     * the ±292,000 years it holds) is left out with an ERROR, and an older version of its id goes: the others are
     * added.
     *
     * @param puts     the crystals to add or replace, with their vectors
     * @param removals the ids of crystals to remove; ids not held are ignored
     * @throws IllegalArgumentException when a crystal is of another scope, or a vector's dimension differs from the
     *                                  others'
     */
    public void update(Collection<Entry> puts, Collection<String> removals) {
        Ensure.notNull(puts, "puts");
        Ensure.notNull(removals, "removals");
        for (Entry entry : puts) {
            Ensure.notNull(entry, "entry");
            Ensure.that(entry.crystal().scope().equals(scope), () -> "Crystal '" + entry.crystal().id()
                    + "' is of scope '" + entry.crystal().scope() + "', not of this index's '" + scope + "'");
        }
        try {
            if (!removals.isEmpty()) {
                index.delete(scope, removals);
                removals.forEach(id -> vectors.remove(key(id)));
            }
            for (Entry entry : puts) {
                Crystal crystal = entry.crystal();
                try {
                    index.put(new Stored(0, crystal));
                } catch (RefusedByIndex e) {
                    // refused every time: left out, as the embedded store leaves it out, so that the scope's other
                    // crystals are searched (an older version of the id is replaced by it, so it goes too)
                    log.error("The crystal index refuses crystal '{}' of scope '{}' ({}): it is left out of the index",
                            crystal.id(), scope, e.getMessage());
                    index.delete(scope, List.of(crystal.id()));
                    vectors.remove(key(crystal.id()));
                    continue;
                }
                if (entry.embedding() != null) {
                    vectors.put(key(crystal.id()), crystal.kind(), entry.embedding().vector());
                } else {
                    vectors.remove(key(crystal.id()));
                }
            }
            index.written();
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot update the index of scope '" + scope + "': " + e, e);
        }
    }

    /**
     * Searches the scope as {@link EmbeddedCrystalStore#search} does. The query is embedded by {@code model} only
     * when the ranking weighs vectors and the scope has some; when the model fails it (down), the search ranks by
     * keyword only, with a WARN.
     *
     * @return at most {@code query.limit()} hits, best first
     * @throws IllegalArgumentException when the query is of another scope, or the model's vectors are of another
     *                                  dimension than the crystals'
     */
    public List<CrystalHit> search(CrystalQuery query, EmbeddingModel model, CrystalRanking ranking) {
        Ensure.notNull(query, "query");
        Ensure.notNull(model, "model");
        Ensure.notNull(ranking, "ranking");
        Ensure.that(query.scope().equals(scope), () -> "The query is of scope '" + query.scope()
                + "', not of this index's '" + scope + "'");
        try {
            return CrystalSearch.run(index, query, ranking, (text, candidates) -> {
                Embedding embedding = vectors.size() == 0 ? null : CrystalSearch.embedQuery(model, text, scope);
                return embedding == null ? Ranked.EMPTY
                        : vectors.nearest(embedding.vector(), candidates, query.kinds(), ScopeSample.SIZE);
            });
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot search the crystals of scope '" + scope + "': " + e, e);
        }
    }

    /** The words that best find a crystal again, as {@link CrystalStore#keywords} describes; empty when absent. */
    public List<String> keywords(String crystalId, int max) {
        Ensure.notNull(crystalId, "crystalId");
        Ensure.positive(max, "max");
        try {
            return index.keywords(crystalId, max);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot read the keywords of crystal '" + crystalId + "': " + e, e);
        }
    }

    /** @return how many crystals the index holds */
    public int size() {
        try {
            return index.count(scope);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot count the crystals of scope '" + scope + "': " + e, e);
        }
    }

    /** @return how many of its crystals have a vector */
    public int vectorCount() {
        return vectors.size();
    }

    /** @return the heap the index takes, estimated: its files, its writer's buffers, its vectors */
    public long ramBytesUsed() {
        try {
            return OVERHEAD_BYTES + index.sizeInBytes() + vectors.ramBytesUsed();
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot measure the index of scope '" + scope + "': " + e, e);
        }
    }

    private static long key(String crystalId) {
        return VectorKeys.of(CrystalWriter.vectorId(crystalId));
    }

    /** Releases the index; later calls fail. */
    @Override
    public void close() {
        try {
            index.close();
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot close the index of scope '" + scope + "': " + e, e);
        }
    }
}
