package dev.workingmemory.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class EnglishNounsTest {

    @ParameterizedTest
    @CsvSource({
            "page, pages", "entry, entries", "day, days", "box, boxes", "address, addresses", "match, matches",
            "wish, wishes", "waltz, waltzes", "buzz, buzzes", "quiz, quizzes", "person, people", "media, media",
            "line_item, line_items", "key_person, key_people", "error, errors", "dependency, dependencies"
    })
    void should_spell_the_plural_of_a_noun(String singular, String plural) {
        assertThat(EnglishNouns.plural(singular)).isEqualTo(plural);
    }

    /** A script without case has no plural suffix, and an English {@code s} is wrong in the other languages. */
    @ParameterizedTest
    @ValueSource(strings = {"заказы", "заказ", "zamówienia", "szkółka", "línea", "注文", "订单", "line_注文", "\uD840\uDC0B"})
    void should_give_back_a_word_with_a_letter_outside_ascii_as_it_is(String word) {
        assertThat(EnglishNouns.plural(word)).isEqualTo(word);
    }

    @ParameterizedTest
    @CsvSource({
            "pages, page", "entries, entry", "categories, category", "addresses, address", "boxes, box",
            "matches, match", "wishes, wish", "images, image", "status, status", "class, class", "analysis, analysis",
            "people, person", "media, media", "data, data", "line_items, line_item", "s, s", "page, page",
            "quizzes, quiz", "buzzes, buzz", "sizes, size", "practice_quizzes, practice_quiz"
    })
    void should_read_the_singular_of_a_noun(String plural, String singular) {
        assertThat(EnglishNouns.singular(plural)).isEqualTo(singular);
    }
}
