package dev.workingmemory.crystal;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ScopeDocFreqsTest {

    private static final String[] WORDS = {"hike", "ridge", "pride", "parade", "museum", "kids", "swim", "paint",
            "guitar", "rare"};

    @Test
    void should_count_the_scope_live_crystals_holding_a_word_as_a_search_within_the_scope_does() throws IOException {
        Random random = new Random(7);
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(directory,
                     new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int i = 0; i < 3_000; i++) {
                Document document = new Document();
                document.add(new StringField("id", Integer.toString(i), Field.Store.NO));
                // three users share the field; "rare" is alice's once, the others' often
                String scope = i % 3 == 0 ? "alice" : i % 3 == 1 ? "bob" : "carol";
                document.add(new StringField("scope", scope, Field.Store.NO));
                StringBuilder text = new StringBuilder();
                for (int w = 0; w < 6; w++) {
                    String word = WORDS[random.nextInt(WORDS.length - 1)];
                    text.append(word).append(' ');
                }
                if (i == 300 || !scope.equals("alice") && i % 7 == 0) {
                    text.append("rare");
                }
                document.add(new TextField("body", text.toString(), Field.Store.NO));
                writer.addDocument(document);
                if (i % 700 == 699) {
                    writer.commit(); // several segments
                }
            }
            for (int i = 0; i < 3_000; i += 11) {
                writer.deleteDocuments(new Term("id", Integer.toString(i))); // deleted, not merged away
            }
            writer.commit();
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                assertThat(reader.leaves()).hasSizeGreaterThan(3);
                IndexSearcher searcher = new IndexSearcher(reader);
                Query alice = new TermQuery(new Term("scope", "alice"));
                ScopeDocFreqs docFreqs = new ScopeDocFreqs(searcher, alice, "body");
                for (String word : WORDS) {
                    int searched = searcher.count(new BooleanQuery.Builder()
                            .add(new TermQuery(new Term("body", word)), Occur.MUST).add(alice, Occur.FILTER).build());
                    assertThat(docFreqs.of(word)).as(word).isEqualTo(searched);
                }
                assertThat(docFreqs.of("rare")).isEqualTo(1);
                assertThat(docFreqs.of("absent")).isZero();
                assertThat(new ScopeDocFreqs(searcher, new TermQuery(new Term("scope", "nobody")), "body").of("hike"))
                        .isZero();
            }
        }
    }
}
