package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.RankFusion.Fused;
import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.internal.MinuteWarning;
import dev.workingmemory.internal.QueryWords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * How every crystal store searches (the one ranking): the query loses its question words, a keyword list comes from
 * the {@link CrystalIndex}, a vector list from the store's vectors, both with a sample of the scope, and
 * {@link RankFusion} ranks them with the {@link CrystalRanking}; the keyword list is then searched again with the
 * words that weigh most in the best of those ({@link QueryFeedback}) and the lists fused again; the crystals of the
 * fused top are read from the index. {@link EmbeddedCrystalStore} and {@link ScopeIndex} differ only in where their
 * vector list comes from.
 *
 * <p>Thread-safe (stateless).
 */
final class CrystalSearch {

    private static final Logger log = LoggerFactory.getLogger(CrystalSearch.class);

    private CrystalSearch() {
    }

    /** At most one WARN a minute for each embedding model that fails queries: an outage fails every search. */
    private static final Map<EmbeddingModel, MinuteWarning> WARNINGS = new WeakHashMap<>();

    /**
     * The query's vector, or null when the model fails it (a remote model that is down, or refuses the text): the
     * search then ranks by keyword only, with a WARN (once a minute at most for a model), so that {@code memory_search}
     * still answers from the words.
     */
    static Embedding embedQuery(EmbeddingModel model, String text, String scope) {
        try {
            // embed(String), not OneEmbedding's segment: a model may answer a query by a path of its own
            Embedding embedding = model.embed(text).content();
            if (embedding != null) {
                return embedding;
            }
            warnKeywordsOnly(model, scope, "it returned no embedding");
        } catch (RuntimeException e) {
            warnKeywordsOnly(model, scope, e.toString());
        }
        return null;
    }

    private static void warnKeywordsOnly(EmbeddingModel model, String scope, String reason) {
        MinuteWarning warning;
        synchronized (WARNINGS) {
            warning = WARNINGS.computeIfAbsent(model, m -> new MinuteWarning(log));
        }
        warning.warn("Cannot embed a query of scope '{}' ({}): ranking by keyword only", scope, reason);
    }

    /** Where a search's vector list comes from. */
    interface VectorList {

        /**
         * @param text       the query without its question words
         * @param candidates how many of the nearest crystals to return
         * @return the nearest crystals of the query's scope (and kinds) with their similarity, best first, and a
         *         sample of the scope ({@link Ranked})
         */
        Ranked nearest(String text, int candidates) throws IOException;
    }

    /**
     * @param read the crystals read so far, by key; those read here are added
     * @return the texts of the first {@link QueryFeedback#HITS} of the first pass, best first
     */
    private static List<String> best(CrystalIndex index, String scope, List<Fused> fused, Map<Long, Crystal> read)
            throws IOException {
        List<Fused> first = fused.subList(0, Math.min(QueryFeedback.HITS, fused.size()));
        read.putAll(index.fetch(scope, first.stream().map(Fused::key).toList()));
        List<String> texts = new ArrayList<>(first.size());
        for (Fused hit : first) {
            Crystal crystal = read.get(hit.key());
            if (crystal != null) {
                texts.add(crystal.text());
            }
        }
        return texts;
    }

    /** @return at most {@code query.limit()} hits, best first */
    static List<CrystalHit> run(CrystalIndex index, CrystalQuery query, CrystalRanking ranking, VectorList vectors)
            throws IOException {
        index.refreshIfWritten(); // both lists see the writes so far (the vector list may read the same searchers)
        int candidates = Math.max(ranking.candidates(), query.limit());
        String text = QueryWords.strip(query.text());
        // both lists name crystals by the key of their vector's id (VectorKeys).
        // Not run beside the query's embedding: MiniLM's runtime already keeps two cores busy, and a keyword
        // search in parallel made the search slower there (p50 7.07 ms against 6.44 ms in turn)
        Ranked keyword = ranking.keywordWeight() == 0 ? Ranked.EMPTY : index.keywordSearch(query.scope(),
                query.kinds(), text, ranking.contextWeight(), candidates, ScopeSample.SIZE);
        Ranked vector = ranking.vectorWeight() == 0 ? Ranked.EMPTY : vectors.nearest(text, candidates);
        List<Fused> fused = RankFusion.fuse(keyword, vector, ranking, query.limit());
        Map<Long, Crystal> crystals = new HashMap<>();
        if (ranking.feedbackWeight() > 0 && !keyword.top().isEmpty()) {
            Map<String, Float> feedback = index.feedbackWords(query.scope(), query.kinds(), text,
                    best(index, query.scope(), fused, crystals), keyword.population(), ranking.feedbackWeight());
            if (!feedback.isEmpty()) {
                keyword = index.keywordSearch(query.scope(), query.kinds(), text, feedback, ranking.contextWeight(),
                        candidates, ScopeSample.SIZE);
                fused = RankFusion.fuse(keyword, vector, ranking, query.limit());
            }
        }
        // the best hits read for their words are most of the top again: read only the others
        List<Long> unread = fused.stream().map(Fused::key).filter(key -> !crystals.containsKey(key)).toList();
        crystals.putAll(index.fetch(query.scope(), unread));
        List<CrystalHit> hits = new ArrayList<>(fused.size());
        for (Fused hit : fused) {
            Crystal crystal = crystals.get(hit.key());
            if (crystal != null) { // a vector whose crystal was deleted meanwhile
                hits.add(new CrystalHit(crystal, hit.scores()));
            }
        }
        return hits;
    }
}
