package dev.workingmemory.crystal;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class ScopeSampleTest {

    /** 3,000 documents in three segments, every third of scope "a"; the ids of "a" are 0, 3, 6, … */
    private static IndexWriter writer(ByteBuffersDirectory directory) throws IOException {
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()));
        for (int i = 0; i < 3_000; i++) {
            Document document = new Document();
            document.add(new StringField("scope", i % 3 == 0 ? "a" : "b", Field.Store.NO));
            document.add(new StringField("id", Integer.toString(i), Field.Store.NO));
            writer.addDocument(document);
            if (i % 1_000 == 999) {
                writer.commit();
            }
        }
        writer.commit();
        return writer;
    }

    @Test
    void should_take_the_whole_scope_when_it_is_small_enough() throws IOException {
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory(); IndexWriter writer = writer(directory);
             DirectoryReader reader = DirectoryReader.open(writer)) {
            ScopeSample sample = ScopeSample.of(new IndexSearcher(reader), new TermQuery(new Term("scope", "a")), 1_000);

            assertThat(sample.population()).isEqualTo(1_000);
            assertThat(sample.docs()).hasSize(1_000);
            assertThat(Arrays.stream(sample.docs()).allMatch(doc -> doc % 3 == 0)).isTrue();
        }
    }

    @Test
    void should_spread_the_sample_over_every_segment_with_or_without_deletions() throws IOException {
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory(); IndexWriter writer = writer(directory)) {
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                assertThat(reader.leaves()).hasSizeGreaterThan(1);
                ScopeSample counted = ScopeSample.of(new IndexSearcher(reader), new TermQuery(new Term("scope", "a")),
                        100);
                assertSpread(counted, 1_000);
            }
            // deletions: the deleted documents are never taken; the term's statistics still count them, a query
            // that is not a term is iterated and counts the live ones only
            for (int i = 0; i < 300; i += 3) {
                writer.deleteDocuments(new Term("id", Integer.toString(i)));
            }
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                ScopeSample counted = ScopeSample.of(searcher, new TermQuery(new Term("scope", "a")), 100);
                assertThat(counted.population()).isEqualTo(1_000);
                assertThat(counted.docs()).hasSizeBetween(95, 100).doesNotHaveDuplicates().isSorted();
                assertThat(Arrays.stream(counted.docs()).allMatch(doc -> doc >= 300 && doc % 3 == 0)).isTrue();

                ScopeSample iterated = ScopeSample.of(searcher, new BooleanQuery.Builder()
                        .add(new TermQuery(new Term("scope", "a")), BooleanClause.Occur.FILTER).build(), 100);
                assertSpread(iterated, 900);
                assertThat(Arrays.stream(iterated.docs()).allMatch(doc -> doc >= 300)).isTrue();
            }
        }
    }

    private static void assertSpread(ScopeSample sample, int population) {
        assertThat(sample.population()).isEqualTo(population);
        assertThat(sample.docs()).hasSizeBetween(95, 100).doesNotHaveDuplicates().isSorted();
        assertThat(Arrays.stream(sample.docs()).allMatch(doc -> doc % 3 == 0)).isTrue();
        // every tenth of the index holds about a tenth of the sample
        for (int part = 0; part < 10; part++) {
            int from = part * 300;
            long inPart = Arrays.stream(sample.docs()).filter(doc -> doc >= from && doc < from + 300).count();
            assertThat(inPart).as("sampled in [%d, %d)", from, from + 300)
                    .isBetween(from < 300 && population < 1_000 ? 0L : 8L, 12L);
        }
    }
}
