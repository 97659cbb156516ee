package dev.workingmemory.internal;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.MemoryHit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
 *   <li><b>The newest of hits that state the same thing first.</b> Two hits of different wholes state the same
 *       thing when their words, weighed by how rare they are among the candidates, are alike ({@value #SAME_SUBJECT}
 *       or more: the cosine of their tf-idf vectors of English stems), or when they both hold the same words of the
 *       query, a third of its weight or more (they answer it alike: "5 women I mentor" and "my mentees are now 7").
 *       Hits so linked form a subject, and two subjects that each hold a passage of one whole (an exchange, a note,
 *       a tool output) are one: a whole is about one thing (on BEAM's chat 10 the old deadline was linked to a user's
 *       message and the new one to the assistant's answer to it); a hit linked to nothing is no subject and stays
 *       where it ranks.
 *       A subject keeps the place of its best hit, newest first; an older one is marked
 *       {@linkplain MemoryHit#earlierThan() earlier than} the newer it states the same thing as. Only the order
 *       changes: on BEAM's first three chats, bringing in a newer candidate left out (in place of the last hit) cost
 *       recall_all@10 (0.389 against 0.407) and moved no update first. On BEAM's ten chats, the query's words moved
 *       the new value first in 12 of 20 knowledge-update questions (10 with the words' cosine alone); with subjects
 *       joined through an exchange, in 15 of the 18 that can be ordered.</li>
 * </ol>
 *
 * <p>Thread-safe (stateless).
 */
final class HitChoice {

    /** The similarity of words from which two hits are taken to state the same thing. */
    static final double SAME_SUBJECT = 0.35;
    /**
     * The share of the query's word weight (its words without question words, weighed by how rare they are among
     * the candidates) two hits must both hold to answer it alike.
     */
    static final double SAME_ANSWER = 1.0 / 3;

    private HitChoice() {
    }

    /**
     * @param query      what was searched for: the subject two hits answering it alike share
     * @param candidates the store's candidates, best first
     */
    static List<MemoryHit> choose(String query, List<CrystalHit> candidates, TokenCountEstimator estimator, int budget,
                                  int limit) {
        List<MemoryHit> all = new ArrayList<>(candidates.size());
        for (CrystalHit candidate : candidates) {
            Crystal crystal = candidate.crystal();
            all.add(new MemoryHit(crystal.id(), crystal.kind(), crystal.time(), crystal.text(), candidate.score(),
                    estimator.estimateTokenCountInText(crystal.text()), candidate.scores(), null));
        }
        Words words = new Words(QueryWords.strip(query), all);
        List<MemoryHit> chosen = pick(all, budget, limit);
        return newerFirst(chosen, words);
    }

    /** Best first within the budget, one passage per message before a second. */
    private static List<MemoryHit> pick(List<MemoryHit> all, int budget, int limit) {
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
        return chosen;
    }

    /**
     * The newest of hits that state the same thing first: hits linked by {@link Words#statesSame} (directly or
     * through one another, or through two passages of one whole) form a subject, which keeps the place of its best
     * hit, its hits newest first; each older
     * hit is marked earlier than the first newer one above it that it states the same thing as.
     */
    private static List<MemoryHit> newerFirst(List<MemoryHit> chosen, Words words) {
        int n = chosen.size();
        int[] subject = new int[n];
        for (int i = 0; i < n; i++) {
            subject[i] = i;
        }
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                if (words.statesSame(chosen.get(i), chosen.get(j))) {
                    join(subject, i, j);
                }
            }
        }
        // two subjects that meet in one whole are one: its passages are about one thing (a hit alone is no subject,
        // and stays where it ranks)
        int[] size = new int[n];
        for (int i = 0; i < n; i++) {
            size[root(subject, i)]++;
        }
        boolean[] inSubject = new boolean[n];
        for (int i = 0; i < n; i++) {
            inSubject[i] = size[root(subject, i)] > 1;
        }
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                if (inSubject[i] && inSubject[j] && Passages.parentId(chosen.get(i).id())
                        .equals(Passages.parentId(chosen.get(j).id()))) {
                    join(subject, i, j);
                }
            }
        }
        List<MemoryHit> ordered = new ArrayList<>(n);
        boolean[] placed = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (placed[i]) {
                continue;
            }
            List<MemoryHit> same = new ArrayList<>();
            for (int k = i; k < n; k++) {
                if (!placed[k] && root(subject, k) == root(subject, i)) {
                    same.add(chosen.get(k));
                    placed[k] = true;
                }
            }
            same.sort(Comparator.comparing(MemoryHit::time).reversed()); // stable: equal times keep their rank
            for (int k = 0; k < same.size(); k++) {
                MemoryHit hit = same.get(k);
                for (int newer = 0; newer < k; newer++) {
                    if (same.get(newer).time().isAfter(hit.time()) && words.statesSame(same.get(newer), hit)) {
                        hit = hit.markedEarlierThan(same.get(newer).id());
                        break;
                    }
                }
                ordered.add(hit);
            }
        }
        return ordered;
    }

    private static int root(int[] subject, int i) {
        while (subject[i] != i) {
            subject[i] = subject[subject[i]];
            i = subject[i];
        }
        return i;
    }

    private static void join(int[] subject, int a, int b) {
        int x = root(subject, a);
        int y = root(subject, b);
        subject[Math.max(x, y)] = Math.min(x, y);
    }

    /**
     * The content words of each hit (Lucene's English stems, stop words out) weighed by how rare they are among the
     * candidates (tf-idf), and the words of the query among them.
     */
    private static final class Words {
        private final Map<String, Map<String, Integer>> counts = new HashMap<>();
        private final Map<String, Double> idf = new HashMap<>();
        /** The query's words that some candidate holds, with their weight. */
        private final Map<String, Double> asked = new HashMap<>();
        private final double askedWeight;

        Words(String query, List<MemoryHit> hits) {
            Map<String, Integer> documents = new HashMap<>();
            for (MemoryHit hit : hits) {
                Map<String, Integer> terms = terms(hit.text());
                counts.put(hit.id(), terms);
                terms.keySet().forEach(term -> documents.merge(term, 1, Integer::sum));
            }
            documents.forEach((term, df) -> idf.put(term, Math.log(1 + hits.size() / (double) df)));
            for (String term : terms(query).keySet()) {
                Double weight = idf.get(term);
                if (weight != null) {
                    asked.put(term, weight);
                }
            }
            askedWeight = asked.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /**
         * Whether two hits of different wholes state the same thing (within one exchange, an answer restating the
         * question is no update): their words are alike, or they answer the query alike.
         */
        boolean statesSame(MemoryHit a, MemoryHit b) {
            return !Passages.parentId(a.id()).equals(Passages.parentId(b.id()))
                    && (similarity(a, b) >= SAME_SUBJECT || answerAlike(a, b));
        }

        /**
         * Whether both hits hold the same words of the query, a third of its weight or more:
         * two messages that each answer the question (the number of mentees, 5 then 7; a meeting at 3 PM, then
         * moved to 4:30 PM) share what it asks about even when the rest of their words differ.
         */
        boolean answerAlike(MemoryHit a, MemoryHit b) {
            if (askedWeight == 0) {
                return false;
            }
            Map<String, Integer> x = counts.get(a.id());
            Map<String, Integer> y = counts.get(b.id());
            double shared = 0;
            for (Map.Entry<String, Double> term : asked.entrySet()) {
                if (x.containsKey(term.getKey()) && y.containsKey(term.getKey())) {
                    shared += term.getValue();
                }
            }
            return shared >= SAME_ANSWER * askedWeight;
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

        /** The English stems of a text's words, stop words and the labels of past turns' lines out. */
        private static Map<String, Integer> terms(String text) {
            Map<String, Integer> terms = new HashMap<>();
            try (TokenStream stream = ANALYZER.tokenStream("text", text)) {
                CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
                stream.reset();
                while (stream.incrementToken()) {
                    String stem = term.toString();
                    if (stem.length() >= 2 && !LABELS.contains(stem)) {
                        terms.merge(stem, 1, Integer::sum);
                    }
                }
                stream.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // reading a String
            }
            return terms;
        }

        /** Thread-safe: Lucene's analyzers keep their per-thread state themselves. */
        private static final Analyzer ANALYZER = new EnglishAnalyzer();
        /** The labels of past turns' lines, in every hit of a conversation, as stems. */
        private static final Set<String> LABELS = Set.of("user", "assist", "tool");
    }
}
