package dev.workingmemory.crystal;

import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Lucene's {@link TieredMergePolicy}, except that a forced merge of deletes can be told to rewrite exactly some
 * segments (each on its own), whatever share of their documents is deleted: how the crystal index removes a deleted
 * scope's text from its files.
 *
 * <p>Thread-safe; {@link #rewriteOnly} calls must not overlap (the crystal index makes them under its store's write
 * lock).
 */
final class ExpungingMergePolicy extends FilterMergePolicy {

    /** The segments the running {@link #rewriteOnly} rewrites; null otherwise. */
    private volatile Set<String> only;

    ExpungingMergePolicy() {
        super(new TieredMergePolicy());
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
