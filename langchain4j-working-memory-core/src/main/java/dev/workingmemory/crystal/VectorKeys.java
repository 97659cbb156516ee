package dev.workingmemory.crystal;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;

import java.io.IOException;
import dev.workingmemory.crystal.RankFusion.Scored;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The 64-bit key of a vector id, under which a search's keyword and vector hits meet: both the crystal's document
 * and its vector's hold it as a numeric doc value, which a search reads far cheaper than a string (whose terms
 * dictionary is decompressed block by block). Two ids share a key with a probability of about n²/2⁶⁵ among n
 * crystals of a scope (10⁻¹¹ for 10,000).
 *
 * <p>Thread-safe (stateless).
 */
final class VectorKeys {

    private VectorKeys() {
    }

    static long of(String vectorId) {
        BytesRef bytes = new BytesRef(vectorId);
        long high = StringHelper.murmurhash3_x86_32(bytes, 0x9747b28c);
        long low = StringHelper.murmurhash3_x86_32(bytes, 0x5bd1e995);
        return (high << 32) | (low & 0xffffffffL);
    }

    /** @return each hit's key (read from the field) with its score, in the hits' order */
    static List<Scored> scored(IndexSearcher searcher, ScoreDoc[] hits, String field) throws IOException {
        return scored(searcher, hits, field, null, null);
    }

    /**
     * @param contexts     the part of each hit's score its context made, aligned with the hits; null for none
     * @param keywordsOnly whether each hit's crystal has no vector by design, aligned with the hits; null for none
     * @return each hit's key (read from the field) with its score, in the hits' order
     */
    static List<Scored> scored(IndexSearcher searcher, ScoreDoc[] hits, String field, float[] contexts,
                               boolean[] keywordsOnly) throws IOException {
        long[] keys = of(searcher, hits, field);
        List<Scored> scored = new ArrayList<>(hits.length);
        for (int i = 0; i < hits.length; i++) {
            scored.add(new Scored(keys[i], hits[i].score, contexts == null ? 0 : contexts[i],
                    keywordsOnly != null && keywordsOnly[i]));
        }
        return scored;
    }

    /**
     * @return the positions of the hits in ascending document order: how doc values, postings and scorers are read
     */
    static Integer[] inDocOrder(ScoreDoc[] hits) {
        int[] docs = new int[hits.length];
        Arrays.setAll(docs, i -> hits[i].doc);
        return inDocOrder(docs);
    }

    /** @return the positions of the documents, ordered by document id */
    static Integer[] inDocOrder(int[] docs) {
        Integer[] order = new Integer[docs.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (a, b) -> Integer.compare(docs[a], docs[b]));
        return order;
    }

    /** @return the key each hit holds in the field, in the hits' order (every document this store writes has one) */
    static long[] of(IndexSearcher searcher, ScoreDoc[] hits, String field) throws IOException {
        Integer[] order = inDocOrder(hits); // doc values only move forward
        long[] keys = new long[hits.length];
        var leaves = searcher.getIndexReader().leaves();
        SortedNumericDocValues values = null;
        int leafIndex = -1;
        for (int i : order) {
            int leaf = ReaderUtil.subIndex(hits[i].doc, leaves);
            if (leaf != leafIndex) {
                leafIndex = leaf;
                LeafReaderContext context = leaves.get(leaf);
                values = DocValues.getSortedNumeric(context.reader(), field);
            }
            if (!values.advanceExact(hits[i].doc - leaves.get(leaf).docBase)) {
                throw new IllegalStateException("A search hit has no " + field + " (the index is not this version's)");
            }
            keys[i] = values.nextValue();
        }
        return keys;
    }
}
