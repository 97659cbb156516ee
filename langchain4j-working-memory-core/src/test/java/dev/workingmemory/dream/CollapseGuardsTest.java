package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CollapseGuardsTest {

    private final CollapseGuards guards = CollapseGuards.defaults();

    private GuardVerdict judge(StateDocument old, String candidate) {
        return guards.judge(StateSchema.defaults(), old, candidate, 8_000, Integer.MAX_VALUE);
    }

    @Test
    void should_pass_a_sound_state_and_hand_back_the_parsed_candidate() {
        StateDocument old = States.full(3);
        StateDocument candidate = States.full(4);

        GuardVerdict verdict = judge(old, candidate.render());

        assertThat(verdict.passed()).isTrue();
        assertThat(verdict.failedGuard()).isEmpty();
        assertThat(verdict.candidate()).isEqualTo(candidate);
        assertThat(judge(null, StateDocumentTest.SEED_STATE).passed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "lol", "I could not update the state, sorry.", "# Working Memory State"})
    void should_reject_garbage_as_missing_every_section(String garbage) {
        GuardVerdict verdict = judge(States.full(3), garbage);

        assertThat(verdict.failedGuard()).contains(DreamGuard.MISSING_SECTION);
        assertThat(verdict.reason()).startsWith("The state lacks all 7 sections");
    }

    @Test
    void should_name_a_missing_section() {
        String candidate = States.full(3).render().replace("## Curiosity Gaps", "## Open Questions");

        GuardVerdict verdict = judge(null, candidate);

        assertThat(verdict.failedGuard()).contains(DreamGuard.MISSING_SECTION);
        assertThat(verdict.reason()).isEqualTo("The state lacks 1 of 7 sections: Curiosity Gaps");
    }

    @Test
    void should_follow_the_configured_sections() {
        StateSchema schema = StateSchema.defaults().toBuilder().drop(StateSchema.NICHE).drop(StateSchema.PHENOTYPE)
                .section("Open Risks", "risks").build();
        String withoutNiche = States.full(3).withSection("Open Risks", "- Vendor lock-in on the queue").render()
                .replaceAll("(?s)## The Phenotype.*?(?=## The Bond)", "")
                .replaceAll("(?s)## The Niche.*?(?=## Active Context)", "");

        assertThat(guards.judge(schema, null, withoutNiche, 8_000, Integer.MAX_VALUE).passed()).isTrue();
        assertThat(guards.judge(schema, null, States.full(3).render(), 8_000, Integer.MAX_VALUE).reason())
                .endsWith(": Open Risks");
    }

    @Test
    void should_reject_sections_without_substance() {
        GuardVerdict verdict = judge(null, States.placeholders());

        assertThat(verdict.failedGuard()).contains(DreamGuard.EMPTY_SYNTHESIS);
        assertThat(verdict.reason()).isEqualTo("The sections hold 0 characters of substance, fewer than 50");
        String almost = States.placeholders().replaceFirst("- None yet\\.", "- " + "x".repeat(49));
        assertThat(judge(null, almost).failedGuard()).contains(DreamGuard.EMPTY_SYNTHESIS);
        String enough = States.placeholders().replaceFirst("- None yet\\.", "- " + "x".repeat(50));
        assertThat(judge(null, enough).passed()).isTrue();
    }

    @Test
    void should_hold_a_young_state_to_what_its_notes_offered() {
        DreamInput input = DreamInput.builder().notes(List.of(States.note(0, 0.8, "Name: Bo"))).build();
        String withTheNote = States.placeholders().replaceFirst("- None yet\\.", "- Name: Bo");

        assertThat(guards.judge(input, withTheNote).passed()).isTrue();
        GuardVerdict empty = guards.judge(input, States.placeholders());
        assertThat(empty.failedGuard()).contains(DreamGuard.EMPTY_SYNTHESIS);
        assertThat(empty.reason()).endsWith("fewer than 8");
        DreamInput nothing = DreamInput.builder().build();
        assertThat(guards.judge(nothing, States.placeholders()).passed()).isTrue(); // nothing offered, nothing lost
    }

    @Test
    void should_reject_more_than_twenty_pointers_wherever_they_are_written() {
        List<String> pointers = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            pointers.add("- Past: topic " + i + " -> search: `k" + i + "`");
        }
        StateDocument base = States.full(2);
        String twentyOne = base.withSection("Active Context", "- a real task\n" + pointers.get(20))
                .withSection("Crystal Pointers", String.join("\n", pointers.subList(0, 20))).render();
        String twenty = base.withSection("Crystal Pointers", String.join("\n", pointers.subList(0, 20))).render();

        GuardVerdict verdict = judge(null, twentyOne);
        assertThat(verdict.failedGuard()).contains(DreamGuard.POINTER_RUNAWAY);
        assertThat(verdict.reason()).isEqualTo("The synthesis wrote 21 crystal pointers, more than 20");
        assertThat(judge(null, twenty).passed()).isTrue();
    }

    @Test
    void should_reject_a_mass_drop_from_a_mature_state_only() {
        StateDocument mature = States.full(6);
        assertThat(mature.length()).isGreaterThan(2_000);
        StateDocument third = States.full(2);
        assertThat(third.length()).isLessThan(mature.length() / 2);

        GuardVerdict verdict = judge(mature, third.render());
        assertThat(verdict.failedGuard()).contains(DreamGuard.MASS_DROP);
        assertThat(verdict.reason()).startsWith("The state shrank from " + String.format("%,d", mature.length()));

        StateDocument young = States.full(4);
        assertThat(young.length()).isLessThan(2_000);
        assertThat(judge(young, States.full(1).render()).passed()).isTrue();
        StateDocument half = States.full(3);
        assertThat(half.length()).isGreaterThanOrEqualTo(mature.length() / 2);
        assertThat(judge(mature, half.render()).passed()).isTrue();
    }

    @Test
    void should_report_a_state_over_budget() {
        StateDocument big = States.full(6);

        GuardVerdict verdict = guards.judge(StateSchema.defaults(), null, big.render(), 1_000, Integer.MAX_VALUE);

        assertThat(verdict.failedGuard()).contains(DreamGuard.OVER_BUDGET);
        assertThat(verdict.reason()).isEqualTo(String.format("The state has %,d characters, %,d over its budget of 1,000",
                big.length(), big.length() - 1_000));
        assertThat(guards.judge(StateSchema.defaults(), null, big.render(), big.length(), Integer.MAX_VALUE).passed())
                .isTrue();
    }

    @Test
    void should_apply_configured_thresholds() {
        CollapseGuards strict = CollapseGuards.builder().matureChars(100).minRetainedRatio(0.9).maxPointers(1)
                .minSubstanceChars(10_000).build();
        StateDocument old = States.full(3);

        assertThat(strict.judge(StateSchema.defaults(), null, old.render(), 8_000, Integer.MAX_VALUE).failedGuard())
                .contains(DreamGuard.EMPTY_SYNTHESIS);
        CollapseGuards pointers = CollapseGuards.builder().maxPointers(1).build();
        assertThat(pointers.judge(StateSchema.defaults(), null, old.render(), 8_000, 0).failedGuard())
                .contains(DreamGuard.POINTER_RUNAWAY);
        CollapseGuards retained = CollapseGuards.builder().matureChars(100).minRetainedRatio(0.9).build();
        assertThat(retained.judge(StateSchema.defaults(), old, States.full(2).render(), 8_000, 0).failedGuard())
                .contains(DreamGuard.MASS_DROP);
    }

    @Test
    void should_name_the_first_failing_guard() {
        List<String> pointers = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            pointers.add(new CrystalPointer("t" + i, "k" + i).line());
        }
        String manyPointersMissingSection = "# Working Memory State\n## Crystal Pointers\n" + String.join("\n", pointers);

        assertThat(judge(States.full(6), manyPointersMissingSection).failedGuard()).contains(DreamGuard.MISSING_SECTION);
    }

    @Test
    void should_list_every_guard_with_what_it_measured_when_a_state_passes() {
        StateDocument mature = States.full(6);
        StateDocument candidate = States.full(5);

        GuardVerdict verdict = judge(mature, candidate.render());

        assertThat(verdict.passed()).isTrue();
        assertThat(verdict.checks()).extracting(GuardCheck::guard).containsExactly(DreamGuard.values());
        assertThat(verdict.checks()).allMatch(GuardCheck::passed);
        assertThat(verdict.checks()).extracting(GuardCheck::detail).containsExactly(
                "all 7 sections present",
                String.format("%,d characters of substance, at least 50 required", candidate.substanceChars()),
                candidate.pointers().size() + " pointers, at most 20",
                String.format("kept %,d of %,d characters (%.0f%%), at least 50%% required", candidate.length(),
                        mature.length(), 100.0 * candidate.length() / mature.length()),
                String.format("%,d characters, within the budget of 8,000", candidate.length()));
        assertThat(judge(null, candidate.render()).checks().get(3).detail()).isEqualTo("no old state to compare with");
    }

    @Test
    void should_list_the_guards_that_passed_and_then_the_one_that_failed() {
        StateDocument mature = States.full(6);

        GuardVerdict verdict = judge(mature, States.full(2).render());

        assertThat(verdict.checks()).extracting(GuardCheck::guard).containsExactly(DreamGuard.MISSING_SECTION,
                DreamGuard.EMPTY_SYNTHESIS, DreamGuard.POINTER_RUNAWAY, DreamGuard.MASS_DROP);
        assertThat(verdict.checks()).extracting(GuardCheck::passed).containsExactly(true, true, true, false);
        assertThat(verdict.checks().get(3)).isEqualTo(new GuardCheck(DreamGuard.MASS_DROP, false, verdict.reason()));
        assertThat(verdict.checks().get(3).toString()).startsWith("MASS_DROP FAILED: The state shrank from ");
        assertThat(judge(mature, "lol").checks()).singleElement()
                .satisfies(check -> assertThat(check.guard()).isEqualTo(DreamGuard.MISSING_SECTION))
                .satisfies(check -> assertThat(check.passed()).isFalse());
    }

    @Test
    void should_reject_bad_arguments() {
        assertThatThrownBy(() -> guards.judge(null, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> guards.judge(StateSchema.defaults(), null, null, 10, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> guards.judge(StateSchema.defaults(), null, "x", 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CollapseGuards.builder().minRetainedRatio(1.5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CollapseGuards.builder().maxPointers(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
