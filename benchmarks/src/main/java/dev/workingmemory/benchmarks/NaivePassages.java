package dev.workingmemory.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The naive baseline of {@link BeamRecall}: every message cut into passages of at most {@value #PASSAGE_CHARS}
 * characters (at white space), ranked by BM25 (Lucene, English analyzer) and by MiniLM cosine similarity, the two
 * lists fused by reciprocal rank (k = 60, the best {@value #LIST} of each), and hits taken best first until the next
 * would exceed the token budget (a token per four characters), ten at most. Every message is indexed, the last ones
 * too.
 *
 * <p>Not thread-safe.
 */
final class NaivePassages implements AutoCloseable {

    static final int PASSAGE_CHARS = 400;
    private static final int LIST = 100;
    private static final int RRF_K = 60;

    private final EmbeddingModel model;
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
    private final EnglishAnalyzer analyzer = new EnglishAnalyzer();
    private final List<String> passages = new ArrayList<>();
    private final List<float[]> vectors = new ArrayList<>();

    NaivePassages(EmbeddingModel model) {
        this.model = model;
    }

    /** Indexes the passages of each text. */
    void index(List<String> texts) throws IOException {
        List<String> added = new ArrayList<>();
        for (String text : texts) {
            added.addAll(passages(text, PASSAGE_CHARS));
        }
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (int i = 0; i < added.size(); i++) {
                Document document = new Document();
                document.add(new StoredField("n", passages.size() + i));
                document.add(new TextField("body", added.get(i), Field.Store.NO));
                writer.addDocument(document);
            }
        }
        for (int from = 0; from < added.size(); from += 64) {
            List<TextSegment> batch = added.subList(from, Math.min(added.size(), from + 64)).stream()
                    .map(TextSegment::from).toList();
            model.embedAll(batch).content().forEach(embedding -> vectors.add(embedding.vector()));
        }
        passages.addAll(added);
    }

    /** @return the hits, best first, within {@code tokenBudget} and at most {@code limit} */
    List<String> search(String question, int limit, int tokenBudget) throws IOException {
        Map<Integer, Double> fused = new HashMap<>();
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            Query query = query(question);
            ScoreDoc[] top = searcher.search(query, LIST).scoreDocs;
            for (int rank = 0; rank < top.length; rank++) {
                int n = searcher.storedFields().document(top[rank].doc).getField("n").numericValue().intValue();
                fused.merge(n, 1.0 / (RRF_K + rank + 1), Double::sum);
            }
        }
        float[] query = model.embed(question).content().vector();
        Integer[] order = new Integer[vectors.size()];
        double[] similarity = new double[vectors.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            similarity[i] = cosine(query, vectors.get(i));
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(similarity[b], similarity[a]));
        for (int rank = 0; rank < Math.min(LIST, order.length); rank++) {
            fused.merge(order[rank], 1.0 / (RRF_K + rank + 1), Double::sum);
        }
        List<Map.Entry<Integer, Double>> ranked = new ArrayList<>(fused.entrySet());
        ranked.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
        List<String> hits = new ArrayList<>();
        int tokens = 0;
        for (Map.Entry<Integer, Double> entry : ranked) {
            String passage = passages.get(entry.getKey());
            int cost = tokens(passage);
            if (tokens + cost > tokenBudget) {
                break;
            }
            tokens += cost;
            hits.add(passage);
            if (hits.size() == limit) {
                break;
            }
        }
        return hits;
    }

    private Query query(String question) throws IOException {
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        try (TokenStream tokens = analyzer.tokenStream("body", question)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken()) {
                query.add(new TermQuery(new Term("body", term.toString())), BooleanClause.Occur.SHOULD);
            }
            tokens.end();
        }
        return query.build();
    }

    /** The text cut into passages of at most {@code max} characters, each ending at white space when it can. */
    static List<String> passages(String text, int max) {
        String folded = text.strip().replaceAll("\\s+", " ");
        List<String> passages = new ArrayList<>();
        int from = 0;
        while (from < folded.length()) {
            int end = Math.min(folded.length(), from + max);
            if (end < folded.length()) {
                int space = folded.lastIndexOf(' ', end);
                if (space > from) {
                    end = space;
                }
            }
            String passage = folded.substring(from, end).strip();
            if (!passage.isEmpty()) {
                passages.add(passage);
            }
            from = end;
        }
        return passages;
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    @Override
    public void close() throws IOException {
        directory.close();
    }

    /** The tokens of a returned passage by the provider's estimate (a token per four characters). */
    static int tokens(String passage) {
        return (passage.length() + 3) / 4;
    }
}
