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
import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.FieldInfo;
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
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A LangChain4j {@link EmbeddingStore} on Lucene's HNSW vectors ({@link KnnFloatVectorField}, cosine), sharing the
 * crystal index's {@link IndexWriter}: one commit covers crystals and vectors. The index walks its graphs over 7-bit
 * quantized copies of the vectors (see the crystal index's codec) and scores the entries found by their original
 * floats: scores are the exact cosine relevance {@code (1 + cos) / 2}, as an exact scan's; the vectors returned are
 * the original floats. A search's metadata filter becomes a
 * Lucene filter query inside the KNN query, so it walks only the matching entries' neighbourhood instead of
 * scanning every entry as LangChain4j's {@code InMemoryEmbeddingStore} does.
 *
 * <p>Vectors are partitioned by the value of one metadata key (the crystal store's scope): entries with that key
 * go to one of {@value #PARTITIONS} HNSW graphs chosen by the value's hash, the others to a graph of their own. A
 * search whose filter pins the key walks only the graphs of its values, where most entries pass the filter; over one
 * graph for all, a filter that passes one entry in ten makes HNSW visit about ten times as many nodes (on 100,000
 * crystals of ten users, one user's search took 9 of its 13 ms there). Other searches walk every graph and merge.
 *
 * <p>Filters: {@link IsEqualTo}, {@link IsIn} and {@link And} of those, on metadata keys; values compare by their
 * text form ({@code 5} and {@code "5"} are equal, {@code 5} and {@code 5.0} are not). Any other filter is rejected
 * with an {@link IllegalArgumentException}. Writes become visible to searches when the owner refreshes its
 * {@link SearcherManager} (the crystal store does before a search that follows writes). Adding an id again replaces
 * its entry.
 *
 * <p>Thread-safe (Lucene's writer and searcher manager are).
 */
final class LuceneEmbeddingStore implements EmbeddingStore<TextSegment> {

    static final String ID = "vec_id";
    /** The {@linkplain VectorKeys key} of the entry's id: every entry has one (what a search returns cheaply). */
    static final String KEY = "vec_key";
    /** The vector field of entries without the partition key; partitions are {@code vec.0} to {@code vec.63}. */
    static final String VECTOR = "vec";
    static final int PARTITIONS = 64;
    private static final String TEXT = "vec_text";
    private static final String METADATA = "vec_meta";
    private static final String METADATA_PREFIX = "vec_meta.";
    private static final char SEPARATOR = '\u0000';

    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final String partitionKey;

    /** @param partitionKey the metadata key whose value chooses an entry's graph (null: one graph for all) */
    LuceneEmbeddingStore(IndexWriter writer, SearcherManager searchers, String partitionKey) {
        this.writer = writer;
        this.searchers = searchers;
        this.partitionKey = partitionKey;
    }

    /** The indexed (not stored) field holding an entry's value of a metadata key. */
    static String metadataField(String key) {
        return METADATA_PREFIX + key;
    }

    private static String partitionField(Object value) {
        return VECTOR + "." + partition(value);
    }

    /** The partition of a value of the partition key (the crystal index partitions its keyword fields alike). */
    static int partition(Object value) {
        return Math.floorMod(String.valueOf(value).hashCode(), PARTITIONS);
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
                put(Ensure.notBlank(ids.get(i), "id"), Ensure.notNull(embeddings.get(i), "embedding"),
                        segments == null ? null : segments.get(i));
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot add embeddings to the Lucene index: " + e, e);
        }
    }

    /**
     * Adds or replaces one entry.
     *
     * @param segment its text and metadata, or null
     * @throws RefusedByIndex when its document cannot be built or Lucene refuses it (the entry is as before)
     */
    void put(String id, Embedding embedding, TextSegment segment) throws IOException {
        Document document = RefusedByIndex.build(() -> document(id, embedding, segment));
        RefusedByIndex.write(writer, () -> writer.updateDocument(new Term(ID, id), document));
    }

    private Document document(String id, Embedding embedding, TextSegment segment) {
        Document document = new Document();
        document.add(new StringField(ID, id, Field.Store.YES));
        document.add(new LongField(KEY, VectorKeys.of(id), Field.Store.NO));
        Object partition = segment == null || partitionKey == null ? null
                : segment.metadata().toMap().get(partitionKey);
        document.add(new KnnFloatVectorField(partition == null ? VECTOR : partitionField(partition),
                embedding.vector(), VectorSimilarityFunction.COSINE));
        if (segment != null) {
            document.add(new StoredField(TEXT, segment.text()));
            for (Map.Entry<String, Object> entry : segment.metadata().toMap().entrySet()) {
                String value = String.valueOf(entry.getValue());
                document.add(new StringField(metadataField(entry.getKey()), value, Field.Store.NO));
                document.add(new StoredField(METADATA, entry.getKey() + SEPARATOR
                        + entry.getValue().getClass().getSimpleName() + SEPARATOR + value));
            }
        }
        return document;
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
                .add(new FieldExistsQuery(KEY), Occur.FILTER)
                .build());
    }

    @Override
    public void removeAll() {
        delete(new FieldExistsQuery(KEY));
    }

    private void delete(Query query) {
        try {
            writer.deleteDocuments(query);
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot remove embeddings from the Lucene index: " + e, e);
        }
    }

    /**
     * The nearest entries as crystal keys, and the similarity of an evenly spread sample of at most
     * {@code sampleSize} of the entries passing the filter (all of them when there are no more), computed from
     * their float vectors.
     */
    Ranked searchIds(Embedding query, int maxResults, Filter filter, int sampleSize) {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                Set<String> fields = fieldsOrAll(searcher, filter);
                List<Hit> hits = nearest(searcher, query, maxResults, filter, fields);
                ScoreDoc[] docs = hits.stream().map(Hit::doc).toArray(ScoreDoc[]::new);
                ScopeSample scope = ScopeSample.of(searcher,
                        filter == null ? new FieldExistsQuery(KEY) : toQuery(filter), sampleSize);
                ScoreDoc[] sample = similarities(searcher, query.vector(), scope.docs(), fields);
                return new Ranked(VectorKeys.scored(searcher, docs, KEY),
                        VectorKeys.scored(searcher, sample, KEY), scope.population());
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot search the Lucene vector index: " + e, e);
        }
    }

    /** The similarity of the query to the vector of each document (ascending ids), as the field's search scores it. */
    private static ScoreDoc[] similarities(IndexSearcher searcher, float[] query, int[] docs, Set<String> fields)
            throws IOException {
        List<ScoreDoc> scored = new ArrayList<>(docs.length);
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        int i = 0;
        while (i < docs.length) {
            LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(docs[i], leaves));
            int end = i;
            while (end < docs.length && docs[end] < leaf.docBase + leaf.reader().maxDoc()) {
                end++;
            }
            for (String field : fields) {
                FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
                if (values == null) {
                    continue;
                }
                VectorSimilarityFunction similarity = leaf.reader().getFieldInfos().fieldInfo(field)
                        .getVectorSimilarityFunction();
                for (int j = i; j < end; j++) {
                    int target = docs[j] - leaf.docBase;
                    if (values.docID() < target) {
                        values.advance(target);
                    }
                    if (values.docID() == target) {
                        scored.add(new ScoreDoc(docs[j], similarity.compare(query, values.vectorValue())));
                    }
                }
            }
            i = end;
        }
        return scored.toArray(ScoreDoc[]::new);
    }

    @Override
    public EmbeddingSearchResult<TextSegment> search(EmbeddingSearchRequest request) {
        Ensure.notNull(request, "request");
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                List<Hit> hits = new ArrayList<>();
                for (Hit hit : nearest(searcher, request.queryEmbedding(), request.maxResults(), request.filter(),
                        fieldsOrAll(searcher, request.filter()))) {
                    if (hit.doc().score >= request.minScore()) {
                        hits.add(hit);
                    }
                }
                Map<Integer, Embedding> vectors = vectorsOf(searcher, hits);
                StoredFields stored = searcher.storedFields();
                List<EmbeddingMatch<TextSegment>> matches = new ArrayList<>(hits.size());
                for (Hit hit : hits) {
                    Document document = stored.document(hit.doc().doc);
                    matches.add(new EmbeddingMatch<>((double) hit.doc().score, document.get(ID),
                            vectors.get(hit.doc().doc), segmentOf(document)));
                }
                return new EmbeddingSearchResult<>(matches);
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot search the Lucene vector index: " + e, e);
        }
    }

    /** A hit and the vector field it was found in. */
    private record Hit(ScoreDoc doc, String field) {
    }

    /** The nearest entries in these graphs (the filter's) passing the filter (null: all), best first. */
    private List<Hit> nearest(IndexSearcher searcher, Embedding query, int maxResults, Filter filter,
                              Set<String> fields) throws IOException {
        Query filterQuery = filter == null || alone(searcher, filter, fields) ? null : toQuery(filter);
        List<Hit> hits = new ArrayList<>();
        for (String field : fields) {
            KnnFloatVectorQuery knn = new KnnFloatVectorQuery(field, query.vector(), maxResults, filterQuery);
            ScoreDoc[] found = searcher.search(knn, maxResults).scoreDocs;
            // the graph scores quantized copies; the floats score the hits as the scope's sample and every other
            // store (PostgreSQL's scan) score theirs, so that one scale ranks them all
            for (ScoreDoc doc : similarities(searcher, query.vector(), docIds(found), Set.of(field))) {
                hits.add(new Hit(doc, field));
            }
        }
        hits.sort((a, b) -> a.doc().score != b.doc().score ? Float.compare(b.doc().score, a.doc().score)
                : Integer.compare(a.doc().doc, b.doc().doc));
        return hits.size() > maxResults ? hits.subList(0, maxResults) : hits;
    }

    private static int[] docIds(ScoreDoc[] docs) {
        int[] ids = new int[docs.length];
        for (int i = 0; i < docs.length; i++) {
            ids[i] = docs[i].doc;
        }
        Arrays.sort(ids);
        return ids;
    }

    /**
     * Whether the filter's one graph holds only entries passing it (an equality on the partition key, whose value has
     * the graph to itself; deleted entries count on both sides of the comparison): a filter there only costs a bit
     * set of every entry.
     */
    private boolean alone(IndexSearcher searcher, Filter filter, Set<String> fields) throws IOException {
        if (!(filter instanceof IsEqualTo equal) || !equal.key().equals(partitionKey) || fields.size() != 1) {
            return false;
        }
        String field = fields.iterator().next();
        long inGraph = 0;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            inGraph += values == null ? 0 : values.size();
        }
        return inGraph == searcher.getIndexReader().docFreq(
                new Term(metadataField(partitionKey), String.valueOf(equal.comparisonValue())));
    }

    private Set<String> fieldsOrAll(IndexSearcher searcher, Filter filter) {
        Set<String> fields = fieldsOf(filter);
        return fields != null ? fields : vectorFields(searcher);
    }

    /** @return the graphs an entry passing the filter can be in, or null when it can be in any */
    private Set<String> fieldsOf(Filter filter) {
        if (partitionKey == null || filter == null) {
            return null;
        }
        if (filter instanceof IsEqualTo equal && equal.key().equals(partitionKey)) {
            return Set.of(partitionField(equal.comparisonValue()));
        }
        if (filter instanceof IsIn in && in.key().equals(partitionKey)) {
            Set<String> fields = new TreeSet<>();
            in.comparisonValues().forEach(value -> fields.add(partitionField(value)));
            return fields;
        }
        if (filter instanceof And and) {
            Set<String> left = fieldsOf(and.left());
            Set<String> right = fieldsOf(and.right());
            if (left == null || right == null) {
                return left == null ? right : left;
            }
            Set<String> both = new TreeSet<>(left);
            both.retainAll(right);
            return both;
        }
        return null;
    }

    private static Set<String> vectorFields(IndexSearcher searcher) {
        Set<String> fields = new TreeSet<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            for (FieldInfo info : leaf.reader().getFieldInfos()) {
                if (info.hasVectorValues() && (info.name.equals(VECTOR) || info.name.startsWith(VECTOR + "."))) {
                    fields.add(info.name);
                }
            }
        }
        return fields;
    }

    /** The stored vectors of the hits, read leaf by leaf in document order (each leaf's values advance only). */
    private static Map<Integer, Embedding> vectorsOf(IndexSearcher searcher, List<Hit> hits) throws IOException {
        List<Hit> sorted = new ArrayList<>(hits);
        sorted.sort(Comparator.comparing(Hit::field).thenComparingInt(hit -> hit.doc().doc));
        Map<Integer, Embedding> vectors = new HashMap<>();
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        FloatVectorValues values = null;
        int leafIndex = -1;
        String field = null;
        for (Hit hit : sorted) {
            int doc = hit.doc().doc;
            int leaf = ReaderUtil.subIndex(doc, leaves);
            if (leaf != leafIndex || !hit.field().equals(field)) {
                leafIndex = leaf;
                field = hit.field();
                values = leaves.get(leaf).reader().getFloatVectorValues(field);
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
            return new TermQuery(new Term(metadataField(equal.key()), String.valueOf(equal.comparisonValue())));
        }
        if (filter instanceof IsIn in) {
            return new TermInSetQuery(metadataField(in.key()),
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
