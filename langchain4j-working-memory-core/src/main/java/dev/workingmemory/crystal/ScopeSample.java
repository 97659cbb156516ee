package dev.workingmemory.crystal;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Documents spread evenly over what a query matches (in index order, which is about the order they were added), so
 * that a statistic of a whole scope can be estimated from a bounded number of them; all of them when there are few
 * enough. Where the matches are counted without iterating them (a term, by its statistics), the sample of a larger
 * scope takes the first live match at or after evenly spaced ids instead of every n-th match, and the population
 * includes deleted documents not merged away yet.
 *
 * @param population how many live documents the query matches (see above for a large scope)
 * @param docs       the global ids of at most {@code max} of them, ascending
 */
record ScopeSample(int population, int[] docs) {

    /** How many crystals of a scope a search scores to standardize its lists; a scope this small is scored whole. */
    static final int SIZE = 256;

    static ScopeSample of(IndexSearcher searcher, Query query, int max) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        int[] counts = new int[leaves.size()];
        long population = 0;
        for (int i = 0; i < counts.length; i++) {
            // a term's documents are counted by its statistics, which include deleted documents not merged away yet:
            // the population of a large scope is then a little high, and its sample skips deleted documents
            counts[i] = query instanceof TermQuery term ? leaves.get(i).reader().docFreq(term.getTerm())
                    : weight.count(leaves.get(i)); // -1 when only iterating tells
            if (counts[i] < 0) {
                return iterated(weight, leaves, max);
            }
            population += counts[i];
        }
        if (population <= max) {
            return iterated(weight, leaves, max);
        }
        // counted without iterating: the sample is taken by skipping to evenly spaced ids of each leaf
        int[] docs = new int[max];
        int size = 0;
        long before = 0;
        for (int i = 0; i < counts.length; i++) {
            int quota = (int) ((before + counts[i]) * max / population - before * max / population);
            before += counts[i];
            Scorer scorer = quota == 0 ? null : weight.scorer(leaves.get(i));
            if (scorer == null) {
                continue;
            }
            DocIdSetIterator iterator = scorer.iterator();
            Bits live = leaves.get(i).reader().getLiveDocs();
            int maxDoc = leaves.get(i).reader().maxDoc();
            for (int j = 0; j < quota && iterator.docID() != DocIdSetIterator.NO_MORE_DOCS; j++) {
                int target = (int) ((long) j * maxDoc / quota);
                int doc = iterator.docID() >= target ? iterator.nextDoc() : iterator.advance(target);
                while (doc != DocIdSetIterator.NO_MORE_DOCS && live != null && !live.get(doc)) {
                    doc = iterator.nextDoc();
                }
                if (doc != DocIdSetIterator.NO_MORE_DOCS) {
                    docs[size++] = leaves.get(i).docBase + doc;
                }
            }
        }
        return new ScopeSample((int) population, Arrays.copyOf(docs, size));
    }

    /** Every matching live document counted, every n-th taken. */
    private static ScopeSample iterated(Weight weight, List<LeafReaderContext> leaves, int max) throws IOException {
        int[] matching = new int[64];
        int size = 0;
        for (LeafReaderContext leaf : leaves) {
            Scorer scorer = weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator iterator = scorer.iterator();
            for (int doc = iterator.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = iterator.nextDoc()) {
                if (live == null || live.get(doc)) {
                    if (size == matching.length) {
                        matching = Arrays.copyOf(matching, size * 2);
                    }
                    matching[size++] = leaf.docBase + doc;
                }
            }
        }
        if (size <= max) {
            return new ScopeSample(size, Arrays.copyOf(matching, size));
        }
        int[] docs = new int[max];
        for (int i = 0; i < max; i++) {
            docs[i] = matching[(int) ((long) i * size / max)];
        }
        return new ScopeSample(size, docs);
    }
}
