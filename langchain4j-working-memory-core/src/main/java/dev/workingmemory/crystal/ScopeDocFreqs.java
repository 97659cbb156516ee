package dev.workingmemory.crystal;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * How many live crystals of one scope hold a word, where the scope shares its partition with others (so the field's
 * statistics are not the scope's): the scope's crystals are gathered once per segment (their ids: memory in
 * proportion to the scope, not to the index), and each word's documents are walked against them. The same count as
 * a search of the word within the scope's filter, without building a query, a weight and the filter's iterator again
 * for every word ({@link QueryFeedback} asks of dozens).
 *
 * <p>Not thread-safe: one search's, on one searcher.
 */
final class ScopeDocFreqs implements QueryFeedback.DocFreq {

    /** Per segment: the scope's live crystals, ascending, null where it has none or no document has the field. */
    private final int[][] scope;
    private final TermsEnum[] terms;
    private PostingsEnum postings;

    /**
     * @param filter the scope's crystals (and kinds)
     * @param field  the field whose words are counted
     */
    ScopeDocFreqs(IndexSearcher searcher, Query filter, String field) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        scope = new int[leaves.size()][];
        terms = new TermsEnum[leaves.size()];
        for (int i = 0; i < scope.length; i++) {
            LeafReaderContext leaf = leaves.get(i);
            Scorer scorer = weight.scorer(leaf);
            Terms words = leaf.reader().terms(field);
            if (scorer == null || words == null) {
                continue;
            }
            int[] crystals = new int[16];
            int size = 0;
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator iterator = scorer.iterator();
            for (int doc = iterator.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = iterator.nextDoc()) {
                if (live == null || live.get(doc)) {
                    crystals = ArrayUtil.grow(crystals, size + 1);
                    crystals[size++] = doc;
                }
            }
            if (size > 0) {
                scope[i] = Arrays.copyOf(crystals, size);
                terms[i] = words.iterator();
            }
        }
    }

    @Override
    public int of(String word) throws IOException {
        BytesRef bytes = new BytesRef(word);
        int count = 0;
        for (int i = 0; i < scope.length; i++) {
            if (scope[i] == null || !terms[i].seekExact(bytes)) {
                continue;
            }
            postings = terms[i].postings(postings, PostingsEnum.NONE);
            int[] crystals = scope[i];
            // each side skips to the other's next document: few steps whether the word or the scope is the rarer
            int next = 0;
            while (next < crystals.length) {
                int doc = postings.advance(crystals[next]);
                if (doc == DocIdSetIterator.NO_MORE_DOCS) {
                    break;
                }
                int at = Arrays.binarySearch(crystals, next, crystals.length, doc);
                if (at >= 0) {
                    count++;
                    next = at + 1;
                } else {
                    next = -at - 1; // the first crystal after the word's document
                }
            }
        }
        return count;
    }
}
