package dev.workingmemory.dream;

import dev.workingmemory.notes.Note;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The building blocks in the order the dream engine runs them: synthesize, judge with the collapse guards, check the
 * pointers, and the document that would be committed.
 */
class DreamPipelineTest {

    private static final Instant NOW = Instant.parse("2026-03-13T08:00:00Z");
    private static final List<DreamCrystal> CRYSTALS = List.of(
            new DreamCrystal("c-cors", "note", States.T0, 0.8,
                    "We spent 3 hours debugging a CORS error on the P2P bridge. Fixed by tweaking EigenTrust thresholds."),
            new DreamCrystal("c-wsl", "migrated", States.T0, 0.75,
                    "Workspace migration: moved the monorepo into WSL2 with the dotfiles."));

    /** A keyword search over {@link #CRYSTALS}, as memory_search would answer. */
    private static List<SearchHit> search(String keywords) {
        List<SearchHit> hits = new ArrayList<>();
        for (DreamCrystal crystal : CRYSTALS) {
            String text = crystal.text().toLowerCase(Locale.ROOT);
            if (Stream.of(keywords.toLowerCase(Locale.ROOT).split("\\s+")).anyMatch(text::contains)) {
                hits.add(new SearchHit(crystal.id(), crystal.text()));
            }
        }
        return hits;
    }

    private record Outcome(GuardVerdict verdict, StateDocument committed, PointerCheck.Result pointers) {
    }

    private static Outcome dream(DreamSynthesizer synthesizer, DreamInput input) {
        Synthesis synthesis = synthesizer.synthesize(input);
        GuardVerdict verdict = CollapseGuards.defaults().judge(input, synthesis.state());
        if (!verdict.passed()) {
            return new Outcome(verdict, null, null);
        }
        PointerCheck.Result pointers = PointerCheck.builder().search(DreamPipelineTest::search)
                .keywordSource((id, max) -> Map.of("c-wsl", List.of("workspace", "WSL2")).getOrDefault(id, List.of()))
                .build().check(verdict.candidate().pointers(), input.crystals());
        return new Outcome(verdict, verdict.candidate().withPointers(pointers.pointers()), pointers);
    }

    private static DreamInput input(StateDocument old) {
        return DreamInput.builder().time(NOW).budgetChars(4_000).oldState(old).crystals(CRYSTALS)
                .notes(List.of(States.note(0, 0.8, "User's name is Douglas, prefers tabs over spaces"),
                        States.note(1, 0.7, "Project deadline is March 20th for the API migration")))
                .build();
    }

    @Test
    void should_commit_a_scripted_state_whose_pointers_find_their_crystals() {
        String answer = LlmDreamSynthesizerTest.ANSWER.replace(
                "- Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`", """
                        - Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`
                        - Past: Workspace migration -> search: `linux laptop`
                        - Past: Quantum gardening → search: `qubits tomatoes`""");
        LlmDreamSynthesizer llm = LlmDreamSynthesizer.builder().chatModel(ScriptedChatModel.script().thenAnswer(answer))
                .build();

        Outcome outcome = dream(llm, input(null));

        assertThat(outcome.verdict().passed()).isTrue();
        assertThat(outcome.pointers().outcomes()).extracting(PointerOutcome::action).containsExactly(
                PointerOutcome.Action.KEPT, PointerOutcome.Action.REPAIRED, PointerOutcome.Action.DROPPED);
        assertThat(outcome.committed().pointers()).containsExactly(
                new CrystalPointer("P2P bridge CORS debugging", "CORS P2P EigenTrust"),
                new CrystalPointer("Workspace migration", "workspace WSL2"));
        for (CrystalPointer pointer : outcome.committed().pointers()) {
            assertThat(search(pointer.keywords())).isNotEmpty();
        }
    }

    @Test
    void should_commit_an_offline_first_state_with_every_section() {
        Outcome outcome = dream(OfflineDreamSynthesizer.create(), input(null));

        assertThat(outcome.verdict().passed()).isTrue();
        assertThat(outcome.committed().missingSections()).isEmpty();
        assertThat(outcome.committed().render()).contains("Douglas", "March 20th");
        assertThat(outcome.pointers().outcomes()).isNotEmpty()
                .allSatisfy(p -> assertThat(p.action()).isNotEqualTo(PointerOutcome.Action.DROPPED));
    }

    static Stream<Arguments> garbage() {
        StateDocument mature = States.full(6);
        List<String> pointers = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            pointers.add(new CrystalPointer("topic " + i, "CORS k" + i).line());
        }
        String runaway = States.full(2).withSection("Crystal Pointers", String.join("\n", pointers)).render();
        String missing = States.full(3).render().replaceAll("(?s)## The Niche.*?(?=## Active Context)", "");
        return Stream.of(
                Arguments.of("", mature, DreamGuard.MISSING_SECTION),
                Arguments.of("lol", mature, DreamGuard.MISSING_SECTION),
                Arguments.of(States.full(1).render(), mature, DreamGuard.MASS_DROP), // under 30% of the mature state
                Arguments.of(runaway, null, DreamGuard.POINTER_RUNAWAY),
                Arguments.of(missing, mature, DreamGuard.MISSING_SECTION),
                Arguments.of(States.placeholders(), null, DreamGuard.EMPTY_SYNTHESIS));
    }

    @ParameterizedTest
    @MethodSource("garbage")
    void should_reject_garbage_and_name_the_guard(String answer, StateDocument old, DreamGuard guard) {
        LlmDreamSynthesizer llm = LlmDreamSynthesizer.builder()
                .chatModel(ScriptedChatModel.script().thenAnswer(answer).thenAnswer(answer)).build();

        Outcome outcome = dream(llm, input(old));

        assertThat(outcome.verdict().failedGuard()).contains(guard);
        assertThat(outcome.committed()).isNull();
    }

    @Test
    void should_keep_the_input_flat_at_ten_times_the_history() {
        assertThat((double) history(100).sizeChars()).isCloseTo(history(10).sizeChars(),
                org.assertj.core.data.Percentage.withPercentage(5));
    }

    private static DreamInput history(int sessions) {
        List<Note> notes = new ArrayList<>();
        List<DreamCrystal> crystals = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            for (int i = 0; i < 6; i++) {
                notes.add(States.note(s * 10 + i, 0.7, "Session " + s + " fact " + i + " " + "f".repeat(150)));
                crystals.add(new DreamCrystal("s" + s + "-" + i, "turn", States.T0.plusSeconds(s * 10L + i), 0.5,
                        "Turn " + i + " " + "t".repeat(900)));
            }
        }
        return DreamInput.builder().oldState(States.full(5)).notes(notes).crystals(crystals).time(NOW).build();
    }
}
