package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateDocumentTest {

    static final String SEED_STATE = """
            # Working Memory State

            _Last dream: 2026-03-12T16:00:00Z | Mood: motivated, socially engaged_

            ## The Phenotype

            A patient pair programmer that explains before it edits.

            ## The Bond (Oxytocin-Weighted)

            Enduring user traits, communication style, trust level, shared history.
            Current emotional baseline.

            ## The Niche

            Java 17, Maven, IntelliJ on Linux.

            ## Active Context (Dopamine/Cortisol-Weighted)

            Last 1-3 sessions, unresolved tasks, current goals.

            ## Crystal Pointers (Deep Memory Awareness)

            _Use memory_search if user asks about these topics:_

            - Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`
            - Past: Workspace migration → search: `workspace migration WSL`

            ## Curiosity Gaps

            Unresolved questions, knowledge gaps, things the agent wants to explore.

            ## Emerging Skills

            _Patterns detected from repeated tasks. Pre-crystallization:_

            - TypeScript refactoring → Confidence: 85% | Occurrences: 7
            - SQLite schema design → Confidence: 72% | Occurrences: 4""";

    @Test
    void should_read_the_seed_document() {
        StateDocument state = StateDocument.parse(SEED_STATE);

        assertThat(state.lastDream()).contains(Instant.parse("2026-03-12T16:00:00Z"));
        assertThat(state.mood()).contains("motivated, socially engaged");
        assertThat(state.sections()).extracting(StateDocument.Section::name).containsExactly("The Phenotype",
                "The Bond", "The Niche", "Active Context", "Crystal Pointers", "Curiosity Gaps", "Emerging Skills");
        assertThat(state.section("the bond")).hasValueSatisfying(bond -> {
            assertThat(bond.suffix()).isEqualTo("(Oxytocin-Weighted)");
            assertThat(bond.body()).startsWith("Enduring user traits").endsWith("Current emotional baseline.");
        });
        assertThat(state.section("The Bond (whatever)")).isPresent();
        assertThat(state.pointers()).containsExactly(
                new CrystalPointer("P2P bridge CORS debugging", "CORS P2P EigenTrust"),
                new CrystalPointer("Workspace migration", "workspace migration WSL"));
        assertThat(state.missingSections()).isEmpty();
    }

    @Test
    void should_render_the_seed_document_as_it_was_written() {
        assertThat(StateDocument.parse(SEED_STATE).render()).isEqualTo(SEED_STATE);
    }

    @Test
    void should_render_what_it_parses_unchanged() {
        StateDocument state = StateDocument.parse(SEED_STATE);

        assertThat(StateDocument.parse(state.render())).isEqualTo(state);
    }

    @Test
    void should_tolerate_what_people_and_models_write() {
        String messy = "Here is the state you asked for.\r\n\r\n# working memory state   \r\n\r\n\r\n"
                + "## 1. **The Bond**:\r\n\r\n\r\n- Prefers tabs   \r\n\r\n\r\n\r\n### Family\r\n- Two kids\r\n"
                + "## Crystal Pointers\r\n- Past: old bug -> search: `NPE parser`\r\n* Past: trip → search: \"Lisbon hotel\"\r\n";

        StateDocument state = StateDocument.parse(messy);

        assertThat(state.mood()).isEmpty();
        assertThat(state.lastDream()).isEmpty();
        assertThat(state.body("The Bond")).isEqualTo("- Prefers tabs\n\n### Family\n- Two kids");
        assertThat(state.pointers()).containsExactly(new CrystalPointer("old bug", "NPE parser"),
                new CrystalPointer("trip", "Lisbon hotel"));
        assertThat(state.render()).isEqualTo("""
                # Working Memory State

                ## The Bond

                - Prefers tabs

                ### Family
                - Two kids

                ## Crystal Pointers

                - Past: old bug → search: `NPE parser`
                - Past: trip → search: `Lisbon hotel`""");
        assertThat(state.render()).doesNotContain("Here is", "\r", "->");
    }

    @Test
    void should_start_at_the_mood_line_or_first_section_when_the_title_is_missing() {
        StateDocument state = StateDocument.parse("""
                Sure! Updated below.

                _Last dream: 2026-03-12 16:00 | Mood: calm_

                Some intro text.

                ## Active Context
                - Ship v2 by Friday""");

        assertThat(state.lastDream()).contains(Instant.parse("2026-03-12T16:00:00Z"));
        assertThat(state.mood()).contains("calm");
        assertThat(state.intro()).isEqualTo("Some intro text.");
        assertThat(state.body("Active Context")).isEqualTo("- Ship v2 by Friday");
        assertThat(state.render()).startsWith(StateDocument.TITLE + "\n\n_Last dream: 2026-03-12T16:00:00Z | Mood: calm_");
    }

    @ParameterizedTest
    @ValueSource(strings = {"_Last dream: never | Mood: calm_", "*Last dream:* yesterday | Mood: calm",
            "Last dream: 2026-13-45 | Mood: calm"})
    void should_read_a_mood_line_with_an_unreadable_time(String moodLine) {
        StateDocument state = StateDocument.parse(StateDocument.TITLE + "\n" + moodLine + "\n## The Bond\nx");

        assertThat(state.lastDream()).isEmpty();
        assertThat(state.mood()).contains("calm");
        assertThat(state.intro()).isEmpty();
    }

    @Test
    void should_keep_headings_inside_code_blocks_in_their_section() {
        StateDocument state = StateDocument.parse("""
                # Working Memory State
                ## The Niche
                ```markdown
                ## Not a section
                ```
                ## Active Context
                - a""");

        assertThat(state.body("The Niche")).isEqualTo("```markdown\n## Not a section\n```");
        assertThat(state.sections()).hasSize(2);
    }

    @Test
    void should_join_a_section_written_twice_and_keep_unknown_sections_last() {
        StateDocument state = StateDocument.parse("""
                # Working Memory State
                ## Random Thoughts
                - r
                ## The Bond
                - a
                ## Active Context
                - c
                ## The Bond
                - b""");

        assertThat(state.sections()).extracting(StateDocument.Section::name)
                .containsExactly("The Bond", "Active Context", "Random Thoughts");
        assertThat(state.body("The Bond")).isEqualTo("- a\n\n- b");
        assertThat(state.missingSections()).containsExactly("The Phenotype", "The Niche", "Crystal Pointers",
                "Curiosity Gaps", "Emerging Skills");
    }

    @Test
    void should_drop_a_preamble_with_sections_of_its_own_before_the_title() {
        StateDocument state = StateDocument.parse("""
                # My notes
                ## Projects
                - old project
                # Working Memory State
                ## Active Context
                - new""");

        assertThat(state.sections()).extracting(StateDocument.Section::name).containsExactly("Active Context");
    }

    @Test
    void should_read_nothing_from_garbage() {
        for (String garbage : List.of("", "lol", "   \n\n", "# Something else\ntext")) {
            StateDocument state = StateDocument.parse(garbage);
            assertThat(state.sections()).isEmpty();
            assertThat(state.substanceChars()).isZero();
            assertThat(state.render()).isEqualTo(StateDocument.TITLE);
        }
    }

    @Test
    void should_follow_a_configured_schema() {
        StateSchema schema = StateSchema.defaults().toBuilder().drop(StateSchema.NICHE)
                .replace(StateSchema.PHENOTYPE, "Product Context", "the product").build();

        StateDocument state = StateDocument.parse("""
                # Working Memory State
                ## The Niche
                - n
                ## Crystal Pointers
                ## product context (v2)
                - p""", schema);

        assertThat(state.sections()).extracting(StateDocument.Section::heading)
                .containsExactly("Product Context (v2)", "Crystal Pointers", "The Niche");
        assertThat(state.missingSections()).containsExactly("The Bond", "Active Context", "Curiosity Gaps",
                "Emerging Skills");
    }

    @Test
    void should_build_a_document() {
        StateDocument state = StateDocument.builder()
                .lastDream(Instant.parse("2026-03-12T16:00:00.123Z"))
                .mood("calm | _happy_\nreally")
                .section("Active Context", "\n\n- a\n\n\n- b  \n")
                .section("The Bond (Oxytocin-Weighted)", "## Sub\n- c")
                .build();

        assertThat(state.render()).isEqualTo("""
                # Working Memory State

                _Last dream: 2026-03-12T16:00:00Z | Mood: calm / _happy_ really_

                ## The Bond (Oxytocin-Weighted)

                ### Sub
                - c

                ## Active Context

                - a

                - b""");
        assertThat(StateDocument.parse(state.render()).mood()).contains("calm / _happy_ really");
    }

    @Test
    void should_replace_the_header_and_a_section() {
        StateDocument state = StateDocument.parse(SEED_STATE)
                .withHeader(Instant.parse("2026-04-01T00:00:00Z"), "calm")
                .withSection("The Niche", "- Kotlin now");

        assertThat(state.lastDream()).contains(Instant.parse("2026-04-01T00:00:00Z"));
        assertThat(state.mood()).contains("calm");
        assertThat(state.body("The Niche")).isEqualTo("- Kotlin now");
        assertThat(state.sections()).hasSize(7);
        assertThat(state.withSection("Extra", "- e").sections()).extracting(StateDocument.Section::name).last()
                .isEqualTo("Extra");
    }

    @Test
    void should_replace_every_pointer_and_keep_the_other_lines_of_crystal_pointers() {
        StateDocument state = StateDocument.parse("""
                # Working Memory State
                ## Active Context
                - a
                - Past: misplaced → search: `x y`
                ## Crystal Pointers
                _Use memory_search if user asks about these topics:_
                - None yet.
                - Past: old → search: `a b`""");

        StateDocument replaced = state.withPointers(List.of(new CrystalPointer("new topic", "k1 k2")));

        assertThat(replaced.pointers()).containsExactly(new CrystalPointer("new topic", "k1 k2"));
        assertThat(replaced.body("Active Context")).isEqualTo("- a");
        assertThat(replaced.body("Crystal Pointers")).isEqualTo("""
                _Use memory_search if user asks about these topics:_

                - Past: new topic → search: `k1 k2`""");
        assertThat(state.withPointers(List.of()).body("Crystal Pointers"))
                .isEqualTo("_Use memory_search if user asks about these topics:_\n- None yet.");
    }

    @Test
    void should_add_crystal_pointers_when_it_is_missing() {
        StateDocument state = StateDocument.parse("# Working Memory State\n## The Bond\n- a")
                .withPointers(List.of(new CrystalPointer("t", "k")));

        assertThat(state.sections()).extracting(StateDocument.Section::name).containsExactly("The Bond", "Crystal Pointers");
        assertThat(state.body("Crystal Pointers")).isEqualTo("- Past: t → search: `k`");
    }

    @Test
    void should_measure_substance_without_headings_placeholders_and_labels() {
        StateDocument state = StateDocument.parse("""
                # Working Memory State
                ## The Bond
                - None
                - N/A
                _(none yet)_
                -
                ### Details
                ## Crystal Pointers
                _Use memory_search if user asks about these topics:_
                ## Active Context
                - **Ship v2**
                """);

        assertThat(state.substanceChars()).isEqualTo("Ship v2".length());
        assertThat(state.section("The Bond").orElseThrow().substanceChars()).isZero();
    }

    @Test
    void should_reject_bad_arguments() {
        assertThatThrownBy(() -> StateDocument.parse(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StateDocument.parse("x", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StateDocument.builder().section(" ", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StateDocument.builder().section("# x", "x").build())
                .isInstanceOf(IllegalArgumentException.class);
    }
}
