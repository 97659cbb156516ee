package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Substrings} answers as {@link String#contains} for each string would. */
class SubstringsTest {

    @Test
    void should_find_what_contains_finds_in_random_texts() {
        List<String> strings = List.of("ab", "abc", "bca", "cab d", "dd", "é!", "x");
        Substrings substrings = Substrings.of(strings);
        Random random = new Random(7);
        String alphabet = "abcd é!\n\uD83D\uDE00";
        int found = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            boolean expected = strings.stream().anyMatch(text.toString()::contains);
            found += expected ? 1 : 0;
            assertThat(substrings.in(text.toString())).as("%s", text).isEqualTo(expected);
        }
        assertThat(found).as("both answers were asked").isBetween(1_000, 19_000);
    }

    @Test
    void should_find_where_the_first_string_ends_within_a_range() {
        Substrings substrings = Substrings.of(List.of("ERROR", "FAILED"));
        String text = "ok\nFAILED one\nERROR two";

        assertThat(substrings.end(text, 0, text.length())).isEqualTo(9);
        assertThat(substrings.end(text, 4, text.length())).as("FAILED starts before 4").isEqualTo(19);
        assertThat(substrings.end(text, 0, 8)).as("FAILED ends past 8").isEqualTo(-1);
        assertThat(substrings.end(text, 10, text.length())).isEqualTo(19);
    }
}
