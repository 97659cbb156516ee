package dev.workingmemory.slots;

import dev.workingmemory.testing.CountingText;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.workingmemory.slots.AdversarialLinesTest.Reading.FIND;
import static dev.workingmemory.slots.AdversarialLinesTest.Reading.LOOKING_AT;
import static dev.workingmemory.slots.AdversarialLinesTest.Reading.MATCHES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lines an attacker can put in a message or a tool result (a fetched page), built so that a pattern with overlapping
 * quantifiers backtracks over them: each pattern must read such a line in a number of steps linear in its length.
 * Steps are counted, not timed: every character the matcher reads is one step. Before the patterns were made
 * possessive, atomic or anchored, a 2,000-character line cost the ESLint rule over a billion steps (13 s of one core,
 * on every tool result) and the others millions. Each line is read as the library reads it (the whole line, its start,
 * or anywhere in it), as long as the library lets a line be.
 */
class AdversarialLinesTest {

    /** Steps per character a linear reading may take, with some to spare. */
    private static final int STEPS_PER_CHAR = 40;

    static Stream<Arguments> lines() {
        return Stream.of(
                // the message runs over spaces it shares with the rule's separator: three quantifiers over one run
                Arguments.of("ESLint problem", BuildErrors.ESLINT, "  1:1 error " + " ".repeat(1_980) + "\u2028\t", MATCHES),
                // sentences are read up to 400 characters
                Arguments.of("TODO marker", Statements.TODO_MARKER, "todo" + " ".repeat(390) + "\u2028x", MATCHES),
                Arguments.of("next step", Statements.TODO_NEXT, "next," + "\t".repeat(390) + "\u2028x", MATCHES),
                Arguments.of("decision marker", Statements.DECISION_MARKER, "decided:" + " ".repeat(390) + "\u2028x", MATCHES),
                Arguments.of("remaining task", Statements.TODO_STILL, "open items:" + " ".repeat(387) + "\u2028x", FIND),
                // a list item is a whole line, as long as a message's prose line
                Arguments.of("list item", Statements.LIST_ITEM, "-" + " ".repeat(1_990) + "\u0085x", MATCHES),
                Arguments.of("clause break", Completions.CLAUSE_BREAK, "done" + " ".repeat(2_000) + "x", FIND),
                Arguments.of("JavaScript frame", CodingEvidence.JS_FRAME, "  at " + ".".repeat(1_990), MATCHES),
                // a rule that finds its name anywhere in a line: one long word, read again from each of its starts
                Arguments.of("npm's missing package", UnresolvedDependencies.NPM_MISSING, "'a".repeat(1_000), FIND),
                Arguments.of("uv's missing package", UnresolvedDependencies.UV_MISSING, "a".repeat(2_000), FIND),
                // a run of white space before a text that never reaches the line's end, given back a character at a time
                Arguments.of("javac's symbol", BuildErrors.SYMBOL, "  symbol:" + " ".repeat(1_980) + "\u2028x", MATCHES),
                Arguments.of("testify's error", BuildErrors.TESTIFY_ERROR, "Error:" + " ".repeat(1_990) + "\u2028x", MATCHES),
                Arguments.of("ScalaTest's message", BuildErrors.SCALATEST_MESSAGE, "[info]" + " ".repeat(1_990) + "\u2028", MATCHES),
                Arguments.of("Gradle dependency", Dependencies.GRADLE_DECLARATION, "implementation" + " ".repeat(1_980) + "x", LOOKING_AT),
                // a text split at each of its separators, the rest read again from each
                Arguments.of("Jest test", BuildErrors.JEST_TEST, "\u25CF " + " \u203A ".repeat(660) + "\u2028", MATCHES),
                Arguments.of("PHPUnit entry", BuildErrors.PHPUNIT_ENTRY, "1) " + "::".repeat(995) + " ", MATCHES),
                Arguments.of("pytest failure", BuildErrors.PYTEST_FAILED, "FAILED a.py" + "::.py".repeat(397) + " ", MATCHES),
                Arguments.of("pytest error", BuildErrors.PYTEST_ERROR, "ERROR a.py" + "::.py".repeat(397) + " ", MATCHES),
                Arguments.of("Docker file's location", FailureSummaries.LOCATION, "Dockerfile".repeat(200), MATCHES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void should_read_a_line_built_to_backtrack_in_linear_steps(String rule, Pattern pattern, String line, Reading reading) {
        CountingText text = new CountingText(line, (long) STEPS_PER_CHAR * line.length());
        Matcher matcher = pattern.matcher(text);

        boolean matched = reading.read(matcher);

        assertThat(matched).as(rule).isFalse();
        assertThat(text.steps()).as(rule + ": characters read").isLessThanOrEqualTo(text.budget());
    }

    /** How the library reads a line with the rule: the whole line, its start, or anywhere in it. */
    enum Reading {
        MATCHES, LOOKING_AT, FIND;

        boolean read(Matcher matcher) {
            return switch (this) {
                case MATCHES -> matcher.matches();
                case LOOKING_AT -> matcher.lookingAt();
                case FIND -> matcher.find();
            };
        }
    }
}
