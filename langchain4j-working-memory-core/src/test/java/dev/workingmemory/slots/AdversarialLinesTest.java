package dev.workingmemory.slots;

import dev.workingmemory.testing.CountingText;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lines an attacker can put in a message or a tool result (a fetched page), built so that a pattern with overlapping
 * quantifiers backtracks over them: each pattern must read such a line in a number of steps linear in its length.
 * Steps are counted, not timed: every character the matcher reads is one step. Before the patterns were made
 * possessive, a 2,000-character line cost the ESLint rule over a billion steps (13 s of one core, on every tool result)
 * and the others millions.
 */
class AdversarialLinesTest {

    /** Steps per character a linear reading may take, with some to spare. */
    private static final int STEPS_PER_CHAR = 40;

    static Stream<Arguments> lines() {
        return Stream.of(
                // the message runs over spaces it shares with the rule's separator: three quantifiers over one run
                Arguments.of("ESLint problem", BuildErrors.ESLINT, "  1:1 error " + " ".repeat(1_980) + "\u2028\t", false),
                // sentences are read up to 400 characters
                Arguments.of("TODO marker", Statements.TODO_MARKER, "todo" + " ".repeat(390) + "\u2028x", false),
                Arguments.of("next step", Statements.TODO_NEXT, "next," + "\t".repeat(390) + "\u2028x", false),
                // a list item is a whole line, as long as a message's prose line
                Arguments.of("list item", Statements.LIST_ITEM, "-" + " ".repeat(1_990) + "\u0085x", false),
                Arguments.of("clause break", Completions.CLAUSE_BREAK, "done" + " ".repeat(2_000) + "x", true),
                Arguments.of("JavaScript frame", CodingEvidence.JS_FRAME, "  at " + ".".repeat(1_990), false),
                // a rule that finds its name anywhere in a line: one long word, read again from each of its starts
                Arguments.of("npm's missing package", UnresolvedDependencies.NPM_MISSING, "'a".repeat(1_000), true),
                Arguments.of("uv's missing package", UnresolvedDependencies.UV_MISSING, "a".repeat(2_000), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void should_read_a_line_built_to_backtrack_in_linear_steps(String rule, Pattern pattern, String line, boolean find) {
        CountingText text = new CountingText(line, (long) STEPS_PER_CHAR * line.length());
        Matcher matcher = pattern.matcher(text);

        boolean matched = find ? matcher.find() : matcher.matches();

        assertThat(matched).as(rule).isFalse();
        assertThat(text.steps()).as(rule + ": characters read").isLessThanOrEqualTo(text.budget());
    }
}
