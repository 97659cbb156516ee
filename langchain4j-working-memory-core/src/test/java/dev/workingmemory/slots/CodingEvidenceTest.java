package dev.workingmemory.slots;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A source location and its error word ({@link CodingEvidence}); the labelled sets measure the rest. */
class CodingEvidenceTest {

    /** Next.js's failed build: the location alone on its line, the message under it, then the code frame. */
    static final String NEXT_JS_TYPE_ERROR = """
            Failed to compile.

            ./app/page.tsx:12:5
            Type error: Property 'titel' does not exist on type 'Post'. Did you mean 'title'?

              11 |     <main>
            > 12 |       {post.titel}

            Next.js build worker exited with code: 1 and signal: null""";

    @Test
    void should_read_a_location_that_starts_with_a_dot_and_a_slash() {
        assertThat(CodingEvidence.hasSourceLocation("./app/page.tsx:12:5")).isTrue();
        assertThat(CodingEvidence.hasSourceLocation("../lib/util.py:3")).isTrue();
        assertThat(CodingEvidence.hasSourceLocation("./notes.txt:12")).as("no source file").isFalse();
        assertThat(CodingEvidence.isEvidence("PHP Parse error:  syntax error, unexpected token \"}\" in"
                + " /app/src/index.php on line 14")).as("PHP's location").isTrue();
    }

    @Test
    void should_take_a_location_with_its_error_word_on_a_line_next_to_it() {
        String terraform = """
                │ Error: Reference to undeclared resource
                │
                │   on main.tf line 12, in resource "aws_s3_bucket_policy" "site":
                """;

        assertThat(CodingEvidence.isEvidence(NEXT_JS_TYPE_ERROR)).isTrue();
        assertThat(CodingEvidence.isEvidence(terraform)).isTrue();
    }

    @Test
    void should_not_join_a_location_and_an_error_word_three_lines_apart() {
        String apart = """
                The page was checked.
                ./app/page.tsx:12:5
                It has a heading.
                It has a footer.
                It has a sidebar.
                Its error count is zero.
                """;

        assertThat(CodingEvidence.isEvidence(apart)).isFalse();
    }
}
