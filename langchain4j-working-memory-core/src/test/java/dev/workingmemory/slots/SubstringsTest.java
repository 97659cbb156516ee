package dev.workingmemory.slots;

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
    void should_find_the_tool_cues_anywhere_in_a_line() {
        assertThat(CodingEvidence.containsToolLine("[INFO] BUILD SUCCESS")).isTrue();
        assertThat(CodingEvidence.containsToolLine("npm ERR! code E404")).isTrue();
        assertThat(CodingEvidence.containsToolLine("Build succeeded, tests passed")).isFalse();
        assertThat(CodingEvidence.containsToolLine("")).isFalse();
    }
}
