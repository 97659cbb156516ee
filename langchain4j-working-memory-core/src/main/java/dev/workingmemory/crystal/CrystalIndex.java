package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.crystal.RankFusion.Ranked;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.Weight;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.index.LeafReaderContext;
import dev.workingmemory.internal.ConfinedFiles;
import dev.workingmemory.internal.VectorModel;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.WordlistLoader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The Lucene index of an embedded crystal store, derived from its records: one document per crystal (everything a
 * crystal holds as one binary doc value, {@link CrystalDocValues}; its text and its context analyzed for BM25 in two
 * fields; its id, scope, kind, time, importance and tags indexed to filter and sort by), one marker per
 * scope (how much of the scope's record file the index holds), and the vectors of the {@link LuceneEmbeddingStore}
 * sharing its writer.
 *
 * <p>Thread-safe for reads; writes are made by the store under its write lock.
 */
final class CrystalIndex implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CrystalIndex.class);

    static final String ID = "id";
    /** The {@linkplain VectorKeys key} of the crystal's vector id ({@link CrystalWriter#vectorId}), a doc value. */
    private static final String VECTOR_KEY = "vector_key";
    /** The same key as an 8-byte term, to look crystals up by it. */
    private static final String VECTOR_KEY_TERM = "vector_key_term";
    static final String SCOPE = "scope";
    static final String KIND = "kind";
    private static final String TIME = "time";
    private static final String IMPORTANCE = "importance";
    private static final String TAG = "tag";
    /** The crystal and its record's seq ({@link CrystalDocValues}): the only field read back. */
    static final String VALUE = "crystal";
    /**
     * The crystal's text analyzed for BM25, in a field per partition of the scopes ({@code body.0} to
     * {@code body.63}, the vector store's partitions): a search walks the postings of its scope's partition only, and
     * BM25's statistics are those of the scope (unless scopes share the partition).
     */
    static final String BODY = "body";
    /** The crystal's context analyzed for BM25, apart from its text so that its matches can weigh less; partitioned. */
    private static final String CONTEXT_BODY = "context_body";
    /** The crystal's partition, to tell whether its scope has the partition to itself. */
    private static final String PARTITION = "partition";

    private static final String TYPE = "type";
    private static final String MARKER = "marker";
    private static final String MARKER_SCOPE = "marker_scope";
    private static final String MARKER_LENGTH = "marker_length";
    private static final String MARKER_SEQ = "marker_seq";

    private static final String FORMAT_KEY = "crystal_index_format";
    private static final String FORMAT = "7";
    private static final String NEXT_SEQ_KEY = "next_seq";
    /** Which embedding model made the index's vectors ({@link #open(Path, Analyzer, String)}). */
    private static final String VECTOR_MODEL_KEY = "vector_model";
    /** Beyond Lucene's default of 1,024 dimensions, so that larger embedding models fit too. */
    private static final int MAX_VECTOR_DIMENSIONS = 4_096;
    /** Distinct query terms searched at most (Lucene refuses more than 1,024 clauses). */
    private static final int MAX_QUERY_TERMS = 256;

    private static final CharArraySet KEYWORD_STOP_WORDS = keywordStopWords();

    private final Directory directory;
    private final IndexWriter writer;
    private final ConcurrentMergeScheduler merges;
    private final ExpungingMergePolicy mergePolicy;
    private final SearcherManager searchers;
    private final Analyzer analyzer;
    private final boolean rebuilt;
    private final String vectorModel;
    /** Batches marked by {@link #written}, and how many of them the searchers show; a read refreshes in between. */
    private final AtomicLong writes = new AtomicLong();
    private volatile long visible;
    private final ReentrantLock refreshLock = new ReentrantLock();
    /**
     * The crystals put since the searchers last showed them, with the batch that put them: what {@link #indexed}
     * answers without a refresh (deletes refresh at once, so the searchers are right about every other id).
     */
    private final Map<String, Unshown> unshown = new ConcurrentHashMap<>();

    private record Unshown(Indexed indexed, long batch) {
    }

    /** How far the index holds a scope's record file: its length and the seq of its last record. */
    record Marker(String scope, long length, long lastSeq) {
    }

    private CrystalIndex(Directory directory, IndexWriter writer, Analyzer analyzer, boolean rebuilt,
                         String vectorModel)
            throws IOException {
        this.directory = directory;
        this.writer = writer;
        this.merges = (ConcurrentMergeScheduler) writer.getConfig().getMergeScheduler();
        this.mergePolicy = (ExpungingMergePolicy) writer.getConfig().getMergePolicy();
        this.searchers = new SearcherManager(writer, null);
        this.analyzer = analyzer;
        this.rebuilt = rebuilt;
        this.vectorModel = vectorModel;
    }

    /**
     * Opens the index in {@code path} (in memory when null). An index that is missing, unreadable, of another
     * format or corrupt (every file's checksum is verified, which reads the whole index once) is replaced by an
     * empty one ({@link #rebuilt()}), with a WARN when it existed.
     *
     * @throws WorkingMemoryStoreException when another store holds the index open
     */
    static CrystalIndex open(Path path, Analyzer analyzer) throws IOException {
        return open(path, analyzer, null);
    }

    /**
     * Opens the index in {@code path} as {@link #open(Path, Analyzer)} does, and replaces one whose vectors another
     * embedding model made: vectors of two models are not comparable (of two dimensions, Lucene refuses the second).
     * The replaced index is rebuilt from the records with {@code vectorModel}, which every commit records.
     *
     * @param vectorModel the model that embeds for this index ({@link VectorModel#nameOf}); null records none
     *                    and checks none
     */
    static CrystalIndex open(Path path, Analyzer analyzer, String vectorModel) throws IOException {
        if (path == null) {
            return create(new ByteBuffersDirectory(), analyzer, false, vectorModel);
        }
        // a link or a file in place of the index directory, or of its lock file, is moved aside: Lucene would follow it
        ConfinedFiles.ensureDirectory(path);
        Path lockFile = path.resolve(IndexWriter.WRITE_LOCK_NAME);
        ConfinedFiles.clearForFile(lockFile);
        Directory directory = FSDirectory.open(path);
        String problem;
        // checked and cleared under the write lock, and the directory itself never deleted: a process opening it at
        // the same moment finds the lock held (and keeps its crystals in memory), never a directory gone under it
        try (Lock ignored = directory.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
            emptyLockFile(lockFile);
            problem = foreignEntry(path, directory);
            if (problem == null) {
                problem = problemOf(directory, vectorModel);
            }
            if (problem != null) {
                if (!problem.equals("missing")) {
                    log.warn("Rebuilding the crystal index {} from the crystal records (its files are removed, not"
                            + " kept aside: they hold every user's crystals, which a forget could not reach there): {}",
                            path, problem);
                }
                for (String file : directory.listAll()) {
                    if (!file.equals(IndexWriter.WRITE_LOCK_NAME)) {
                        ConfinedFiles.deleteTree(path.resolve(file)); // a link itself, a directory with its files
                    }
                }
            }
        } catch (LockObtainFailedException e) {
            directory.close();
            throw new WorkingMemoryStoreException("The crystal index " + path + " is in use by another store", e);
        } catch (IOException | RuntimeException e) {
            directory.close();
            throw e;
        }
        return create(directory, analyzer, problem != null, vectorModel);
    }

    /**
     * Empties a lock file that holds bytes (overwritten by something else: Lucene's lock files are empty, and Lucene
     * refuses to write under one that is not). Called holding its lock, which Lucene takes anew afterwards.
     */
    private static void emptyLockFile(Path lockFile) throws IOException {
        try (FileChannel channel = ConfinedFiles.open(lockFile, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size > 0) {
                log.warn("The lock file {} held {} bytes written by something else; emptied", lockFile, size);
                channel.truncate(0);
                channel.force(true);
            }
        }
    }

    /** @return what in the index directory is not a regular file (a link, a directory), or null when nothing is */
    private static String foreignEntry(Path path, Directory directory) throws IOException {
        for (String name : directory.listAll()) {
            String found = ConfinedFiles.describe(path.resolve(name));
            if (found != null && !found.equals("a regular file")) {
                return name + " is " + found + ", not an index file";
            }
        }
        return null;
    }

    /** @return why the index cannot be used as it is ("missing" when there is none), or null when it can */
    private static String problemOf(Directory directory, String vectorModel) {
        try {
            if (!DirectoryReader.indexExists(directory)) {
                return "missing";
            }
            Map<String, String> userData = SegmentInfos.readLatestCommit(directory).getUserData();
            if (!FORMAT.equals(userData.get(FORMAT_KEY))) {
                return "it has format " + userData.get(FORMAT_KEY) + ", this version writes " + FORMAT;
            }
            String madeBy = userData.getOrDefault(VECTOR_MODEL_KEY, VectorModel.UNRECORDED);
            if (vectorModel != null && !vectorModel.equals(madeBy)) {
                return "its vectors were made by the embedding model " + madeBy + ", this store embeds with "
                        + vectorModel + " (every crystal is embedded again)";
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                for (LeafReaderContext leaf : reader.leaves()) {
                    leaf.reader().checkIntegrity(); // reads every file to its checksum: finds truncation
                }
            }
            return null;
        } catch (CorruptIndexException | IndexFormatTooOldException | IndexFormatTooNewException e) {
            return e.toString();
        } catch (IOException | RuntimeException e) {
            return "unreadable: " + e;
        }
    }

    private static CrystalIndex create(Directory directory, Analyzer analyzer, boolean rebuilt, String vectorModel)
            throws IOException {
        IndexWriterConfig config = new IndexWriterConfig(analyzer)
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setMergeScheduler(new ConcurrentMergeScheduler())
                .setMergePolicy(new ExpungingMergePolicy())
                .setCodec(new Lucene912Codec() {
                    @Override
                    public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                        return LargeVectors.FORMAT;
                    }
                });
        IndexWriter writer;
        try {
            writer = new IndexWriter(directory, config);
        } catch (IOException | RuntimeException e) {
            directory.close();
            throw e;
        }
        if (writer.getLiveCommitData() == null || !writer.getLiveCommitData().iterator().hasNext()) {
            writer.setLiveCommitData(commitData(1, vectorModel).entrySet());
            writer.commit();
        }
        return new CrystalIndex(directory, writer, analyzer, rebuilt, vectorModel);
    }

    /** Whether the index was created empty where one was expected (or missing): every record must be indexed. */
    boolean rebuilt() {
        return rebuilt;
    }

    IndexWriter writer() {
        return writer;
    }

    SearcherManager searchers() {
        return searchers;
    }

    // ---- writes (under the store's write lock) -------------------------------------------------------

    /**
     * Adds or replaces the crystal's document.
     *
     * @throws RefusedByIndex when the document cannot be built or Lucene refuses it (the index is as before)
     */
    void put(Stored stored) throws IOException {
        Crystal crystal = stored.crystal();
        Document document = RefusedByIndex.build(() -> document(stored));
        RefusedByIndex.write(writer, () -> writer.updateDocument(new Term(ID, crystal.id()), document));
        unshown.put(crystal.id(), new Unshown(new Indexed(crystal.scope(), stored.seq()), writes.get() + 1));
    }

    private static Document document(Stored stored) {
        Crystal crystal = stored.crystal();
        Document document = new Document();
        document.add(new StringField(ID, crystal.id(), Field.Store.NO));
        long key = VectorKeys.of(CrystalWriter.vectorId(crystal.id()));
        document.add(new SortedNumericDocValuesField(VECTOR_KEY, key));
        document.add(new StringField(VECTOR_KEY_TERM, keyTerm(key), Field.Store.NO));
        String partition = partition(crystal.scope());
        document.add(new StringField(PARTITION, partition, Field.Store.NO));
        document.add(new StringField(SCOPE, crystal.scope(), Field.Store.NO));
        document.add(new StringField(KIND, crystal.kind().textName(), Field.Store.NO));
        document.add(new LongField(TIME, micros(crystal.time()), Field.Store.NO));
        document.add(new DoubleField(IMPORTANCE, crystal.importance(), Field.Store.NO));
        for (String tag : crystal.tags()) {
            document.add(new StringField(TAG, tag, Field.Store.NO));
        }
        document.add(new BinaryDocValuesField(VALUE, CrystalDocValues.encode(stored)));
        document.add(new TextField(BODY + partition, crystal.text(), Field.Store.NO));
        if (crystal.context() != null) {
            document.add(new TextField(CONTEXT_BODY + partition, crystal.context(), Field.Store.NO));
        }
        return document;
    }

    void delete(String scope, Collection<String> ids) throws IOException {
        writer.deleteDocuments(new BooleanQuery.Builder()
                .add(scopeQuery(scope), Occur.FILTER)
                .add(new TermInSetQuery(ID, ids.stream().map(BytesRef::new).toList()), Occur.FILTER)
                .build());
        ids.forEach(id -> unshown.computeIfPresent(id, (key, put) -> put.indexed().scope().equals(scope) ? null : put));
    }

    void deleteScope(String scope) throws IOException {
        writer.deleteDocuments(scopeQuery(scope));
        unshown.values().removeIf(put -> put.indexed().scope().equals(scope));
    }

    void putMarker(String directoryName, Marker marker) throws IOException {
        Document document = new Document();
        document.add(new StringField(TYPE, MARKER, Field.Store.NO));
        document.add(new StringField(MARKER, directoryName, Field.Store.YES));
        document.add(new StoredField(MARKER_SCOPE, marker.scope()));
        document.add(new StoredField(MARKER_LENGTH, marker.length()));
        document.add(new StoredField(MARKER_SEQ, marker.lastSeq()));
        writer.updateDocument(new Term(MARKER, directoryName), document);
    }

    void deleteMarker(String directoryName) throws IOException {
        writer.deleteDocuments(new Term(MARKER, directoryName));
    }

    /** Makes every write so far visible to searches. */
    void refresh() throws IOException {
        refresh(true);
    }

    /**
     * Marks the writes made so far to be made visible before the next read, which refreshes the searchers once
     * however many writes came before it. Refreshing after every batch of the indexer flushed a small segment each
     * time and kept Lucene's merges busy: on BEAM chats 1 and 4 the process spent 26 s of CPU against 19 s.
     */
    void written() {
        writes.incrementAndGet();
    }

    /** Makes the writes marked so far ({@link #written}) visible, unless a refresh since did. */
    void refreshIfWritten() throws IOException {
        if (visible < writes.get()) {
            refresh(false);
        }
    }

    /**
     * Refreshes the searchers, {@code always} or when they do not show every marked batch, and forgets the crystals
     * of the batches they now show.
     */
    private void refresh(boolean always) throws IOException {
        refreshLock.lock();
        try {
            long marked = writes.get();
            if (always || visible < marked) {
                searchers.maybeRefreshBlocking(); // started after the marked writes: they are in it
                visible = Math.max(visible, marked);
                unshown.values().removeIf(put -> put.batch() <= marked);
            }
        } finally {
            refreshLock.unlock();
        }
    }

    /** How many crystals were put that the searchers may not show yet. */
    int unshownCount() {
        return unshown.size();
    }

    /**
     * Rewrites every segment that still holds deleted documents of the scope (crystals and vectors), so that their
     * text leaves the index files; other segments are left as they are. Lucene's own {@code forceMergeDeletes} would
     * skip a segment with 10% or fewer of its documents deleted, and one that a merge is rewriting at the time (that
     * merge carries the deleted documents into its new segment). Called under the store's write lock, after the
     * deletes.
     */
    void expungeScope(String scope) throws IOException {
        for (int attempt = 1; ; attempt++) {
            // every merge starts from a call under the store's write lock, which the caller holds: once the running
            // ones are done, none starts until the rewrite below
            merges.sync();
            searchers.maybeRefreshBlocking();
            Set<String> segments = read(searcher -> segmentsHoldingDeleted(searcher.getIndexReader(), scope));
            if (segments.isEmpty()) {
                return;
            }
            if (attempt > 3) {
                log.warn("Segments {} of the crystal index still hold deleted crystals of scope '{}' after {} rewrites;"
                        + " they go with the next merge", segments, scope, attempt - 1);
                return;
            }
            mergePolicy.rewriteOnly(segments, () -> writer.forceMergeDeletes(true));
        }
    }

    /** The names of the segments with deleted documents of the scope: the postings still list deleted documents. */
    private static Set<String> segmentsHoldingDeleted(IndexReader reader, String scope) throws IOException {
        Set<String> segments = new LinkedHashSet<>();
        List<Term> terms = List.of(new Term(SCOPE, scope),
                new Term(LuceneEmbeddingStore.metadataField(CrystalWriter.SCOPE), scope));
        for (LeafReaderContext leaf : reader.leaves()) {
            Bits live = leaf.reader().getLiveDocs();
            if (live == null) {
                continue; // nothing deleted there
            }
            leaves:
            for (Term term : terms) {
                Terms postings = leaf.reader().terms(term.field());
                if (postings == null) {
                    continue;
                }
                TermsEnum lookup = postings.iterator();
                if (!lookup.seekExact(term.bytes())) {
                    continue;
                }
                PostingsEnum docs = lookup.postings(null, PostingsEnum.NONE);
                for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                    if (!live.get(doc)) {
                        segments.add(((SegmentReader) FilterLeafReader.unwrap(leaf.reader())).getSegmentName());
                        break leaves;
                    }
                }
            }
        }
        return segments;
    }

    void commit(long nextSeq) throws IOException {
        writer.setLiveCommitData(commitData(nextSeq, vectorModel).entrySet());
        writer.commit();
    }

    private static Map<String, String> commitData(long nextSeq, String vectorModel) {
        return vectorModel == null ? Map.of(FORMAT_KEY, FORMAT, NEXT_SEQ_KEY, Long.toString(nextSeq))
                : Map.of(FORMAT_KEY, FORMAT, NEXT_SEQ_KEY, Long.toString(nextSeq), VECTOR_MODEL_KEY, vectorModel);
    }

    /** The bytes the index holds: its files (in memory for an index in memory) and its writer's buffers. */
    long sizeInBytes() throws IOException {
        long bytes = writer.ramBytesUsed();
        for (String file : directory.listAll()) {
            try {
                bytes += directory.fileLength(file);
            } catch (NoSuchFileException | FileNotFoundException e) {
                // deleted by a merge meanwhile
            }
        }
        return bytes;
    }

    long committedNextSeq() {
        for (Map.Entry<String, String> entry : writer.getLiveCommitData()) {
            if (entry.getKey().equals(NEXT_SEQ_KEY)) {
                return Long.parseLong(entry.getValue());
            }
        }
        return 1;
    }

    // ---- reads ---------------------------------------------------------------------------------------

    /** @return the markers by directory name */
    Map<String, Marker> markers() throws IOException {
        return read(searcher -> {
            Map<String, Marker> markers = new HashMap<>();
            StoredFields stored = searcher.storedFields();
            for (ScoreDoc hit : searcher.search(new TermQuery(new Term(TYPE, MARKER)), Integer.MAX_VALUE).scoreDocs) {
                Document document = stored.document(hit.doc);
                markers.put(document.get(MARKER), new Marker(document.get(MARKER_SCOPE),
                        document.getField(MARKER_LENGTH).numericValue().longValue(),
                        document.getField(MARKER_SEQ).numericValue().longValue()));
            }
            return markers;
        });
    }

    /** @return the seq of every crystal of the scope, by id */
    Map<String, Long> seqs(String scope) throws IOException {
        return read(searcher -> {
            Map<String, Long> seqs = new HashMap<>();
            for (Stored stored : values(searcher, searcher.search(scopeQuery(scope), Integer.MAX_VALUE).scoreDocs)) {
                seqs.put(stored.crystal().id(), stored.seq());
            }
            return seqs;
        });
    }

    /** Every crystal of the scope with its seq, in seq order: what its records held, to write them anew. */
    List<Stored> stored(String scope) throws IOException {
        return read(searcher -> {
            List<Stored> crystals = new ArrayList<>(List.of(values(searcher,
                    searcher.search(scopeQuery(scope), Integer.MAX_VALUE).scoreDocs)));
            crystals.sort(Comparator.comparingLong(Stored::seq));
            return crystals;
        });
    }

    /** Where and as what an indexed crystal is: its scope and the seq of its record. */
    record Indexed(String scope, long seq) {
    }

    /** @return the scope and seq of each of these ids that is indexed */
    Map<String, Indexed> indexed(Collection<String> ids) throws IOException {
        Map<String, Indexed> found = new HashMap<>();
        List<String> rest = new ArrayList<>();
        for (String id : ids) {
            Unshown put = unshown.get(id);
            if (put != null) {
                found.put(id, put.indexed());
            } else {
                rest.add(id);
            }
        }
        if (rest.isEmpty()) {
            return found;
        }
        // the searchers as they are: they show every id not remembered above (the indexer's lookups refresh nothing)
        return readAsShown(searcher -> {
            for (Stored stored : values(searcher, searcher.search(idsQuery(rest), rest.size()).scoreDocs)) {
                found.put(stored.crystal().id(), new Indexed(stored.crystal().scope(), stored.seq()));
            }
            return found;
        });
    }

    /**
     * BM25 search of the scope: each term of the text scores in the crystals' text and, times
     * {@code contextWeight}, in their context. Also scores an evenly spread sample of at most {@code sampleSize} of
     * the scope's crystals (0 where no word matches), from which the scores of the crystals outside the top are
     * estimated.
     *
     * @return the {@linkplain VectorKeys keys} of the best {@code max} hits with their scores, best first, and the
     *         sample
     */
    Ranked keywordSearch(String scope, Set<CrystalKind> kinds, String text, double contextWeight, int max,
                         int sampleSize) throws IOException {
        return keywordSearch(scope, kinds, text, Map.of(), contextWeight, max, sampleSize);
    }

    /**
     * {@link #keywordSearch(String, Set, String, double, int, int)} with more words than the query's, each searched
     * in the crystals' text at its boost ({@link QueryFeedback}).
     */
    Ranked keywordSearch(String scope, Set<CrystalKind> kinds, String text, Map<String, Float> moreWords,
                         double contextWeight, int max, int sampleSize) throws IOException {
        Set<String> terms = terms(text);
        if (terms.isEmpty()) {
            return Ranked.EMPTY;
        }
        String partition = partition(scope);
        Query filter = filter(scope, kinds);
        return read(searcher -> {
            BooleanQuery.Builder words = new BooleanQuery.Builder();
            List<Term> contextTerms = new ArrayList<>();
            List<TermStates> contextStates = new ArrayList<>();
            for (String term : terms) {
                words.add(new TermQuery(new Term(BODY + partition, term)), Occur.SHOULD);
                if (contextWeight > 0) {
                    // looked up here, once, for the query and for the context's part of the hits (ContextScores)
                    Term inContext = new Term(CONTEXT_BODY + partition, term);
                    TermStates states = TermStates.build(searcher, inContext, true);
                    contextTerms.add(inContext);
                    contextStates.add(states);
                    words.add(new BoostQuery(new TermQuery(inContext, states), (float) contextWeight), Occur.SHOULD);
                }
            }
            moreWords.forEach((word, boost) -> words.add(
                    new BoostQuery(new TermQuery(new Term(BODY + partition, word)), boost), Occur.SHOULD));
            // a scope alone in its partition needs no filter: as a conjunction the filter would lead, and every
            // crystal of the scope would be visited instead of those the disjunction cannot skip
            boolean alone = alone(searcher.getIndexReader(), scope, kinds);
            Query query = alone ? words.build()
                    : new BooleanQuery.Builder().add(words.build(), Occur.MUST).add(filter, Occur.FILTER).build();
            // one weight for the top and the sample: its terms are looked up once
            Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.TOP_SCORES, 1f);
            ScoreDoc[] hits = top(searcher, weight, max);
            ScopeSample population = ScopeSample.of(searcher, filter, sampleSize);
            int[] sampled = population.docs();
            float[] sampleScores = scoresAt(searcher, weight, sampled);
            ScoreDoc[] sample = new ScoreDoc[sampled.length];
            for (int i = 0; i < sampled.length; i++) {
                sample[i] = new ScoreDoc(sampled[i], sampleScores[i]);
            }
            // the part of each top hit's score its context made (a crystal's breakdown, HitScores)
            float[] contexts = ContextScores.of(searcher, CONTEXT_BODY + partition, contextTerms, contextStates,
                    (float) contextWeight, hits);
            for (int i = 0; i < hits.length; i++) {
                contexts[i] = Math.min(contexts[i], hits[i].score);
            }
            return new Ranked(VectorKeys.scored(searcher, hits, VECTOR_KEY, contexts, keywordsOnly(searcher, hits)),
                    VectorKeys.scored(searcher, sample, VECTOR_KEY), population.population());
        });
    }

    /** @return whether each hit's crystal is tagged {@link Crystal#KEYWORDS_ONLY}, aligned with the hits */
    private static boolean[] keywordsOnly(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
        boolean[] tagged = new boolean[hits.length];
        Term tag = new Term(TAG, Crystal.KEYWORDS_ONLY);
        if (hits.length == 0 || searcher.getIndexReader().docFreq(tag) == 0) {
            return tagged;
        }
        Integer[] order = VectorKeys.inDocOrder(hits);
        int[] docs = new int[hits.length];
        for (int i = 0; i < docs.length; i++) {
            docs[i] = hits[order[i]].doc;
        }
        Weight weight = searcher.createWeight(new ConstantScoreQuery(new TermQuery(tag)), ScoreMode.COMPLETE, 1f);
        float[] matched = scoresAt(searcher, weight, docs);
        for (int i = 0; i < docs.length; i++) {
            tagged[order[i]] = matched[i] > 0;
        }
        return tagged;
    }

    /** The weight's score of each of the documents (ascending ids), 0 where it does not match. */
    private static float[] scoresAt(IndexSearcher searcher, Weight weight, int[] docs) throws IOException {
        float[] scores = new float[docs.length];
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        Scorer scorer = null;
        int leafIndex = -1;
        for (int i = 0; i < docs.length; i++) {
            int leaf = ReaderUtil.subIndex(docs[i], leaves);
            if (leaf != leafIndex) {
                leafIndex = leaf;
                scorer = weight.scorer(leaves.get(leaf));
            }
            int doc = docs[i] - leaves.get(leaf).docBase;
            if (scorer != null) {
                DocIdSetIterator matches = scorer.iterator();
                if (matches.docID() < doc) {
                    matches.advance(doc);
                }
                if (matches.docID() == doc) {
                    scores[i] = scorer.score();
                }
            }
        }
        return scores;
    }

    /** The best {@code max} hits of the weight over the live documents, as {@link IndexSearcher#search} collects. */
    private static ScoreDoc[] top(IndexSearcher searcher, Weight weight, int max) throws IOException {
        // counting no hits beyond the top lets BM25 skip documents that cannot enter it
        TopScoreDocCollectorManager manager = new TopScoreDocCollectorManager(max, max);
        TopScoreDocCollector collector = manager.newCollector();
        collector.setWeight(weight);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            BulkScorer scorer = weight.bulkScorer(leaf);
            if (scorer == null) {
                continue;
            }
            LeafCollector leafCollector;
            try {
                leafCollector = collector.getLeafCollector(leaf);
            } catch (CollectionTerminatedException e) {
                continue;
            }
            try {
                scorer.score(leafCollector, leaf.reader().getLiveDocs());
            } catch (CollectionTerminatedException e) {
                // this leaf holds nothing more that can enter the top
            }
            leafCollector.finish();
        }
        return manager.reduce(List.of(collector)).scoreDocs;
    }


    /** @return how many crystals of the scope (of these kinds; all when empty) there are */
    int count(String scope, Set<CrystalKind> kinds) throws IOException {
        return read(searcher -> searcher.count(filter(scope, kinds)));
    }

    private static Query filter(String scope, Set<CrystalKind> kinds) {
        if (kinds.isEmpty()) {
            return scopeQuery(scope);
        }
        return new BooleanQuery.Builder()
                .add(scopeQuery(scope), Occur.FILTER)
                .add(kindsQuery(kinds), Occur.FILTER)
                .build();
    }

    /** @return the crystals of the scope with these {@linkplain VectorKeys keys}, by key */
    Map<Long, Crystal> fetch(String scope, Collection<Long> keys) throws IOException {
        if (keys.isEmpty()) {
            return Map.of();
        }
        List<BytesRef> terms = new ArrayList<>(keys.stream().map(CrystalIndex::keyTerm).sorted().toList());
        return read(searcher -> {
            // the keys looked up with one terms enum per segment (a query would make one per key), and without the
            // scope as a filter: a key of another scope is told apart by the crystal read. The largest segments
            // first, and a key found is not looked for in the rest: an index has tens of segments, and seeking
            // every key in each was a third of fetching the hits
            Map<Long, Crystal> crystals = new HashMap<>();
            PostingsEnum postings = null;
            List<LeafReaderContext> leaves = new ArrayList<>(searcher.getIndexReader().leaves());
            leaves.sort(Comparator.comparingInt((LeafReaderContext leaf) -> leaf.reader().numDocs()).reversed());
            for (LeafReaderContext leaf : leaves) {
                Terms keyTerms = leaf.reader().terms(VECTOR_KEY_TERM);
                if (keyTerms == null) {
                    continue;
                }
                Bits live = leaf.reader().getLiveDocs();
                TermsEnum lookup = keyTerms.iterator();
                int[] docs = new int[terms.size()];
                long[] docKeys = new long[terms.size()];
                int count = 0;
                for (BytesRef term : terms) {
                    if (!lookup.seekExact(term)) {
                        continue;
                    }
                    postings = lookup.postings(postings, PostingsEnum.NONE);
                    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                        if (live == null || live.get(doc)) {
                            docs = ArrayUtil.grow(docs, count + 1);
                            docKeys = ArrayUtil.grow(docKeys, count + 1);
                            docs[count] = leaf.docBase + doc;
                            docKeys[count++] = keyOf(term); // the key the term spells: no hash again
                        }
                    }
                }
                Stored[] found = CrystalDocValues.read(searcher.getIndexReader(), VALUE,
                        ArrayUtil.copyOfSubArray(docs, 0, count));
                for (int i = 0; i < found.length; i++) {
                    if (found[i].crystal().scope().equals(scope)) {
                        crystals.put(docKeys[i], found[i].crystal());
                    }
                }
                terms.removeIf(term -> crystals.containsKey(keyOf(term)));
                if (terms.isEmpty()) {
                    break;
                }
            }
            return crystals;
        });
    }

    Optional<Crystal> get(String id) throws IOException {
        return read(searcher -> {
            TopDocs top = searcher.search(new TermQuery(new Term(ID, id)), 1);
            return top.scoreDocs.length == 0 ? Optional.empty()
                    : Optional.of(CrystalDocValues.read(searcher.getIndexReader(), VALUE, top.scoreDocs[0].doc).crystal());
        });
    }

    /** @return the scope's crystals after the time, the most important first, then the most recent */
    List<Crystal> recent(String scope, Instant after, int limit) throws IOException {
        long from = micros(after);
        Query query = new BooleanQuery.Builder()
                .add(scopeQuery(scope), Occur.FILTER)
                .add(LongField.newRangeQuery(TIME, from == Long.MAX_VALUE ? from : from + 1, Long.MAX_VALUE),
                        Occur.FILTER)
                .build();
        Sort sort = new Sort(new SortedNumericSortField(IMPORTANCE, SortField.Type.DOUBLE, true),
                new SortedNumericSortField(TIME, SortField.Type.LONG, true));
        return read(searcher -> {
            List<Crystal> crystals = new ArrayList<>();
            for (Stored stored : values(searcher, searcher.search(query, limit, sort).scoreDocs)) {
                crystals.add(stored.crystal());
            }
            return crystals;
        });
    }

    int count(String scope) throws IOException {
        return read(searcher -> searcher.count(scopeQuery(scope)));
    }

    /**
     * The analyzed terms of the crystal's text (not its context) ranked by tf-idf against the whole index (what BM25's idf weighs too), each
     * given as its first form in the text; terms of one character, terms without a letter or digit, the analyzer's
     * stop words and the words of {@code keyword-stopwords.txt} (function words and common verbs) are left out.
     */
    List<String> keywords(String id, int max) throws IOException {
        return read(searcher -> {
            TopDocs top = searcher.search(new TermQuery(new Term(ID, id)), 1);
            if (top.scoreDocs.length == 0) {
                return List.of();
            }
            Crystal crystal = CrystalDocValues.read(searcher.getIndexReader(), VALUE, top.scoreDocs[0].doc).crystal();
            String text = crystal.text();
            Map<String, TermUse> uses = new LinkedHashMap<>();
            try (TokenStream tokens = analyzer.tokenStream(BODY, text)) {
                CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
                OffsetAttribute offset = tokens.addAttribute(OffsetAttribute.class);
                tokens.reset();
                while (tokens.incrementToken()) {
                    String value = term.toString();
                    String surface = text.substring(offset.startOffset(), offset.endOffset());
                    if (value.length() > 1 && value.codePoints().anyMatch(Character::isLetterOrDigit)
                            && !KEYWORD_STOP_WORDS.contains(surface.toLowerCase(Locale.ROOT))) {
                        uses.computeIfAbsent(value, v -> new TermUse(v, surface, uses.size())).count++;
                    }
                }
                tokens.end();
            }
            String body = BODY + partition(crystal.scope());
            int documents = Math.max(1, searcher.getIndexReader().getDocCount(body));
            for (TermUse use : uses.values()) {
                int frequency = searcher.getIndexReader().docFreq(new Term(body, use.term));
                use.score = use.count * idf(frequency, documents);
            }
            Set<String> keywords = new LinkedHashSet<>();
            uses.values().stream()
                    .sorted(Comparator.comparingDouble((TermUse use) -> -use.score).thenComparingInt(use -> use.first))
                    .forEach(use -> {
                        if (keywords.size() < max && keywords.stream().noneMatch(use.surface::equalsIgnoreCase)) {
                            keywords.add(use.surface);
                        }
                    });
            return List.copyOf(keywords);
        });
    }

    private static final class TermUse {
        final String term;
        final String surface;
        final int first;
        int count;
        double score;

        TermUse(String term, String surface, int first) {
            this.term = term;
            this.surface = surface;
            this.first = first;
        }
    }

    /** BM25's idf (as Lucene's {@code BM25Similarity} weighs a word): a word in {@code docFreq} of {@code docCount}. */
    static double idf(long docFreq, long docCount) {
        return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
    }

    /** The distinct analyzed terms of a text, at most {@value #MAX_QUERY_TERMS}. */
    private Set<String> terms(String text) throws IOException {
        Set<String> terms = new LinkedHashSet<>();
        eachTerm(text, term -> {
            terms.add(term);
            return terms.size() < MAX_QUERY_TERMS;
        });
        return terms;
    }

    /** Hands each analyzed term of {@code text}, in order, to {@code term} while it answers true. */
    private void eachTerm(String text, Predicate<String> term) throws IOException {
        try (TokenStream tokens = analyzer.tokenStream(BODY, text)) {
            CharTermAttribute value = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            boolean more = true;
            while (more && tokens.incrementToken()) {
                more = term.test(value.toString());
            }
            tokens.end();
        }
    }

    /**
     * @param texts      the best hits' texts, best first, each read up to {@link QueryFeedback#TEXT_CHARS}
     * @param population how many live crystals of the scope (and kinds) the search covers: the word count's
     *                   whole when the scope shares its partition
     * @return the words to add to the query {@code text} ({@link QueryFeedback}), weighed by how many crystals of
     *         the scope hold them: the partition's statistics when the scope is alone in it (as BM25 weighs words),
     *         else counted in the scope, so that another user's crystals never sway them
     */
    Map<String, Float> feedbackWords(String scope, Set<CrystalKind> kinds, String text, List<String> texts,
                                     int population, double weight) throws IOException {
        Set<String> queryWords = terms(text);
        List<Map<String, Integer>> hitWords = new ArrayList<>(texts.size());
        for (String hit : texts) {
            Map<String, Integer> counts = new HashMap<>();
            String start = hit.length() > QueryFeedback.TEXT_CHARS ? hit.substring(0, QueryFeedback.TEXT_CHARS) : hit;
            eachTerm(start, term -> {
                counts.merge(term, 1, Integer::sum);
                return true;
            });
            if (!counts.isEmpty()) {
                hitWords.add(counts);
            }
        }
        if (hitWords.stream().allMatch(counts -> queryWords.containsAll(counts.keySet()))) {
            return Map.of(); // no word to add
        }
        String field = BODY + partition(scope);
        Query filter = filter(scope, kinds);
        return read(searcher -> {
            IndexReader reader = searcher.getIndexReader();
            if (alone(reader, scope, kinds)) {
                // the partition's statistics are the scope's, as BM25 weighs the query's words (deleted crystals
                // count until merged away): one terms enum per segment for all the words
                List<TermsEnum> lookups = new ArrayList<>();
                for (LeafReaderContext leaf : reader.leaves()) {
                    Terms terms = leaf.reader().terms(field);
                    if (terms != null) {
                        lookups.add(terms.iterator());
                    }
                }
                return QueryFeedback.words(hitWords, queryWords, word -> {
                    BytesRef bytes = new BytesRef(word);
                    int docFreq = 0;
                    for (TermsEnum lookup : lookups) {
                        docFreq += lookup.seekExact(bytes) ? lookup.docFreq() : 0;
                    }
                    return docFreq;
                }, reader.getDocCount(field), weight);
            }
            // counted in the scope: another user's crystals never sway the words
            return QueryFeedback.words(hitWords, queryWords, new ScopeDocFreqs(searcher, filter, field), population,
                    weight);
        });
    }

    /** @return whether every crystal of the scope's partition is the scope's and of the kinds: no filter needed */
    private static boolean alone(IndexReader reader, String scope, Set<CrystalKind> kinds) throws IOException {
        return kinds.isEmpty()
                && reader.docFreq(new Term(PARTITION, partition(scope))) == reader.docFreq(new Term(SCOPE, scope));
    }

    /** The suffix of a scope's keyword fields: the partition of its vectors. */
    private static String partition(String scope) {
        return "." + LuceneEmbeddingStore.partition(scope);
    }

    static BytesRef keyTerm(long key) {
        byte[] bytes = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (key >>> (56 - 8 * i));
        }
        return new BytesRef(bytes);
    }

    /** The key {@link #keyTerm} spelled. */
    static long keyOf(BytesRef term) {
        long key = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            key = key << 8 | (term.bytes[term.offset + i] & 0xFF);
        }
        return key;
    }

    static Query scopeQuery(String scope) {
        return new TermQuery(new Term(SCOPE, scope));
    }

    private static Query idsQuery(Collection<String> ids) {
        return new TermInSetQuery(ID, ids.stream().map(BytesRef::new).toList());
    }

    private static Query kindsQuery(Set<CrystalKind> kinds) {
        return new TermInSetQuery(KIND, kinds.stream().map(kind -> new BytesRef(kind.textName())).toList());
    }

    /** The crystals and seqs of the hits, aligned with them. */
    private static Stored[] values(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
        int[] docs = new int[hits.length];
        for (int i = 0; i < hits.length; i++) {
            docs[i] = hits[i].doc;
        }
        return CrystalDocValues.read(searcher.getIndexReader(), VALUE, docs);
    }

    static long micros(Instant time) {
        return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000L), time.getNano() / 1_000);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    private interface SearcherFunction<T> {
        T apply(IndexSearcher searcher) throws IOException;
    }

    private <T> T read(SearcherFunction<T> function) throws IOException {
        refreshIfWritten();
        return readAsShown(function);
    }

    /** Reads the searchers as they are, without first showing the writes marked since. */
    private <T> T readAsShown(SearcherFunction<T> function) throws IOException {
        IndexSearcher searcher = searchers.acquire();
        try {
            return function.apply(searcher);
        } finally {
            searchers.release(searcher);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            searchers.close();
            writer.close();
        } finally {
            directory.close();
        }
    }

    private static CharArraySet keywordStopWords() {
        try (Reader reader = new InputStreamReader(Objects.requireNonNull(
                CrystalIndex.class.getResourceAsStream("keyword-stopwords.txt")), StandardCharsets.UTF_8)) {
            return WordlistLoader.getWordSet(reader, "#", new CharArraySet(200, false));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Lucene's HNSW format over 7-bit scalar-quantized vectors (the float vectors are kept too), allowing
     * {@value #MAX_VECTOR_DIMENSIONS} dimensions; read back as that format. On 100,000 MiniLM vectors, a search of one
     * scope's 10% ran 3 to 5 times faster than over float vectors (Java 17 has no SIMD for Lucene's float scoring).
     */
    private static final class LargeVectors extends Lucene99HnswScalarQuantizedVectorsFormat {

        static final KnnVectorsFormat FORMAT = new LargeVectors();

        @Override
        public int getMaxDimensions(String fieldName) {
            return MAX_VECTOR_DIMENSIONS;
        }
    }
}
