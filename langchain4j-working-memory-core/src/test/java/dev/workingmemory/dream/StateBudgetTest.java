package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateBudgetTest {

    @ParameterizedTest
    @CsvSource({"1000000,8000", "200000,8000", "199999,6000", "128000,6000", "64000,4000", "100000,4000",
            "32000,3200", "63999,3200", "16000,1600", "8000,800", "1000,800"})
    void should_follow_the_seed_table(int window, int budget) {
        assertThat(StateBudget.forContextWindow(window)).isEqualTo(budget);
    }

    @Test
    void should_leave_a_state_within_budget_alone() {
        String state = StateDocument.parse(StateDocumentTest.SEED_STATE).render();

        assertThat(StateBudget.fit(state, state.length())).isSameAs(state);
    }

    @Test
    void should_cut_at_a_line_boundary_within_the_budget() {
        StateDocument state = StateDocument.parse(StateDocumentTest.SEED_STATE);
        String full = state.render();

        for (int budget = StateBudget.TRUNCATION_MARKER.length(); budget < full.length(); budget += 7) {
            String cut = state.renderWithin(budget);
            assertThat(cut.length()).isLessThanOrEqualTo(budget);
            assertThat(cut).endsWith(StateBudget.TRUNCATION_MARKER);
            String kept = cut.substring(0, cut.length() - StateBudget.TRUNCATION_MARKER.length()).stripTrailing();
            if (!kept.isEmpty()) {
                assertThat(full).startsWith(kept + "\n"); // whole lines only
                assertThat(kept.lines().reduce((a, b) -> b).orElseThrow()).doesNotStartWith("#"); // no empty heading
            }
        }
    }

    @Test
    void should_keep_the_first_sections_when_cutting() {
        String cut = StateDocument.parse(StateDocumentTest.SEED_STATE).renderWithin(400);

        assertThat(cut).contains("## The Phenotype", "A patient pair programmer").doesNotContain("Emerging Skills")
                .endsWith("\n\n" + StateBudget.TRUNCATION_MARKER);
    }

    @Test
    void should_give_the_marker_alone_or_nothing_when_little_fits() {
        String text = "# Working Memory State with a very long first line that cannot fit anywhere at all";
        assertThat(StateBudget.fit(text, StateBudget.TRUNCATION_MARKER.length() + 5))
                .isEqualTo(StateBudget.TRUNCATION_MARKER);
        assertThat(StateBudget.fit(text, 10)).isEmpty();
        assertThatThrownBy(() -> StateBudget.fit(text, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
