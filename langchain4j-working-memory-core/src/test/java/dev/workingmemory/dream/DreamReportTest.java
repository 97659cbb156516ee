package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DreamReportTest {

    private static final GuardCheck SECTIONS = new GuardCheck(DreamGuard.MISSING_SECTION, true, "all 7 sections present");
    private static final GuardCheck EMPTY = new GuardCheck(DreamGuard.EMPTY_SYNTHESIS, false,
            "The sections hold 3 characters of substance, fewer than 50");

    private static DreamReport report(boolean committed, DreamGuard guard, List<GuardCheck> checks) {
        return new DreamReport("maya", committed, committed ? "Committed" : "Rejected: x", guard, 900, 600, 3, 1, 2,
                1, 0, 0, true, OptionalInt.of(1_234), Instant.EPOCH, Duration.ofMillis(12), checks);
    }

    @Test
    void should_summarize_a_rejected_dream_with_the_guards_that_ran() {
        DreamReport report = report(false, DreamGuard.EMPTY_SYNTHESIS, List.of(SECTIONS, EMPTY));

        assertThat(report.passedGuards()).containsExactly(DreamGuard.MISSING_SECTION);
        assertThat(report.failedGuard()).contains(DreamGuard.EMPTY_SYNTHESIS);
        assertThat(report.summary()).isEqualTo("""
                Dream of 'maya' not committed: Rejected: x
                  consumed 3 notes (1 deferred), read 2 new crystals, 900 chars in, 600 chars out
                  guards: 1 of 2 passed, rejected by EMPTY_SYNTHESIS
                    MISSING_SECTION passed: all 7 sections present
                    EMPTY_SYNTHESIS FAILED: The sections hold 3 characters of substance, fewer than 50
                  pointers kept/repaired/dropped: 1/0/0
                  tokens: 1234, 12 ms""");
        assertThat(report.toString()).contains("guards passed=1/2");
    }

    @Test
    void should_keep_the_constructor_without_guard_checks() {
        DreamReport report = new DreamReport("maya", false, "The synthesis timed out", null, 900, 0, 0, 0, 2, 0, 0, 0,
                false, OptionalInt.empty(), Instant.EPOCH, Duration.ZERO);

        assertThat(report.guardChecks()).isEmpty();
        assertThat(report.passedGuards()).isEmpty();
        assertThat(report.summary()).contains("guards: none ran", "(not checked)", "tokens: n/a");
    }

    @Test
    void should_refuse_guard_checks_that_contradict_the_rejecting_guard() {
        GuardCheck overBudget = new GuardCheck(DreamGuard.OVER_BUDGET, false, "over");

        assertThatThrownBy(() -> report(true, null, List.of(SECTIONS, EMPTY)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> report(false, DreamGuard.MASS_DROP, List.of(SECTIONS, overBudget)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> report(false, DreamGuard.EMPTY_SYNTHESIS, List.of(EMPTY, SECTIONS)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GuardCheck(DreamGuard.MASS_DROP, true, " "))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
