package dev.workingmemory.crystal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Pseudo-relevance feedback (as RM3 does it): the words that weigh most in a search's best hits, added to its keyword
 * query at a lower weight, so that a question also finds the crystals that speak of what its best hits speak of.
 * "What career path has Caroline decided to persue?" first finds her thinking of "supporting their mental health";
 * with "mental" and "health" among its words, "I'm keen on counseling or working in mental health", said in another
 * session and ranked 37th before, is among the hits too. A word weighs its share of
 * each best hit's words, summed over the hits, times its rarity among the scope's crystals (BM25's idf); the
 * {@value #WORDS} heaviest, other than the query's own, are added, the heaviest at the ranking's
 * {@link CrystalRanking#feedbackWeight() feedbackWeight} and the others in proportion. A word held by fewer than two
 * crystals is left out: it can only lift the hit it came from.
 *
 * <p>Thread-safe (stateless).
 */
final class QueryFeedback {

    /** How many of the first pass's best hits the words come from. */
    static final int HITS = 5;
    /** How many words are added to the query. */
    static final int WORDS = 5;
    /**
     * How much of a best hit's text its words are read from: a passage is at most a few hundred characters, and a
     * crystal an application adds whole may be megabytes, which a search must not read again each time.
     */
    static final int TEXT_CHARS = 4_000;

    private QueryFeedback() {
    }

    /** How many crystals of the scope hold a word. */
    @FunctionalInterface
    interface DocFreq {

        int of(String word) throws IOException;
    }

    /**
     * @param hitWords   the analyzed words of each best hit with their counts, best hit first
     * @param queryWords the query's own analyzed words, never added again
     * @param docFreq    how many crystals of the scope hold a word; asked only of words that may still be among the
     *                   heaviest (a count may cost a search where the scope shares its index)
     * @param docCount   how many crystals the scope holds
     * @param weight     the boost of the heaviest word, above 0
     * @return at most {@value #WORDS} words with their boosts, heaviest first; empty when no word qualifies
     */
    static Map<String, Float> words(List<Map<String, Integer>> hitWords, Set<String> queryWords, DocFreq docFreq,
                                    int docCount, double weight) throws IOException {
        Map<String, Double> shares = new HashMap<>();
        for (Map<String, Integer> words : hitWords) {
            int length = words.values().stream().mapToInt(Integer::intValue).sum();
            for (Map.Entry<String, Integer> word : words.entrySet()) {
                if (!queryWords.contains(word.getKey())) {
                    shares.merge(word.getKey(), (double) word.getValue() / length, Double::sum);
                }
            }
        }
        Comparator<Map.Entry<String, Double>> heaviestFirst = Map.Entry.<String, Double>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey()); // ties by the word: a search ranks alike every time
        List<Map.Entry<String, Double>> byShare = new ArrayList<>(shares.entrySet());
        byShare.sort(heaviestFirst);
        // a word weighs at most its share times the rarity of a word held by two crystals, the fewest that count:
        // once that is below the lightest of the heaviest words found, no later (smaller) share can enter them
        double rarest = CrystalIndex.idf(2, docCount);
        PriorityQueue<Double> heaviest = new PriorityQueue<>();
        List<Map.Entry<String, Double>> weighed = new ArrayList<>();
        for (Map.Entry<String, Double> share : byShare) {
            if (heaviest.size() == WORDS && share.getValue() * rarest < heaviest.peek()) {
                break;
            }
            int df = docFreq.of(share.getKey());
            if (df >= 2) {
                double weighs = share.getValue() * CrystalIndex.idf(df, docCount);
                weighed.add(Map.entry(share.getKey(), weighs));
                heaviest.add(weighs);
                if (heaviest.size() > WORDS) {
                    heaviest.poll();
                }
            }
        }
        weighed.sort(heaviestFirst);
        Map<String, Float> boosts = new LinkedHashMap<>();
        for (Map.Entry<String, Double> word : weighed.subList(0, Math.min(WORDS, weighed.size()))) {
            double most = weighed.get(0).getValue();
            if (word.getValue() > 0) {
                boosts.put(word.getKey(), (float) (weight * word.getValue() / most));
            }
        }
        return boosts;
    }
}
