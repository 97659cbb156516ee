package dev.workingmemory.crystal;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ExpungingMergePolicyTest {

    private static final int FLUSHES = 24;
    private static final int DOCUMENTS_PER_FLUSH = 8;
    /** Random bytes do not compress: each flush writes a segment of about 1 MB. */
    private static final int BYTES_PER_DOCUMENT = 128 * 1024;

    /** Segments left after {@link #FLUSHES} flushes of about 1 MB, merges finished. */
    private static int segmentsAfterSmallFlushes(MergePolicy policy) throws IOException {
        Random random = new Random(7);
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig()
                     .setMergePolicy(policy).setMergeScheduler(new SerialMergeScheduler()))) {
            for (int flush = 0; flush < FLUSHES; flush++) {
                for (int i = 0; i < DOCUMENTS_PER_FLUSH; i++) {
                    byte[] bytes = new byte[BYTES_PER_DOCUMENT];
                    random.nextBytes(bytes);
                    Document document = new Document();
                    document.add(new StringField("id", flush + "-" + i, Field.Store.NO));
                    document.add(new StoredField("bytes", bytes));
                    writer.addDocument(document);
                }
                writer.commit(); // a segment of its own, and the merges it calls for (run here, serially)
            }
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                assertThat(reader.numDocs()).isEqualTo(FLUSHES * DOCUMENTS_PER_FLUSH);
                return reader.leaves().size();
            }
        }
    }

    @Test
    void should_keep_an_index_of_small_flushes_in_as_many_segments_as_a_tier_allows() throws IOException {
        // 24 MB in 24 segments of 1 MB: below the floor every segment counts as 16 MB, so the index keeps at most
        // one tier of them; Lucene's defaults (a 2 MB floor, ten per tier) merge ten at a time and leave more
        int kept = segmentsAfterSmallFlushes(new ExpungingMergePolicy());
        int byDefault = segmentsAfterSmallFlushes(new TieredMergePolicy());

        assertThat(kept).isBetween(1, ExpungingMergePolicy.SEGMENTS_PER_TIER);
        assertThat(byDefault).isGreaterThan(ExpungingMergePolicy.SEGMENTS_PER_TIER);
    }

    @Test
    void should_rewrite_exactly_the_named_segments_when_told_to() throws IOException {
        ExpungingMergePolicy policy = new ExpungingMergePolicy();
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig()
                     .setMergePolicy(policy).setMergeScheduler(new SerialMergeScheduler()))) {
            for (int segment = 0; segment < 3; segment++) {
                for (int i = 0; i < 10; i++) {
                    Document document = new Document();
                    document.add(new StringField("id", segment + "-" + i, Field.Store.YES));
                    writer.addDocument(document);
                }
                writer.commit();
            }
            writer.deleteDocuments(new Term("id", "1-0")); // one deleted of ten: too few for Lucene to rewrite it
            writer.commit();
            String named;
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                assertThat(reader.leaves()).hasSize(3);
                named = reader.leaves().stream()
                        .filter(leaf -> leaf.reader().numDeletedDocs() == 1)
                        .map(leaf -> ((SegmentReader) leaf.reader()).getSegmentName())
                        .findFirst().orElseThrow();
            }

            policy.rewriteOnly(Set.of(named), () -> writer.forceMergeDeletes(true));
            writer.commit();

            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                assertThat(reader.leaves()).hasSize(3);
                assertThat(reader.numDeletedDocs()).isZero();
                assertThat(reader.numDocs()).isEqualTo(29);
                assertThat(reader.leaves().stream()
                        .map(leaf -> ((SegmentReader) leaf.reader()).getSegmentName()))
                        .doesNotContain(named);
            }
        }
    }
}
