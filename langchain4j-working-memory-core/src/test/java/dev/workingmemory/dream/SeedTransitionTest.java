package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SeedTransitionTest {

    private static final String ORIGINAL = """
            # My existing MEMORY.md content

            ## Projects
            - The CMS rewrite, in Kotlin
            - Hiking club website

            ---

            Notes about my family: two kids, a cat.
            """;

    private static StateDocument generated() {
        return StateDocument.parse(StateDocumentTest.SEED_STATE);
    }

    @Test
    void should_append_the_generated_state_below_the_original() {
        String document = SeedTransition.append(ORIGINAL, generated());

        assertThat(document).isEqualTo(ORIGINAL.stripTrailing() + """


                ---

                <!-- Dream-generated working memory follows. Subsequent dream cycles will
                     gradually integrate the above content. -->

                ## Dream-Generated

                """ + StateDocumentTest.SEED_STATE);
        assertThat(SeedTransition.isTransition(document)).isTrue();
        assertThat(SeedTransition.originalPart(document)).contains(ORIGINAL.strip());
        assertThat(SeedTransition.generatedPart(document)).contains(StateDocumentTest.SEED_STATE);
    }

    @Test
    void should_read_the_generated_state_for_the_next_dream() {
        String original = "# Working Memory State\n\n## Active Context\n\n- hand-written state in the seed format";
        String document = SeedTransition.append(original, generated());

        StateDocument state = SeedTransition.state(document, StateSchema.defaults());

        assertThat(state).isEqualTo(generated());
        assertThat(StateDocument.parse(document).body("Active Context")).contains("hand-written"); // why state() exists
        assertThat(SeedTransition.state(StateDocumentTest.SEED_STATE, StateSchema.defaults())).isEqualTo(generated());
    }

    @Test
    void should_replace_the_generated_part_when_appending_again() {
        String first = SeedTransition.append(ORIGINAL, generated());
        StateDocument next = generated().withSection("The Niche", "- Kotlin");

        String second = SeedTransition.append(first, next);

        assertThat(second).isEqualTo(SeedTransition.append(ORIGINAL, next));
        assertThat(second.split("## Dream-Generated", -1)).hasSize(2);
    }

    @Test
    void should_read_crlf_and_return_the_state_alone_for_a_blank_original() {
        String document = SeedTransition.append(ORIGINAL, generated()).replace("\n", "\r\n");

        assertThat(SeedTransition.isTransition(document)).isTrue();
        assertThat(SeedTransition.generatedPart(document)).contains(StateDocumentTest.SEED_STATE);
        assertThat(SeedTransition.append("  \n", generated())).isEqualTo(StateDocumentTest.SEED_STATE);
    }

    @Test
    void should_not_take_other_documents_for_transitions() {
        for (String document : List.of(ORIGINAL, StateDocumentTest.SEED_STATE, "## Dream-Generated\n# Working Memory State",
                "## Dream-Generated\n<!-- Dream-generated working memory follows -->", "")) {
            assertThat(SeedTransition.isTransition(document)).as(document).isFalse();
            assertThat(SeedTransition.originalPart(document)).isEmpty();
            assertThat(SeedTransition.generatedPart(document)).isEmpty();
        }
        assertThat(SeedTransition.isTransition(null)).isFalse();
        assertThatThrownBy(() -> SeedTransition.append(null, generated())).isInstanceOf(IllegalArgumentException.class);
    }
}
