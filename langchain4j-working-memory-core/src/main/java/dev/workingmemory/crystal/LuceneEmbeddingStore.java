package dev.workingmemory.crystal;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.langchain4j.store.embedding.filter.comparison.IsEqualTo;
import dev.langchain4j.store.embedding.filter.comparison.IsIn;
import dev.langchain4j.store.embedding.filter.logical.And;
import dev.workingmemory.crystal.RankFusion.Scored;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A LangChain4j {@link EmbeddingStore} on Lucene's HNSW vectors ({@link KnnFloatVectorField}, cosine), sharing the
 * crystal index's {@link IndexWriter}: one commit covers crystals and vectors. The index searches 7-bit quantized
 * copies of the vectors (see the crystal index's codec), so scores are the cosine relevance {@code (1 + cos) / 2}
 * to about 10⁻³; the vectors returned are the original floats. A search's metadata filter becomes a
 * Lucene filter query inside the KNN query, so it walks only the matching entries' neighbourhood instead of
 * scanning every entry as LangChain4j's {@code InMemoryEmbeddingStore} does.
 *
 * <p>Filters: {@link IsEqualTo}, {@link IsIn} and {@link And} of those, on metadata keys; values compare by their
 * text form ({@code 5} and {@code "5"} are equal, {@code 5} and {@code 5.0} are not). Any other filter is rejected
 * with an {@link IllegalArgumentException}. Writes become visible to searches when the owner refreshes its
 * {@link SearcherManager} (the crystal store does after each batch). Adding an id again replaces its entry.
 *
 * <p>Thread-safe (Lucene's writer and searcher manager are).
 */
final class LuceneEmbeddingStore implements EmbeddingStore<TextSegment> {

    static final String ID = "vec_id";
    static final String VECTOR = "vec";
    private static final String TEXT = "vec_text";
    private static final String METADATA = "vec_meta";
    private static final String METADATA_PREFIX = "vec_meta.";
    private static final char SEPARATOR = '\u0000';

    private final IndexWriter writer;
    private final SearcherManager searchers;

    LuceneEmbeddingStore(IndexWriter writer, SearcherManager searchers) {
        this.writer = writer;
        this.searchers = searchers;
    }

    @Override
    public String add(Embedding embedding) {
        String id = UUID.randomUUID().toString();
        add(id, embedding);
        return id;
    }

    @Override
    public void add(String id, Embedding embedding) {
        addAll(List.of(id), List.of(embedding), null);
    }

    @Override
    public String add(Embedding embedding, TextSegment segment) {
        String id = UUID.randomUUID().toString();
        addAll(List.of(id), List.of(embedding), List.of(segment));
        return id;
    }

    @Override
    public List<String> addAll(List<Embedding> embeddings) {
        List<String> ids = generateIds(embeddings.size());
        addAll(ids, embeddings, null);
        return ids;
    }

    @Override
    public void addAll(List<String> ids, List<Embedding> embeddings, List<TextSegment> segments) {
        Ensure.notNull(ids, "ids");
        Ensure.notNull(embeddings, "embeddings");
        Ensure.that(ids.size() == embeddings.size(), "ids and embeddings must have the same size");
        Ensure.that(segments == null || segments.size() == ids.size(), "segments must be null or of the ids' size");
        try {
            for (int i = 0; i < ids.size(); i++) {
                String id = Ensure.notBlank(ids.get(i), "id");
                Document document = new Document();
                document.add(new StringField(ID, id, Field.Store.YES));
                document.add(new SortedDocValuesField(ID, new BytesRef(id)));
                document.add(new KnnFloatVectorField(VECTOR, Ensure.notNull(embeddings.get(i), "embedding").vector(),
                        VectorSimilarityFunction.COSINE));
                TextSegment segment = segments == null ? null : segments.get(i);
                if (segment != null) {
                    document.add(new StoredField(TEXT, segment.text()));
                    for (Map.Entry<String, Object> entry : segment.metadata().toMap().entrySet()) {
                        String value = String.valueOf(entry.getValue());
                        document.add(new StringField(METADATA_PREFIX + entry.getKey(), value, Field.Store.NO));
                        document.add(new StoredField(METADATA, entry.getKey() + SEPARATOR
                                + entry.getValue().getClass().getSimpleName() + SEPARATOR + value));
                    }
                }
                writer.updateDocument(new Term(ID, id), document);
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot add embeddings to the Lucene index: " + e, e);
        }
    }

    @Override
    public void removeAll(Collection<String> ids) {
        Ensure.notNull(ids, "ids");
        if (ids.isEmpty()) {
            return;
        }
        delete(new TermInSetQuery(ID, ids.stream().map(BytesRef::new).toList()));
    }

    @Override
    public void removeAll(Filter filter) {
        delete(new BooleanQuery.Builder()
                .add(toQuery(Ensure.notNull(filter, "filter")), Occur.FILTER)
                .add(new FieldExistsQuery(VECTOR), Occur.FILTER)
                .build());
    }

    @Override
    public void removeAll() {
        delete(new FieldExistsQuery(VECTOR));
    }

    private void delete(Query query) {
        try {
            writer.deleteDocuments(query);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot remove embeddings from the Lucene index: " + e, e);
        }
    }

    /**
     * The ids and similarities of the nearest entries only, best first (what a hybrid search fuses): reads neither
     * segments nor vectors, so it costs the HNSW search alone.
     */
    List<Scored> searchIds(Embedding query, int maxResults, Filter filter) {
        KnnFloatVectorQuery knn = new KnnFloatVectorQuery(VECTOR, query.vector(), maxResults,
                filter == null ? null : toQuery(filter));
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                ScoreDoc[] hits = searcher.search(knn, maxResults).scoreDocs;
                List<String> ids = DocValueIds.of(searcher, hits, ID);
                List<Scored> scored = new ArrayList<>(hits.length);
                for (int i = 0; i < hits.length; i++) {
                    scored.add(new Scored(ids.get(i), hits[i].score));
                }
                return scored;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot search the Lucene vector index: " + e, e);
        }
    }

    @Override
    public EmbeddingSearchResult<TextSegment> search(EmbeddingSearchRequest request) {
        Ensure.notNull(request, "request");
        Query filter = request.filter() == null ? null : toQuery(request.filter());
        KnnFloatVectorQuery query = new KnnFloatVectorQuery(VECTOR, request.queryEmbedding().vector(),
                request.maxResults(), filter);
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                TopDocs top = searcher.search(query, request.maxResults());
                List<ScoreDoc> hits = new ArrayList<>();
                for (ScoreDoc hit : top.scoreDocs) {
                    if (hit.score >= request.minScore()) {
                        hits.add(hit);
                    }
                }
                Map<Integer, Embedding> vectors = vectorsOf(searcher, hits);
                StoredFields stored = searcher.storedFields();
                List<EmbeddingMatch<TextSegment>> matches = new ArrayList<>(hits.size());
                for (ScoreDoc hit : hits) {
                    Document document = stored.document(hit.doc);
                    matches.add(new EmbeddingMatch<>((double) hit.score, document.get(ID), vectors.get(hit.doc),
                            segmentOf(document)));
                }
                return new EmbeddingSearchResult<>(matches);
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot search the Lucene vector index: " + e, e);
        }
    }

    /** The stored vectors of the hits, read leaf by leaf in document order (each leaf's values advance only). */
    private static Map<Integer, Embedding> vectorsOf(IndexSearcher searcher, List<ScoreDoc> hits) throws IOException {
        int[] docs = hits.stream().mapToInt(hit -> hit.doc).sorted().toArray();
        Map<Integer, Embedding> vectors = new HashMap<>();
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        FloatVectorValues values = null;
        int leafIndex = -1;
        for (int doc : docs) {
            int leaf = ReaderUtil.subIndex(doc, leaves);
            if (leaf != leafIndex) {
                leafIndex = leaf;
                values = leaves.get(leaf).reader().getFloatVectorValues(VECTOR);
            }
            int target = doc - leaves.get(leaf).docBase;
            if (values != null && (values.docID() == target || values.advance(target) == target)) {
                vectors.put(doc, Embedding.from(values.vectorValue().clone()));
            }
        }
        return vectors;
    }

    private static TextSegment segmentOf(Document document) {
        String text = document.get(TEXT);
        if (text == null) {
            return null;
        }
        Metadata metadata = new Metadata();
        for (String entry : document.getValues(METADATA)) {
            String[] parts = entry.split(String.valueOf(SEPARATOR), 3);
            String key = parts[0];
            String value = parts[2];
            switch (parts[1]) {
                case "UUID" -> metadata.put(key, UUID.fromString(value));
                case "Integer" -> metadata.put(key, Integer.parseInt(value));
                case "Long" -> metadata.put(key, Long.parseLong(value));
                case "Float" -> metadata.put(key, Float.parseFloat(value));
                case "Double" -> metadata.put(key, Double.parseDouble(value));
                default -> metadata.put(key, value);
            }
        }
        return TextSegment.from(text, metadata);
    }

    /** The Lucene query of a LangChain4j filter. */
    static Query toQuery(Filter filter) {
        if (filter instanceof IsEqualTo equal) {
            return new TermQuery(new Term(METADATA_PREFIX + equal.key(), String.valueOf(equal.comparisonValue())));
        }
        if (filter instanceof IsIn in) {
            return new TermInSetQuery(METADATA_PREFIX + in.key(),
                    in.comparisonValues().stream().map(value -> new BytesRef(String.valueOf(value))).toList());
        }
        if (filter instanceof And and) {
            return new BooleanQuery.Builder()
                    .add(toQuery(and.left()), Occur.FILTER)
                    .add(toQuery(and.right()), Occur.FILTER)
                    .build();
        }
        throw new IllegalArgumentException("The Lucene embedding store supports only IsEqualTo, IsIn and And "
                + "filters on metadata, not " + filter.getClass().getSimpleName() + " (" + filter + ")");
    }
}
