package dev.workingmemory.dream;

import dev.workingmemory.testing.CountingText;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lines of a state document built so that a pattern with overlapping quantifiers backtracks over them: the dream model
 * writes the state from notes a user's conversation put there, so such a line can reach the parser, on the dream
 * thread that every user's dreams share. Each pattern must read it in a number of steps linear in its length (counted,
 * not timed). Before the patterns were made possessive, the skill and pointer lines took over 50 million steps for a
 * line of 400 characters.
 */
class AdversarialStateLinesTest {

    private static final int STEPS_PER_CHAR = 40;

    static Stream<Arguments> lines() {
        String spaces = " ".repeat(1_000);
        return Stream.of(
                Arguments.of("skill over spaces", SkillPatterns.LINE, "- " + spaces + "a" + spaces + "\u2028"),
                Arguments.of("skill near-misses", SkillPatterns.LINE, "- a" + " -> Confidence: 5 %".repeat(100) + "\u2028"),
                Arguments.of("pointer over spaces", CrystalPointer.LINE, "- " + spaces + "a" + spaces + "\u2028"),
                Arguments.of("pointer's keywords over spaces", CrystalPointer.LINE,
                        "Past: a → search: " + spaces + "b" + spaces + "\u2028"),
                Arguments.of("mood line", StateParser.MOOD_LINE, spaces + "last dream:" + " _".repeat(1_000) + "\u2028x"),
                Arguments.of("title", StateParser.TITLE, "# working memory state" + spaces + spaces + "\u2028x"),
                Arguments.of("heading's suffix", StateParser.SUFFIX, "a" + spaces + spaces + "(b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void should_read_a_line_built_to_backtrack_in_linear_steps(String rule, Pattern pattern, String line) {
        CountingText text = new CountingText(line, (long) STEPS_PER_CHAR * line.length());

        assertThat(pattern.matcher(text).matches()).as(rule).isFalse();
        assertThat(text.steps()).as(rule + ": characters read").isLessThanOrEqualTo(text.budget());
    }
}
