package dev.workingmemory.crystal;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.ConjunctionUtils;
import org.apache.lucene.search.DocIdSet;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilteredDocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.DocIdSetBuilder;

import java.io.IOException;
import java.util.List;

/**
 * How many live crystals of one scope hold a word, where the scope shares its partition with others (so the field's
 * statistics are not the scope's): the scope's live crystals are gathered once per segment (Lucene's
 * {@link DocIdSetBuilder}: their ids while few, a bit set when dense), and each word's documents are intersected with
 * them. The same count as a search of the word within the scope's filter, without building a query, a weight and
 * the filter's iterator again for every word ({@link QueryFeedback} asks of dozens).
 *
 * <p>Not thread-safe: one search's, on one searcher.
 */
final class ScopeDocFreqs implements QueryFeedback.DocFreq {

    /** Per segment: the scope's live crystals, null where it has none or no document has the field. */
    private final DocIdSet[] scope;
    private final TermsEnum[] terms;
    private PostingsEnum postings;

    /**
     * @param filter the scope's crystals (and kinds)
     * @param field  the field whose words are counted
     */
    ScopeDocFreqs(IndexSearcher searcher, Query filter, String field) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        scope = new DocIdSet[leaves.size()];
        terms = new TermsEnum[leaves.size()];
        for (int i = 0; i < scope.length; i++) {
            LeafReaderContext leaf = leaves.get(i);
            Scorer scorer = weight.scorer(leaf);
            Terms words = leaf.reader().terms(field);
            if (scorer == null || words == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetBuilder crystals = new DocIdSetBuilder(leaf.reader().maxDoc());
            crystals.add(live == null ? scorer.iterator() : new FilteredDocIdSetIterator(scorer.iterator()) {
                @Override
                protected boolean match(int doc) {
                    return live.get(doc);
                }
            });
            scope[i] = crystals.build();
            terms[i] = words.iterator();
        }
    }

    @Override
    public int of(String word) throws IOException {
        BytesRef bytes = new BytesRef(word);
        int count = 0;
        for (int i = 0; i < scope.length; i++) {
            DocIdSetIterator crystals = scope[i] == null ? null : scope[i].iterator();
            if (crystals == null || !terms[i].seekExact(bytes)) {
                continue;
            }
            postings = terms[i].postings(postings, PostingsEnum.NONE);
            DocIdSetIterator both = ConjunctionUtils.intersectIterators(List.of(postings, crystals));
            while (both.nextDoc() != DocIdSetIterator.NO_MORE_DOCS) {
                count++;
            }
        }
        return count;
    }
}
