package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LexiconSalienceScorerTest {

    private final SalienceScorer scorer = SalienceScorer.lexicon();

    @Test
    void should_score_a_breakthrough_as_dopamine() {
        SalienceLevels score = scorer.score(SalienceSource.USER_MESSAGE, "IT FINALLY WORKS!!! The build is green.");

        assertThat(score.dopamine()).isGreaterThan(0.7);
        assertThat(score.cortisol()).isZero();
        assertThat(score.oxytocin()).isZero();
    }

    @Test
    void should_score_frustration_as_cortisol_and_gratitude_as_oxytocin() {
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, "This is so frustrating, the deploy is still failing")
                .cortisol()).isGreaterThan(0.7);
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, "Thank you so much, you're the best!").oxytocin())
                .isGreaterThan(0.7);
    }

    @Test
    void should_weigh_mild_cues_less_and_intensity_more() {
        double mild = scorer.score(SalienceSource.USER_MESSAGE, "thanks").oxytocin();
        double intense = scorer.score(SalienceSource.USER_MESSAGE, "thanks!!!").oxytocin();

        assertThat(mild).isCloseTo(0.25, within(1e-9));
        assertThat(intense).isCloseTo(0.25 * 1.45, within(1e-9));
    }

    @Test
    void should_not_count_a_word_of_a_strong_cue_twice() {
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, "it works").dopamine()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void should_count_assistant_messages_half() {
        double user = scorer.score(SalienceSource.USER_MESSAGE, "Great, it works now").dopamine();
        double assistant = scorer.score(SalienceSource.ASSISTANT_MESSAGE, "Great, it works now").dopamine();

        assertThat(assistant).isCloseTo(user / 2, within(1e-9)).isPositive();
    }

    @Test
    void should_read_errors_in_tool_results_as_cortisol_only() {
        String trace = """
                java.lang.IllegalStateException: connection refused
                    at com.acme.Db.connect(Db.java:42)
                    at com.acme.Main.main(Main.java:7)""";

        SalienceLevels result = scorer.score(SalienceSource.TOOL_RESULT, trace);
        SalienceLevels error = scorer.score(SalienceSource.TOOL_ERROR, trace);

        assertThat(result.cortisol()).isCloseTo(0.6, within(1e-9)); // trace 0.4 + an Exception 0.2
        assertThat(error.cortisol()).isCloseTo(0.9, within(1e-9)); // 0.3 + 0.6, at the cap
        assertThat(result.dopamine()).isZero();
        assertThat(scorer.score(SalienceSource.TOOL_RESULT, "Tests run: 12, Failures: 0 - BUILD SUCCESS, great"))
                .isEqualTo(SalienceLevels.NONE);
        assertThat(scorer.score(SalienceSource.TOOL_RESULT, "[ERROR] BUILD FAILURE").cortisol())
                .isCloseTo(0.4, within(1e-9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "Please rename the page to About Us", "The meeting is at 10",
            "networking greatness"})
    void should_give_nothing_for_neutral_text(String text) {
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, text)).isEqualTo(SalienceLevels.NONE);
    }

    @Test
    void should_stay_within_one_and_read_a_bounded_prefix() {
        String rant = "ugh this is so frustrating!!! ".repeat(10);
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, rant).cortisol()).isEqualTo(LexiconSalienceScorer.MAX_SCORE);

        String late = "x".repeat(LexiconSalienceScorer.MAX_CHARS) + " thank you so much";
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, late)).isEqualTo(SalienceLevels.NONE);
        assertThat(scorer.score(null, "thanks")).isEqualTo(SalienceLevels.NONE);
        assertThat(scorer.score(SalienceSource.USER_MESSAGE, null)).isEqualTo(SalienceLevels.NONE);
    }
}
