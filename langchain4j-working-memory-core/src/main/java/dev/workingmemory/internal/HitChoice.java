package dev.workingmemory.internal;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.MemoryHit;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The choice among a search's candidates (issue 20), above every {@code CrystalStore} so that each store's ranking is
 * served alike. From the candidates, best first:
 * <ol>
 *   <li><b>Within the budget.</b> A candidate is taken while its tokens keep the total within the budget (a long one is
 *       skipped, a shorter one after it may still fit), until {@code limit} are taken.</li>
 *   <li><b>One passage per message first.</b> A passage of a message that already has a hit (the same whole —
 *       exchange, note, tool output: {@link Passages#parentId} — and the same time) waits until every other
 *       candidate had its turn, so that ten hits come from as many messages as are relevant (a question whose
 *       evidence spans sessions) rather than from one long message; the whole is read by its id. Per message,
 *       not per exchange: on BEAM's first chat, one passage per exchange kept the user's message behind the
 *       assistant's answer to it (recall_all@10 0.222 against 0.333 without).</li>
 *   <li><b>The newer of two hits that state the same thing first.</b> Two hits of different wholes state the same
 *       thing when their words, weighed by how rare they are among the candidates, are alike ({@value #SAME_SUBJECT} or more: the
 *       cosine of their tf-idf vectors); the newer then ranks right above the older, which is marked
 *       {@linkplain MemoryHit#earlierThan() earlier than it}. Only the order changes: on BEAM's first three chats,
 *       bringing in a newer candidate left out (in place of the last hit) cost recall_all@10 (0.389 against
 *       0.407) and moved no update first.</li>
 * </ol>
 *
 * <p>Thread-safe (stateless).
 */
final class HitChoice {

    /** The similarity of words from which two hits are taken to state the same thing. */
    static final double SAME_SUBJECT = 0.35;

    private HitChoice() {
    }

    static List<MemoryHit> choose(List<CrystalHit> candidates, TokenCountEstimator estimator, int budget, int limit) {
        List<MemoryHit> all = new ArrayList<>(candidates.size());
        for (CrystalHit candidate : candidates) {
            Crystal crystal = candidate.crystal();
            all.add(new MemoryHit(crystal.id(), crystal.kind(), crystal.time(), crystal.text(), candidate.score(),
                    estimator.estimateTokenCountInText(crystal.text()), candidate.scores(), null));
        }
        List<MemoryHit> chosen = new ArrayList<>(limit);
        List<MemoryHit> waiting = new ArrayList<>();
        Set<String> messages = new HashSet<>();
        int tokens = 0;
        for (MemoryHit hit : all) {
            if (chosen.size() == limit) {
                break;
            }
            if (!messages.add(Passages.parentId(hit.id()) + "@" + hit.time())) {
                waiting.add(hit);
            } else if (tokens + hit.tokens() <= budget) {
                chosen.add(hit);
                tokens += hit.tokens();
            }
        }
        for (MemoryHit hit : waiting) {
            if (chosen.size() == limit) {
                break;
            }
            if (tokens + hit.tokens() <= budget) {
                chosen.add(hit);
                tokens += hit.tokens();
            }
        }
        return newerFirst(chosen, all);
    }

    /** The newer of two hits that state the same thing first; the words are weighed over all the candidates. */
    private static List<MemoryHit> newerFirst(List<MemoryHit> chosen, List<MemoryHit> all) {
        if (chosen.isEmpty()) {
            return chosen;
        }
        Words words = new Words(all);
        List<MemoryHit> ordered = new ArrayList<>(chosen);
        // the newer of two hits that state the same thing right above the older
        for (int j = 1; j < ordered.size(); j++) {
            for (int i = 0; i < j; i++) {
                if (ordered.get(j).time().isAfter(ordered.get(i).time())
                        && words.statesSame(ordered.get(i), ordered.get(j))) {
                    ordered.add(i, ordered.remove(j));
                    break;
                }
            }
        }
        // each older one marked earlier than the newer above it
        for (int j = 1; j < ordered.size(); j++) {
            for (int i = 0; i < j; i++) {
                if (ordered.get(i).time().isAfter(ordered.get(j).time())
                        && words.statesSame(ordered.get(i), ordered.get(j))) {
                    ordered.set(j, ordered.get(j).markedEarlierThan(ordered.get(i).id()));
                    break;
                }
            }
        }
        return ordered;
    }

    /** The content words of each hit weighed by how rare they are among the candidates (tf-idf). */
    private static final class Words {
        private final Map<String, Map<String, Integer>> counts = new HashMap<>();
        private final Map<String, Double> idf = new HashMap<>();

        Words(List<MemoryHit> hits) {
            Map<String, Integer> documents = new HashMap<>();
            for (MemoryHit hit : hits) {
                Map<String, Integer> terms = terms(hit.text());
                counts.put(hit.id(), terms);
                terms.keySet().forEach(term -> documents.merge(term, 1, Integer::sum));
            }
            documents.forEach((term, df) -> idf.put(term, Math.log(1 + hits.size() / (double) df)));
        }

        /**
         * Whether two hits of different wholes state the same thing (within one exchange, an answer restating the
         * question is no update).
         */
        boolean statesSame(MemoryHit a, MemoryHit b) {
            return !Passages.parentId(a.id()).equals(Passages.parentId(b.id())) && similarity(a, b) >= SAME_SUBJECT;
        }

        double similarity(MemoryHit a, MemoryHit b) {
            Map<String, Integer> x = counts.get(a.id());
            Map<String, Integer> y = counts.get(b.id());
            if (x == null || y == null || x.isEmpty() || y.isEmpty()) {
                return 0;
            }
            double dot = 0;
            for (Map.Entry<String, Integer> term : x.entrySet()) {
                Integer other = y.get(term.getKey());
                if (other != null) {
                    double weight = idf.getOrDefault(term.getKey(), 0.0);
                    dot += term.getValue() * other * weight * weight;
                }
            }
            return dot == 0 ? 0 : dot / (norm(x) * norm(y));
        }

        private double norm(Map<String, Integer> terms) {
            double sum = 0;
            for (Map.Entry<String, Integer> term : terms.entrySet()) {
                double weight = term.getValue() * idf.getOrDefault(term.getKey(), 0.0);
                sum += weight * weight;
            }
            return Math.sqrt(sum);
        }

        private static Map<String, Integer> terms(String text) {
            Map<String, Integer> terms = new HashMap<>();
            int i = 0;
            while (i < text.length()) {
                while (i < text.length() && !Character.isLetterOrDigit(text.charAt(i))) {
                    i++;
                }
                int start = i;
                while (i < text.length() && Character.isLetterOrDigit(text.charAt(i))) {
                    i++;
                }
                if (i - start >= 2) {
                    String word = text.substring(start, i).toLowerCase(Locale.ROOT);
                    if (!EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(word) && !LABELS.contains(word)) {
                        terms.merge(word, 1, Integer::sum);
                    }
                }
            }
            return terms;
        }

        /** The labels of past turns' lines, in every hit of a conversation. */
        private static final Set<String> LABELS = Set.of("user", "assistant", "tool");
    }
}
