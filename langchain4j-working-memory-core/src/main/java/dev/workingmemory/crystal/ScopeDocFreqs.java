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
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

import java.io.IOException;
import java.util.List;

/**
 * How many live crystals of one scope hold a word, where the scope shares its partition with others (so the field's
 * statistics are not the scope's): the scope's crystals are gathered once per segment, and each word's documents
 * are walked against them. The same count as a search of the word within the scope's filter, without building a
 * query, a weight and the filter's iterator again for every word ({@link QueryFeedback} asks of dozens).
 *
 * <p>Not thread-safe: one search's, on one searcher.
 */
final class ScopeDocFreqs implements QueryFeedback.DocFreq {

    /** Per segment: the scope's live crystals, null where it has none or no document has the field. */
    private final FixedBitSet[] scope;
    private final TermsEnum[] terms;
    private PostingsEnum postings;

    /**
     * @param filter the scope's crystals (and kinds)
     * @param field  the field whose words are counted
     */
    ScopeDocFreqs(IndexSearcher searcher, Query filter, String field) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        scope = new FixedBitSet[leaves.size()];
        terms = new TermsEnum[leaves.size()];
        for (int i = 0; i < scope.length; i++) {
            LeafReaderContext leaf = leaves.get(i);
            Scorer scorer = weight.scorer(leaf);
            Terms words = leaf.reader().terms(field);
            if (scorer == null || words == null) {
                continue;
            }
            FixedBitSet crystals = new FixedBitSet(leaf.reader().maxDoc());
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator iterator = scorer.iterator();
            for (int doc = iterator.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = iterator.nextDoc()) {
                if (live == null || live.get(doc)) {
                    crystals.set(doc);
                }
            }
            scope[i] = crystals;
            terms[i] = words.iterator();
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
            FixedBitSet crystals = scope[i];
            // each side skips to the other's next document: few steps whether the word or the scope is the rarer
            int next = crystals.nextSetBit(0);
            while (next != DocIdSetIterator.NO_MORE_DOCS) {
                int doc = postings.advance(next);
                if (doc == DocIdSetIterator.NO_MORE_DOCS) {
                    break;
                }
                if (crystals.get(doc)) {
                    count++;
                }
                next = doc + 1 < crystals.length() ? crystals.nextSetBit(doc + 1) : DocIdSetIterator.NO_MORE_DOCS;
            }
        }
        return count;
    }
}
