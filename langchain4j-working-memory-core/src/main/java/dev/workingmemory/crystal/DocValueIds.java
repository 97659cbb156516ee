package dev.workingmemory.crystal;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the ids of search hits from a sorted doc-values field: far cheaper than stored fields, whose compressed
 * blocks a search would decompress once per hit.
 *
 * <p>Thread-safe (stateless).
 */
final class DocValueIds {

    private DocValueIds() {
    }

    /** @return the field's value of each hit, in the hits' order (null where a document has none) */
    static List<String> of(IndexSearcher searcher, ScoreDoc[] hits, String field) throws IOException {
        Integer[] order = new Integer[hits.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (a, b) -> Integer.compare(hits[a].doc, hits[b].doc)); // doc values only move forward
        String[] ids = new String[hits.length];
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        SortedDocValues values = null;
        int leafIndex = -1;
        for (int i : order) {
            int leaf = ReaderUtil.subIndex(hits[i].doc, leaves);
            if (leaf != leafIndex) {
                leafIndex = leaf;
                values = DocValues.getSorted(leaves.get(leaf).reader(), field);
            }
            if (values.advanceExact(hits[i].doc - leaves.get(leaf).docBase)) {
                ids[i] = values.lookupOrd(values.ordValue()).utf8ToString();
            }
        }
        return new ArrayList<>(Arrays.asList(ids));
    }
}
