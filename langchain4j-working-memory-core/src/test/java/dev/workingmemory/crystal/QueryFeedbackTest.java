package dev.workingmemory.crystal;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.io.IOException;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class QueryFeedbackTest {

    /** A scope of 100 crystals: "caroline" in each, "pride" and "parade" in 3, "today" in 40. */
    private static final QueryFeedback.DocFreq DOC_FREQ = word -> switch (word) {
        case "caroline" -> 100;
        case "today" -> 40;
        case "pride", "parade" -> 3;
        default -> 1;
    };

    @Test
    void should_add_the_rare_words_the_best_hits_share_the_heaviest_at_the_weight() throws IOException {
        Map<String, Float> words = QueryFeedback.words(List.of(
                        counts("caroline", "went", "pride", "parade", "today"),
                        counts("caroline", "pride", "parade", "event")),
                Set.of("event"), DOC_FREQ, 100, 0.3);

        assertThat(words.keySet()).containsExactly("parade", "pride", "today", "caroline");
        assertThat(words.get("parade")).isCloseTo(0.3f, within(1e-6f));
        assertThat(words.get("pride")).isCloseTo(0.3f, within(1e-6f));
        assertThat(words.get("today")).isLessThan(words.get("pride") / 3);
        // in every crystal: a word that tells nothing apart weighs next to nothing
        assertThat(words.get("caroline")).isLessThan(0.01f);
    }

    @Test
    void should_leave_out_the_query_own_words_and_words_no_other_crystal_holds() throws IOException {
        Map<String, Float> words = QueryFeedback.words(List.of(counts("pride", "parade", "went", "marched")),
                Set.of("pride"), DOC_FREQ, 100, 0.3);

        // "went" and "marched" are held by this crystal alone: they could only lift the hit they came from
        assertThat(words).containsOnlyKeys("parade");
    }

    @Test
    void should_weigh_a_word_by_its_share_of_each_hit() throws IOException {
        Map<String, Float> words = QueryFeedback.words(List.of(
                        counts("pride", "parade", "parade", "parade"),
                        counts("pride", "today")),
                Set.of(), word -> 10, 100, 1.0);

        // parade: 3/4 of one hit; pride: 1/4 + 1/2; today: 1/2; same rarity
        assertThat(words.get("parade")).isCloseTo(1.0f, within(1e-6f));
        assertThat(words.get("pride")).isCloseTo(1.0f, within(1e-6f));
        assertThat(words.get("today")).isCloseTo(2 / 3f, within(1e-6f));
    }

    @Test
    void should_add_at_most_the_heaviest_words_ties_by_the_word() throws IOException {
        Map<String, Integer> many = new HashMap<>();
        for (char c = 'a'; c <= 'z'; c++) {
            many.put("word" + c, c == 'q' ? 2 : 1);
        }
        Map<String, Float> words = QueryFeedback.words(List.of(many), Set.of(), word -> 5, 1_000, 0.3);

        assertThat(QueryFeedback.WORDS).isEqualTo(5);
        assertThat(words.keySet()).containsExactly("wordq", "worda", "wordb", "wordc", "wordd");
    }

    @Test
    void should_add_nothing_without_hits_or_shared_words() throws IOException {
        assertThat(QueryFeedback.words(List.of(), Set.of("pride"), DOC_FREQ, 100, 0.3)).isEmpty();
        assertThat(QueryFeedback.words(List.of(counts("went", "marched")), Set.of(), DOC_FREQ, 100, 0.3)).isEmpty();
    }

    @Test
    void should_count_only_the_words_that_may_be_among_the_heaviest() throws IOException {
        // a long best hit: word0 said 300 times, word1 299 times, ... word299 once; rarity varies by the word
        Map<String, Integer> hit = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            hit.put("word" + i, 300 - i);
        }
        QueryFeedback.DocFreq docFreq = word -> 2 + Math.floorMod(word.hashCode(), 500);
        AtomicInteger counted = new AtomicInteger();
        Map<String, Float> words = QueryFeedback.words(List.of(hit), Set.of(), word -> {
            counted.incrementAndGet();
            return docFreq.of(word);
        }, 1_000, 0.3);

        // every word weighed: the same words, in the same order
        int length = hit.values().stream().mapToInt(Integer::intValue).sum();
        List<Map.Entry<String, Double>> all = new ArrayList<>();
        for (Map.Entry<String, Integer> word : hit.entrySet()) {
            all.add(Map.entry(word.getKey(),
                    (double) word.getValue() / length * CrystalIndex.idf(docFreq.of(word.getKey()), 1_000)));
        }
        all.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        assertThat(words.keySet()).containsExactlyElementsOf(all.subList(0, 5).stream().map(Map.Entry::getKey)
                .toList());
        assertThat(counted.get()).isLessThan(100);
    }

    private static Map<String, Integer> counts(String... words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String word : words) {
            counts.merge(word, 1, Integer::sum);
        }
        return counts;
    }
}
