package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SectionRulesTest {

    private final SectionRules rules = new SectionRules(SectionRules.DEFAULT_LEXICON);

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "User's name is Douglas, prefers tabs over spaces|The Bond",
            "User explicitly asked to never use semicolons in JS|The Bond",
            "Loves hiking with her two kids on weekends|The Bond",
            "Project deadline is March 20th for the API migration|Active Context",
            "Decided to ship the beta on Friday|Active Context",
            "The build broke again because of a flaky integration test|Active Context",
            "Assistant should answer in short bullet points and explain before editing|The Phenotype",
            "Uses IntelliJ on Ubuntu with Docker and Postgres|The Niche",
            "Wonder whether the team wants GraphQL|Curiosity Gaps",
            "Which CI does the team use?|Curiosity Gaps",
            "Need to find out the budget for the offsite|Curiosity Gaps",
            "Zebra crossing painted blue|Active Context"})
    void should_put_a_note_in_its_section(String text, String section) {
        assertThat(rules.classify(States.note(0, 0.7, text), StateSchema.defaults())).isEqualTo(section);
    }

    @Test
    void should_place_salience_auto_notes_by_their_hormone() {
        SalienceLevels high = new SalienceLevels(0.9, 0.9, 0.9);
        Salience salience = Salience.builder().build();
        salience.raise(high, "user message \"x\"");

        assertThat(salience.autoNotes()).extracting(note -> rules.classify(note.toNote(States.T0), StateSchema.defaults()))
                .containsExactly("Active Context", "Active Context", "The Bond");
    }

    @Test
    void should_read_tags_as_cues() {
        assertThat(rules.classify(States.note(0, 0.7, "Zebra crossing", "personal", "family"), StateSchema.defaults()))
                .isEqualTo("The Bond");
    }

    @Test
    void should_match_short_cues_as_whole_words_and_long_ones_as_word_starts() {
        assertThat(rules.classify(States.note(0, 0.7, "Prefers dark mode"), StateSchema.defaults())).isEqualTo("The Bond");
        // "api" must not match inside "rapid", "son" not inside "reason"
        assertThat(rules.classify(States.note(0, 0.7, "Rapid reason"), StateSchema.defaults())).isEqualTo("Active Context");
    }

    @Test
    void should_follow_the_schema_and_a_custom_lexicon() {
        StateSchema schema = StateSchema.defaults().toBuilder().drop(StateSchema.ACTIVE_CONTEXT)
                .drop(StateSchema.CURIOSITY_GAPS).section("Open Risks", "risks").build();
        SectionRules custom = new SectionRules(Map.of("open risks", List.of("risk", "vendor lock-in")));

        assertThat(custom.classify(States.note(0, 0.7, "Vendor lock-in on the queue is a risk"), schema))
                .isEqualTo("Open Risks");
        assertThat(custom.classify(States.note(0, 0.7, "Is this a question?"), schema)).isEqualTo("The Phenotype");
        assertThat(SectionRules.fallback(schema)).isEqualTo("The Phenotype");
        assertThat(SectionRules.fallback(StateSchema.builder().section("Crystal Pointers", "p").build()))
                .isEqualTo("Crystal Pointers");
    }
}
