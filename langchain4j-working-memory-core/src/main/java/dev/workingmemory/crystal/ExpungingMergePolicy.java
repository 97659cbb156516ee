package dev.workingmemory.crystal;

import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Lucene's {@link TieredMergePolicy} set to keep few segments, and a forced merge of deletes that can be told to
 * rewrite exactly some segments (each on its own), whatever share of their documents is deleted: how the crystal
 * index removes a deleted scope's text from its files.
 *
 * <p>Why few segments: every search visits each segment (its HNSW graph of the scope's partition, its terms, its
 * keys), so a search's cost grows with their number, while the index grows no faster than crystals are embedded
 * (tens per second), which leaves merging cheap. Segments below {@value #FLOOR_SEGMENT_MB} MB count as that size
 * (Lucene 9's default is 2 MB; Lucene 10.2 made it 16 MB, as small segments search no better than a scan), and
 * {@value #SEGMENTS_PER_TIER} segments of a size are allowed before they merge (the default is 10). On 100,000
 * crystals of ten scopes (249 MB) this keeps 5 to 7 segments where the defaults kept 15 to 18, and one scope's search
 * costs a third less; building that index from precomputed vectors took a few seconds more (66–71 against 62–64 s),
 * and indexing the BEAM chats, embedding included, as long as before (the benchmarks README).
 *
 * <p>Thread-safe; {@link #rewriteOnly} calls must not overlap (the crystal index makes them under its store's write
 * lock).
 */
final class ExpungingMergePolicy extends FilterMergePolicy {

    /** Segments smaller than this many MB count as this size when choosing merges. */
    static final int FLOOR_SEGMENT_MB = 16;
    /** How many segments of about one size the index keeps before merging them. */
    static final int SEGMENTS_PER_TIER = 4;

    /** The segments the running {@link #rewriteOnly} rewrites; null otherwise. */
    private volatile Set<String> only;

    ExpungingMergePolicy() {
        super(new TieredMergePolicy().setFloorSegmentMB(FLOOR_SEGMENT_MB).setSegmentsPerTier(SEGMENTS_PER_TIER));
    }

    interface ForcedMerge {
        void run() throws IOException;
    }

    /** Runs {@code merge} (a {@code forceMergeDeletes}) choosing exactly the named segments that are not merging. */
    void rewriteOnly(Set<String> segments, ForcedMerge merge) throws IOException {
        only = Set.copyOf(segments);
        try {
            merge.run();
        } finally {
            only = null;
        }
    }

    @Override
    public MergeSpecification findForcedDeletesMerges(SegmentInfos infos, MergeContext context) throws IOException {
        Set<String> segments = only;
        if (segments == null) {
            return super.findForcedDeletesMerges(infos, context);
        }
        MergeSpecification merges = null;
        for (SegmentCommitInfo info : infos) {
            if (segments.contains(info.info.name) && !context.getMergingSegments().contains(info)) {
                if (merges == null) {
                    merges = new MergeSpecification();
                }
                merges.add(new OneMerge(List.of(info)));
            }
        }
        return merges;
    }
}
