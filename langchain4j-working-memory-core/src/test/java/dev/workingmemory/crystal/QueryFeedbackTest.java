package dev.workingmemory.crystal;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class QueryFeedbackTest {

    /** A scope of 100 crystals: "caroline" in each, "pride" and "parade" in 3, "today" in 40. */
    private static final ToIntFunction<String> DOC_FREQ = word -> switch (word) {
        case "caroline" -> 100;
        case "today" -> 40;
        case "pride", "parade" -> 3;
        default -> 1;
    };

    @Test
    void should_add_the_rare_words_the_best_hits_share_the_heaviest_at_the_weight() {
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
    void should_leave_out_the_query_own_words_and_words_no_other_crystal_holds() {
        Map<String, Float> words = QueryFeedback.words(List.of(counts("pride", "parade", "went", "marched")),
                Set.of("pride"), DOC_FREQ, 100, 0.3);

        // "went" and "marched" are held by this crystal alone: they could only lift the hit they came from
        assertThat(words).containsOnlyKeys("parade");
    }

    @Test
    void should_weigh_a_word_by_its_share_of_each_hit() {
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
    void should_add_at_most_the_heaviest_words_ties_by_the_word() {
        Map<String, Integer> many = new HashMap<>();
        for (char c = 'a'; c <= 'z'; c++) {
            many.put("word" + c, c == 'q' ? 2 : 1);
        }
        Map<String, Float> words = QueryFeedback.words(List.of(many), Set.of(), word -> 5, 1_000, 0.3);

        assertThat(QueryFeedback.WORDS).isEqualTo(5);
        assertThat(words.keySet()).containsExactly("wordq", "worda", "wordb", "wordc", "wordd");
    }

    @Test
    void should_add_nothing_without_hits_or_shared_words() {
        assertThat(QueryFeedback.words(List.of(), Set.of("pride"), DOC_FREQ, 100, 0.3)).isEmpty();
        assertThat(QueryFeedback.words(List.of(counts("went", "marched")), Set.of(), DOC_FREQ, 100, 0.3)).isEmpty();
    }

    private static Map<String, Integer> counts(String... words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String word : words) {
            counts.merge(word, 1, Integer::sum);
        }
        return counts;
    }
}
