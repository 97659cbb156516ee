package dev.workingmemory.crystal;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.Similarity.SimScorer;

import java.io.IOException;
import java.util.List;

/**
 * The part of keyword hits' scores their context made ({@link HitScores#context()}): the searcher's similarity of
 * each context term at each hit, with the boost the keyword query gave the context, summed as Lucene sums a
 * disjunction's clauses (in double, then rounded to float). It reads the postings of the terms looked up already
 * (their {@link TermStates}), one postings enum per segment holding hits, instead of running a second query: that
 * query's weight looked the terms up in every segment again and its scorers made an enum per term and segment (for
 * the 30 keyword candidates of a 10,000-crystal scope: 74 KB and about 10% of the store's own search time).
 *
 * <p>Thread-safe (stateless).
 */
final class ContextScores {

    private ContextScores() {
    }

    /**
     * @param field the context field all the terms are in
     * @param terms the context terms of the query, with the states they were looked up with in this searcher
     * @param boost the context's weight in the keyword query
     * @param hits  the hits, in any order
     * @return each hit's context score, aligned with the hits; 0 where no context term matches
     */
    static float[] of(IndexSearcher searcher, String field, List<Term> terms, List<TermStates> states, float boost,
                      ScoreDoc[] hits) throws IOException {
        float[] scores = new float[hits.length];
        CollectionStatistics collection = searcher.collectionStatistics(field);
        if (hits.length == 0 || terms.isEmpty() || collection == null) {
            return scores;
        }
        SimScorer[] similarities = new SimScorer[terms.size()];
        for (int t = 0; t < similarities.length; t++) {
            TermStates state = states.get(t);
            if (state.docFreq() > 0) {
                similarities[t] = searcher.getSimilarity().scorer(boost, collection,
                        searcher.termStatistics(terms.get(t), state.docFreq(), state.totalTermFreq()));
            }
        }
        Integer[] order = VectorKeys.inDocOrder(hits);
        double[] sums = new double[hits.length];
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        for (int from = 0; from < order.length; ) {
            LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(hits[order[from]].doc, leaves));
            int to = from;
            while (to < order.length && hits[order[to]].doc < leaf.docBase + leaf.reader().maxDoc()) {
                to++;
            }
            addLeaf(leaf, field, terms, states, similarities, hits, order, from, to, sums);
            from = to;
        }
        for (int i = 0; i < hits.length; i++) {
            scores[i] = (float) sums[i];
        }
        return scores;
    }

    /** Adds the scores of the hits {@code order[from..to)}, all in this leaf, ascending. */
    private static void addLeaf(LeafReaderContext leaf, String field, List<Term> terms, List<TermStates> states,
                                SimScorer[] similarities, ScoreDoc[] hits, Integer[] order, int from, int to,
                                double[] sums) throws IOException {
        Terms fieldTerms = leaf.reader().terms(field);
        if (fieldTerms == null) {
            return;
        }
        // a document's norm read once for all terms (norms only go forward)
        NumericDocValues normValues = leaf.reader().getNormValues(field);
        long[] norms = new long[to - from];
        for (int i = from; i < to; i++) {
            int doc = hits[order[i]].doc - leaf.docBase;
            norms[i - from] = normValues == null ? 1L : normValues.advanceExact(doc) ? normValues.longValue() : 0L;
        }
        TermsEnum lookup = fieldTerms.iterator();
        PostingsEnum postings = null;
        for (int t = 0; t < terms.size(); t++) {
            TermState state = similarities[t] == null ? null : states.get(t).get(leaf);
            if (state == null) {
                continue; // not in this segment
            }
            lookup.seekExact(terms.get(t).bytes(), state);
            postings = lookup.postings(postings, PostingsEnum.FREQS);
            for (int i = from; i < to; i++) {
                int doc = hits[order[i]].doc - leaf.docBase;
                if (postings.docID() < doc) {
                    postings.advance(doc);
                }
                if (postings.docID() == DocIdSetIterator.NO_MORE_DOCS) {
                    break;
                }
                if (postings.docID() == doc) {
                    sums[order[i]] += similarities[t].score(postings.freq(), norms[i - from]);
                }
            }
        }
    }
}
