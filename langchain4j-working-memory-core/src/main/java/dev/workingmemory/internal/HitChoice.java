package dev.workingmemory.internal;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.MemoryHit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The choice among a search's candidates (issue 20), above every {@code CrystalStore} so that each store's ranking is
 * served alike. From the candidates, best first:
 * <ol>
 *   <li><b>The day asked about first.</b> When the query asks about a day ({@link QueryDates}: "on 9 November, 2022",
 *       "in January 2024"), the candidates made on that day, or naming it, come before the others, each part in
 *       its order. What was said that day often shares few words with the question ("Looky here, I got this new pup
 *       for you!"); a date that only bounds an open span ("until April 9") is not read. On LoCoMo's five
 *       conversations recall_all@10 went from 0.689 to 0.708 (91 of 760 questions name a date), 0.705 once
 *       "yesterday" counts back from the clock; BEAM, 8 of 200, unchanged.</li>
 *   <li><b>A piece by its window.</b> A candidate that is a piece of a longer text ({@link Crystal#piece()}: a passage
 *       of a long message, note or tool output) and longer than its share of the budget ({@code budget / limit}
 *       tokens) is shown as the window of that many tokens holding the most of the query's words (weighed as below),
 *       starting at the text's start or at a word of the query, back to its sentence's start where that keeps them
 *       in (what follows the words is usually the answer); "…" where cut, a past turn's label kept. The whole stays
 *       readable by its id, and {@link HitWidening} shows it whole when the budget allows. A whole message, note or
 *       exchange is never cut: a short chat's answer often shares no word with the question, and half of it would
 *       be the wrong half. On BEAM's long chats 81 of 179 questions found all their evidence (80 without windows);
 *       LoCoMo, whose turns are never pieces, is unchanged.</li>
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
 *       query, a third of its weight or more, with other numbers (they answer it alike with another value: "5 women
 *       I mentor" and "my mentees are now 7"). Hits so linked form a subject, and two subjects that each hold a
 *       passage of one whole (an exchange, a note, a tool output) are one: a whole is about one thing (on BEAM's chat
 *       10 the old deadline was linked to a user's message and the new one to the assistant's answer to it); a hit
 *       linked to nothing is no subject and stays where it ranks.
 *       A subject keeps the place of its best hit, newest first; an older one is marked
 *       {@linkplain MemoryHit#earlierThan() earlier than} the newer one it states the same thing as. Hits that merely
 *       hold the same words of the query are often not one fact at two times (a birthday's date and talk of its
 *       party, a decision and a file that names what it decided), and were put newest first and marked until the
 *       numbers were asked for: on LoCoMo's dev conversations, where facts seldom change, 76% of the questions had a
 *       hit so marked, 14% now; on BEAM's ten chats 67% and 64%, the old value of a knowledge update marked in 13 of
 *       the 16 questions that find both values (13 before), update_first 0.89 as before. Only the order changes: on
 *       BEAM's first three chats, bringing in a newer candidate left out (in place of the last hit) cost
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
    static List<MemoryHit> choose(String query, QueryDates dates, List<CrystalHit> candidates,
                                  TokenCountEstimator estimator, int budget, int limit) {
        List<MemoryHit> all = new ArrayList<>(candidates.size());
        for (CrystalHit candidate : candidates) {
            Crystal crystal = candidate.crystal();
            all.add(new MemoryHit(crystal.id(), crystal.kind(), crystal.time(), crystal.text(), candidate.score(),
                    estimator.estimateTokenCountInText(crystal.text()), candidate.scores(), null));
        }
        Words words = new Words(QueryWords.strip(query), all);
        int share = budget / limit;
        for (int i = 0; i < all.size(); i++) {
            MemoryHit hit = all.get(i);
            Crystal crystal = candidates.get(i).crystal();
            if (crystal.piece() && hit.tokens() > share) {
                String window = words.window(hit.text(), crystal.kind() == CrystalKind.TURN, share, estimator);
                all.set(i, new MemoryHit(hit.id(), hit.kind(), hit.time(), window,
                        hit.score(), estimator.estimateTokenCountInText(window), hit.scores(), null));
            }
        }
        List<MemoryHit> chosen = pick(onTheDayFirst(all, candidates, dates), budget, limit);
        return newerFirst(chosen, words);
    }

    /**
     * @param candidates the crystals of {@code hits}, index by index: a day is named in the whole text, which a
     *                   window may have cut
     * @return the hits made on a day the query asks about, or naming it, first; each part in its order
     */
    private static List<MemoryHit> onTheDayFirst(List<MemoryHit> hits, List<CrystalHit> candidates,
                                                 QueryDates dates) {
        if (dates.isEmpty()) {
            return hits;
        }
        List<MemoryHit> first = new ArrayList<>(hits.size());
        List<MemoryHit> rest = new ArrayList<>(hits.size());
        for (int i = 0; i < hits.size(); i++) {
            Crystal crystal = candidates.get(i).crystal();
            (dates.match(crystal.time(), crystal.text()) ? first : rest).add(hits.get(i));
        }
        first.addAll(rest);
        return first;
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
     * The newest of hits that state the same thing first: hits linked by {@link Words#updates} (directly or through
     * one another, or through two passages of one whole) form a subject, which keeps the place of its best hit, its
     * hits newest first; each older hit is marked earlier than the first newer one above it that it states the same
     * thing as.
     */
    private static List<MemoryHit> newerFirst(List<MemoryHit> chosen, Words words) {
        int n = chosen.size();
        int[] subject = new int[n];
        for (int i = 0; i < n; i++) {
            subject[i] = i;
        }
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                if (words.updates(chosen.get(i), chosen.get(j))) {
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
                    if (same.get(newer).time().isAfter(hit.time()) && words.updates(same.get(newer), hit)) {
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
        private static final Pattern NUMBER = Pattern.compile("\\d+");
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
         * Whether two hits of different wholes state the same thing, the older at an earlier time (within one exchange,
         * an answer restating the question is no update): what an earlier-than mark claims, and what puts the newer
         * first. Their words are alike, or they answer the query alike with other values (the numbers each holds
         * differ: 5 mentees then 7, April 1 then April 5); holding the query's words alone is no update (a birthday's
         * date and talk of its party; a forecast and a failed train search, both from Lisbon).
         */
        boolean updates(MemoryHit newer, MemoryHit older) {
            if (Passages.parentId(newer.id()).equals(Passages.parentId(older.id()))) {
                return false;
            }
            return similarity(newer, older) >= SAME_SUBJECT || answerAlike(newer, older) && valuesDiffer(newer, older);
        }

        /** Whether both hold numbers, and not the same ones. */
        private static boolean valuesDiffer(MemoryHit a, MemoryHit b) {
            Set<String> x = numbers(a.text());
            Set<String> y = numbers(b.text());
            return !x.isEmpty() && !y.isEmpty() && !x.equals(y);
        }

        private static Set<String> numbers(String text) {
            Set<String> numbers = new HashSet<>();
            Matcher number = NUMBER.matcher(text);
            while (number.find()) {
                numbers.add(number.group());
            }
            return numbers;
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

        /**
         * The window of {@code text} that fits {@code share} tokens and holds the most of the query's weight, the
         * earliest of equals (the text's start when none holds a word of it); "…" where cut, and a past turn's label
         * ({@code user: }, {@code assistant: }, {@code tool <name>: }) kept in front.
         */
        String window(String text, boolean labelled, int share, TokenCountEstimator estimator) {
            int labelEnd = labelled ? labelEnd(text) : 0;
            String body = text.substring(labelEnd);
            int room = (int) ((long) body.length() * share / Math.max(1, estimator.estimateTokenCountInText(text)));
            // the estimate is proportional for the estimators we know; a few tries more for one that is not
            for (int tries = 0; tries < 4 && room - 2 >= MIN_WINDOW_CHARS; tries++, room = room * 9 / 10) {
                String window = text.substring(0, labelEnd) + window(body, room - 2);
                if (estimator.estimateTokenCountInText(window) <= share) {
                    return window;
                }
            }
            return text;
        }

        /** The best window of at most {@code room} characters of {@code body}, "…" where cut. */
        private String window(String body, int room) {
            if (room >= body.length()) {
                return body;
            }
            List<int[]> spans = new ArrayList<>();
            List<String> stems = new ArrayList<>();
            try (TokenStream stream = ANALYZER.tokenStream("text", body)) {
                CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
                OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
                stream.reset();
                while (stream.incrementToken()) {
                    spans.add(new int[] {offset.startOffset(), offset.endOffset()});
                    stems.add(term.toString());
                }
                stream.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // reading a String
            }
            // windows starting at each word, slid along: the query's words inside counted once each
            Map<String, Integer> inside = new HashMap<>();
            double weight = 0;
            double best = -1;
            int bestStart = 0;
            int bestLast = 0;
            int next = 0;
            for (int first = 0; first < Math.max(1, spans.size()); first++) {
                int start = first == 0 ? 0 : spans.get(first)[0];
                next = Math.max(next, first); // a word longer than the room was never inside
                while (next < spans.size() && spans.get(next)[1] <= start + room) {
                    if (inside.merge(stems.get(next), 1, Integer::sum) == 1) {
                        weight += asked.getOrDefault(stems.get(next), 0.0);
                    }
                    next++;
                }
                // a window starts at the text's start or at a word of the query, not at the words before it
                if ((first == 0 || asked.containsKey(stems.get(first))) && weight > best + 1e-9) {
                    best = weight;
                    bestStart = start;
                    bestLast = next == 0 ? start : lastAsked(spans, stems, first, next);
                }
                if (first < next && inside.merge(stems.get(first), -1, Integer::sum) == 0) {
                    inside.remove(stems.get(first));
                    weight -= asked.getOrDefault(stems.get(first), 0.0);
                }
            }
            // back to the start of its sentence, when that keeps in the words it holds
            int sentence = sentenceStart(body, bestStart);
            if (sentence < bestStart && sentence + room >= bestLast) {
                bestStart = sentence;
            }
            int end = Math.min(body.length(), bestStart + room);
            if (end < body.length()) {
                int space = end;
                while (space > bestStart + room / 2 && !Character.isWhitespace(body.charAt(space))) {
                    space--;
                }
                end = space > bestStart + room / 2 ? space : end;
                if (Character.isLowSurrogate(body.charAt(end)) && Character.isHighSurrogate(body.charAt(end - 1))) {
                    end--; // never half of a character outside the basic plane
                }
            }
            return (bestStart > 0 ? "…" : "") + body.substring(bestStart, end).strip() + (end < body.length() ? "…" : "");
        }

        /** @return where the last word of the query among {@code spans[from, to)} ends */
        private int lastAsked(List<int[]> spans, List<String> stems, int from, int to) {
            for (int i = to - 1; i > from; i--) {
                if (asked.containsKey(stems.get(i))) {
                    return spans.get(i)[1];
                }
            }
            return spans.get(from)[1];
        }

        /** @return where the sentence holding {@code at} starts: after the last ". ", "! ", "? " or line break */
        private static int sentenceStart(String body, int at) {
            for (int i = at - 1; i > 0; i--) {
                char c = body.charAt(i);
                if (c == '\n' || Character.isWhitespace(c) && ".!?".indexOf(body.charAt(i - 1)) >= 0) {
                    return i + 1;
                }
            }
            return 0;
        }

        /** Where a past turn's line label ({@code user: }, {@code tool <name>: }) ends, or 0. */
        private static int labelEnd(String text) {
            int colon = text.indexOf(": ");
            return colon > 0 && colon <= LABEL_CHARS ? colon + 2 : 0;
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
        private static final Analyzer ANALYZER = new SearchAnalyzer();
        /** The shortest window worth showing; a share smaller than this leaves the piece whole (and out, most likely). */
        private static final int MIN_WINDOW_CHARS = 20;
        /** The longest label of a past turn's line: {@code tool } and a tool name of up to 100 characters. */
        private static final int LABEL_CHARS = 105;
        /** The labels of past turns' lines, in every hit of a conversation, as stems. */
        private static final Set<String> LABELS = Set.of("user", "assist", "tool");
    }
}
