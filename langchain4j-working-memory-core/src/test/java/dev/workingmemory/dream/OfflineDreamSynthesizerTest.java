package dev.workingmemory.dream;

import dev.workingmemory.notes.Note;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OfflineDreamSynthesizerTest {

    private static final Instant NOW = Instant.parse("2026-03-13T08:00:00Z");
    private static final List<Note> SIX_NOTES = List.of(
            States.note(0, 0.8, "User's name is Douglas, prefers tabs over spaces"),
            States.note(15, 0.7, "Project deadline is March 20th for the API migration"),
            States.note(40, 0.9, "User explicitly asked to never use semicolons in JS"),
            States.note(50, 0.6, "Assistant should answer in short bullet points"),
            States.note(55, 0.5, "Uses IntelliJ on Ubuntu with Docker"),
            States.note(60, 0.7, "Wonder whether the team wants GraphQL"));

    private final OfflineDreamSynthesizer synthesizer = OfflineDreamSynthesizer.create();
    private final CollapseGuards guards = CollapseGuards.defaults();

    private static DreamInput.Builder input() {
        return DreamInput.builder().time(NOW).budgetChars(6_000);
    }

    @Test
    void should_make_a_first_state_with_every_section_from_six_notes() {
        DreamInput input = input().notes(SIX_NOTES).salience(new SalienceLevels(0.5, 0, 0)).build();

        Synthesis synthesis = synthesizer.synthesize(input);

        StateDocument state = StateDocument.parse(synthesis.state());
        assertThat(state.missingSections()).isEmpty();
        assertThat(state.sections()).hasSize(7);
        assertThat(state.body("The Bond")).isEqualTo("""
                - User explicitly asked to never use semicolons in JS
                - User's name is Douglas, prefers tabs over spaces""");
        assertThat(state.body("Active Context")).isEqualTo("- Project deadline is March 20th for the API migration");
        assertThat(state.body("The Phenotype")).isEqualTo("- Assistant should answer in short bullet points");
        assertThat(state.body("The Niche")).isEqualTo("- Uses IntelliJ on Ubuntu with Docker");
        assertThat(state.body("Curiosity Gaps")).isEqualTo("- Wonder whether the team wants GraphQL");
        assertThat(state.body("Crystal Pointers")).isEqualTo("- None yet.");
        assertThat(state.body("Emerging Skills")).isEqualTo("- None yet.");
        assertThat(state.lastDream()).contains(NOW);
        assertThat(state.mood()).contains("motivated");
        assertThat(synthesis.tokensUsed()).isEmpty();
        assertThat(synthesis.modelCalls()).isZero();
        assertThat(synthesis.rawAnswer()).isEqualTo(synthesis.state());
        assertThat(guards.judge(input, synthesis.state()).passed()).isTrue();
    }

    @Test
    void should_be_deterministic() {
        DreamInput input = input().notes(SIX_NOTES).oldState(StateDocument.parse(StateDocumentTest.SEED_STATE))
                .crystals(List.of(new DreamCrystal("c1", "turn", States.T0, 0.5, "Talked about Lisbon hotels."))).build();

        assertThat(OfflineDreamSynthesizer.create().synthesize(input))
                .isEqualTo(OfflineDreamSynthesizer.create().synthesize(input));
    }

    @Test
    void should_pass_the_guards_with_a_single_short_note() {
        DreamInput input = input().notes(List.of(States.note(0, 0.7, "Likes tea"))).build();

        Synthesis synthesis = synthesizer.synthesize(input);

        assertThat(guards.judge(input, synthesis.state()).passed()).isTrue();
        assertThat(StateDocument.parse(synthesis.state()).body("The Bond")).isEqualTo("- Likes tea");
    }

    @Test
    void should_leave_out_a_pointer_whose_topic_cleans_down_to_nothing() {
        List<Note> notes = new ArrayList<>(SIX_NOTES);
        notes.add(States.note(61, 0.7, "hello " + "`".repeat(600)));
        notes.add(States.note(62, 0.7, "`".repeat(500) + " → search: " + "`".repeat(500)));
        DreamInput input = input().notes(notes).crystals(List.of(
                new DreamCrystal("c1", "turn", States.T0, 0.5, "`".repeat(300)))).build();

        Synthesis synthesis = synthesizer.synthesize(input);

        StateDocument state = StateDocument.parse(synthesis.state());
        assertThat(state.missingSections()).isEmpty();
        assertThat(state.body("Crystal Pointers")).doesNotContain("``");
    }

    @Test
    void should_point_to_a_past_turn_by_what_it_says_not_by_the_placeholder_of_a_tool_output_it_does_not_see() {
        DreamInput input = input().notes(SIX_NOTES).crystals(List.of(
                new DreamCrystal("turn-a#1", "turn", States.T0, 0.5, "[2026-03-12] tool run_build: (output not shown)\n"
                        + "assistant: The invoice build fails on a missing semicolon"),
                new DreamCrystal("turn-b#1", "turn", States.T0, 0.5, "[2026-03-12] tool read_email: (output not shown)")))
                .build();

        String pointers = StateDocument.parse(synthesizer.synthesize(input).state()).body("Crystal Pointers");

        assertThat(pointers).contains("invoice build").doesNotContain("output not shown").doesNotContain("shown`");
    }

    @Test
    void should_merge_with_the_old_state_without_duplicates_or_placeholders() {
        StateDocument old = StateDocument.builder()
                .section("The Bond (Oxytocin-Weighted)", "- None yet.\n- Lives in Porto\n- user's name is douglas, prefers tabs over spaces.")
                .section("Random Thoughts", "- keep me")
                .build();
        DreamInput input = input().oldState(old).notes(SIX_NOTES.subList(0, 1)).build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input).state());

        assertThat(state.section("The Bond").orElseThrow().heading()).isEqualTo("The Bond (Oxytocin-Weighted)");
        assertThat(state.body("The Bond")).isEqualTo("- User's name is Douglas, prefers tabs over spaces\n- Lives in Porto");
        assertThat(state.body("Random Thoughts")).isEqualTo("- keep me");
    }

    @Test
    void should_turn_unreinforced_active_context_into_pointers() {
        KeywordSource index = (id, max) -> Map.of("c-cors", List.of("CORS", "P2P", "EigenTrust")).getOrDefault(id, List.of());
        StateDocument old = StateDocument.builder()
                .section("Active Context", """
                        - Debugging CORS errors on the P2P bridge
                        - Preparing the API migration for March
                        - Writing the quarterly report""")
                .build();
        DreamInput input = input().oldState(old)
                .notes(List.of(States.note(0, 0.7, "API migration moved to April, more prep needed")))
                .crystals(List.of(new DreamCrystal("c-cors", "note", States.T0, 0.6,
                        "Long CORS debugging session on the P2P bridge; EigenTrust thresholds were the cause.")))
                .build();

        StateDocument state = StateDocument.parse(OfflineDreamSynthesizer.builder().keywordSource(index).build()
                .synthesize(input).state());

        // the migration's month changed: only the current value stays, the old one is a pointer to its history
        assertThat(state.body("Active Context")).isEqualTo("""
                - API migration moved to April, more prep needed""");
        assertThat(state.pointers()).extracting(CrystalPointer::topic).containsExactly(
                "Debugging CORS errors on the P2P bridge", "Preparing the API migration for March",
                "Writing the quarterly report");
        assertThat(state.pointers().get(0)).isEqualTo(
                new CrystalPointer("Debugging CORS errors on the P2P bridge", "CORS P2P EigenTrust"));
        assertThat(state.body("Crystal Pointers")).doesNotContain("None yet");
        assertThat(state.body("Crystal Pointers")).startsWith("_Use memory_search if the user asks about these topics:_");
    }

    /** Japanese writes no spaces: a pointer's keywords are its words, not a clause up to the next comma. */
    @Test
    void should_point_to_a_japanese_line_by_its_words() {
        StateDocument old = StateDocument.builder().section("Active Context", "- 京都、大阪、奈良を回る予定").build();
        DreamInput input = input().oldState(old)
                .notes(List.of(States.note(0, 0.7, "猫のモモが腎臓病で、来週火曜に病院で点滴"))).build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input).state());

        assertThat(state.pointers()).extracting(CrystalPointer::keywords).first().asString()
                .contains("京都").contains("大阪").contains("奈良").doesNotContain("を");
    }

    @Test
    void should_keep_only_the_current_value_of_an_updated_fact_with_a_past_pointer() {
        StateDocument old = StateDocument.builder()
                .section("The Bond", "- Prefers short answers")
                .section("Active Context", """
                        - First sprint deadline is April 1
                        - The dashboard API answers in 400 ms on average""")
                .build();
        DreamInput input = input().oldState(old).notes(List.of(
                States.note(0, 0.8, "First sprint deadline moved to April 5"),
                States.note(1, 0.7, "Dashboard API answers in 250 ms after the caching work"))).build();

        String text = synthesizer.synthesize(input).state();
        StateDocument state = StateDocument.parse(text);

        assertThat(text).contains("- First sprint deadline moved to April 5", "- Dashboard API answers in 250 ms");
        assertThat(state.body("Active Context")).doesNotContain("April 1", "400 ms");
        assertThat(state.body("The Bond")).contains("Prefers short answers"); // nothing states it anew
        assertThat(state.pointers()).extracting(CrystalPointer::topic).contains("First sprint deadline is April 1",
                "The dashboard API answers in 400 ms on average");
        assertThat(state.body("Crystal Pointers")).contains("- Past: First sprint deadline is April 1 → search: `");
    }

    @Test
    void should_keep_the_new_value_when_a_later_note_of_the_same_dream_restates_the_old_one_with_it() {
        DreamInput input = input().notes(List.of(
                States.note(0, 0.7, "Sarah's sister Emma is getting married on April 1"),
                States.note(10, 0.7, "Emma's wedding moved from April 1 to April 5 (the venue was double-booked)"),
                States.note(20, 0.7, "Sprint ticket ABC-100 is about the login page"),
                States.note(30, 0.7, "Sprint ticket ABC-101 is about the signup page"))).build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input).state());

        assertThat(state.render()).contains("- Emma's wedding moved from April 1 to April 5")
                .doesNotContain("- Sarah's sister Emma is getting married on April 1")
                .as("parallel things are no update").contains("ABC-100 is about the login page", "ABC-101");
        assertThat(state.pointers()).extracting(CrystalPointer::topic)
                .containsExactly("Sarah's sister Emma is getting married on April 1");
    }

    @Test
    void should_supersede_an_old_line_by_a_note_that_restates_its_value_with_a_new_one() {
        StateDocument old = StateDocument.builder().section("Active Context", "- First sprint deadline is April 1").build();
        DreamInput input = input().oldState(old)
                .notes(List.of(States.note(0, 0.8, "First sprint deadline moved from April 1 to April 5"))).build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input).state());

        assertThat(state.body("Active Context")).isEqualTo("- First sprint deadline moved from April 1 to April 5");
        assertThat(state.pointers()).extracting(CrystalPointer::topic).containsExactly("First sprint deadline is April 1");
    }

    @Test
    void should_not_give_a_fading_line_the_keywords_of_a_new_crystal_sharing_only_a_date() {
        KeywordSource index = (id, max) -> Map.of("c-win", List.of("Win", "chapter", "approved", "5th"))
                .getOrDefault(id, List.of());
        StateDocument old = StateDocument.builder()
                .section("Active Context", "- Maya's thesis draft deadline is March 20th.").build();
        DreamInput input = input().oldState(old)
                .notes(List.of(States.note(0, 0.8, "Win: chapter 2 got approved on March 5th.")))
                .crystals(List.of(new DreamCrystal("c-win", "note", States.T0, 0.8, "Win: chapter 2 got approved on March 5th.")))
                .build();

        StateDocument state = StateDocument.parse(OfflineDreamSynthesizer.builder().keywordSource(index).build()
                .synthesize(input).state());

        assertThat(state.pointers()).singleElement().satisfies(pointer -> {
            assertThat(pointer.topic()).isEqualTo("Maya's thesis draft deadline is March 20th");
            assertThat(pointer.keywords()).doesNotContain("Win").contains("deadline");
        });
    }

    @Test
    void should_keep_active_context_when_there_are_no_notes() {
        StateDocument old = StateDocument.builder().section("Active Context", "- Writing the quarterly report").build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input().oldState(old).build()).state());

        assertThat(state.body("Active Context")).isEqualTo("- Writing the quarterly report");
        assertThat(state.pointers()).isEmpty();
    }

    @Test
    void should_move_active_context_beyond_its_cap_into_pointers() {
        List<Note> notes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            notes.add(States.note(i, 0.7, "Task " + i + " for the sprint: ticket ABC-" + (100 + i)));
        }
        DreamInput input = input().notes(notes).build();

        StateDocument state = StateDocument.parse(OfflineDreamSynthesizer.builder().maxActiveItems(3).build()
                .synthesize(input).state());

        assertThat(state.body("Active Context").lines()).containsExactly("- Task 4 for the sprint: ticket ABC-104",
                "- Task 3 for the sprint: ticket ABC-103", "- Task 2 for the sprint: ticket ABC-102");
        assertThat(state.pointers()).extracting(CrystalPointer::topic).containsExactly(
                "Task 1 for the sprint: ticket ABC-101", "Task 0 for the sprint: ticket ABC-100");
    }

    @Test
    void should_give_a_past_turns_pointer_what_its_first_line_says_without_date_and_role() {
        Note note = States.note(0, 0.7, "Likes tea");
        DreamCrystal turn = new DreamCrystal("t1", "turn", States.T0, 0.5,
                "[2026-03-12] user: I adopted a puppy named Max last week. He is a beagle.\n"
                        + "[2026-03-12] assistant: Congratulations on Max!");
        DreamInput input = input().notes(List.of(note)).crystals(List.of(turn)).build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input).state());

        assertThat(state.pointers()).singleElement().satisfies(pointer -> {
            assertThat(pointer.topic()).isEqualTo("I adopted a puppy named Max last week");
            assertThat(pointer.keywords()).doesNotContain("user", "2026");
        });
    }

    @Test
    void should_not_point_to_a_past_turn_whose_topic_a_line_of_the_state_says() {
        Note note = States.note(0, 0.7, "Maya's thesis draft deadline is March 20th");
        DreamCrystal said = new DreamCrystal("t1", "turn", States.T0, 0.5,
                "[2026-03-02] user: My thesis draft is due on March 20th.\n[2026-03-02] assistant: Noted.");
        DreamCrystal other = new DreamCrystal("t2", "turn", States.T0.plusSeconds(60), 0.5,
                "[2026-03-02] user: Ugh. BibTeX keeps mangling the accents in my references.\n"
                        + "[2026-03-02] assistant: Try biblatex.");
        DreamInput input = input().notes(List.of(note)).crystals(List.of(said, other)).build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input).state());

        assertThat(state.pointers()).extracting(CrystalPointer::topic)
                .containsExactly("Ugh. BibTeX keeps mangling the accents in my references");
    }

    @Test
    void should_point_to_new_crystals_but_not_to_the_notes_own() {
        Note note = States.note(0, 0.7, "Likes tea");
        List<DreamCrystal> crystals = new ArrayList<>();
        crystals.add(new DreamCrystal(note.crystalId(), "note", States.T0, 0.9, "Likes tea"));
        for (int i = 0; i < 10; i++) {
            crystals.add(new DreamCrystal("m" + i, "migrated", States.T0.plusSeconds(i), 0.75,
                    "Chapter " + i + " of the handbook. Onboarding checklist item" + i + " explained."));
        }
        DreamInput input = input().notes(List.of(note)).crystals(crystals).build();

        StateDocument state = StateDocument.parse(OfflineDreamSynthesizer.builder().maxPointers(8)
                .keywordSource((id, max) -> List.of(id, "handbook")).build().synthesize(input).state());

        assertThat(state.pointers()).hasSize(4) // half of maxPointers come from crystals
                .extracting(CrystalPointer::topic).containsExactly("Chapter 9 of the handbook",
                        "Chapter 8 of the handbook", "Chapter 7 of the handbook", "Chapter 6 of the handbook");
        assertThat(state.pointers().get(0).keywords()).isEqualTo("m9 handbook");
        assertThat(state.render()).doesNotContain("Past: Likes tea");
    }

    @Test
    void should_keep_old_pointers_after_new_ones_up_to_the_cap() {
        List<String> oldPointers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            oldPointers.add(new CrystalPointer("old topic " + i, "old" + i).line());
        }
        StateDocument old = StateDocument.builder().section("Crystal Pointers", String.join("\n", oldPointers)).build();
        DreamInput input = input().oldState(old)
                .crystals(List.of(new DreamCrystal("n", "turn", States.T0, 0.5, "Fresh topic about sailing."))).build();

        List<CrystalPointer> pointers = StateDocument.parse(synthesizer.synthesize(input).state()).pointers();

        assertThat(pointers).hasSize(12);
        assertThat(pointers.get(0).topic()).isEqualTo("Fresh topic about sailing");
        assertThat(pointers.get(11).topic()).isEqualTo("old topic 10");
    }

    @Test
    void should_detect_repeated_task_patterns_and_add_to_known_skills() {
        List<Note> notes = List.of(
                States.note(0, 0.6, "Fixed the flaky tests in CI"),
                States.note(1, 0.6, "fix flaky test in the parser module"),
                States.note(2, 0.6, "Fixing flaky tests before the release"),
                States.note(3, 0.6, "Refactored TypeScript utils"));
        StateDocument old = StateDocument.builder().section("Emerging Skills",
                "- refactor TypeScript → Confidence: 67% | Occurrences: 2\n- Reads papers on Sundays").build();

        StateDocument state = StateDocument.parse(synthesizer.synthesize(input().oldState(old).notes(notes).build()).state());

        assertThat(state.body("Emerging Skills")).isEqualTo("""
                - fix flaky tests → Confidence: 75% | Occurrences: 3
                - refactor TypeScript → Confidence: 75% | Occurrences: 3
                - Reads papers on Sundays""");
    }

    @Test
    void should_stay_within_the_budget_by_dropping_the_oldest_lines_into_pointers() {
        List<Note> notes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            notes.add(States.note(i, 0.5 + (i % 5) / 10.0, "User's favorite thing number " + i
                    + " is a long story about travels, family, hobbies and music that goes on for a while"));
        }
        DreamInput input = input().budgetChars(2_000).notes(notes).build();

        Synthesis synthesis = synthesizer.synthesize(input);

        StateDocument state = StateDocument.parse(synthesis.state());
        assertThat(synthesis.state().length()).isLessThanOrEqualTo(2_000);
        assertThat(state.missingSections()).isEmpty();
        assertThat(state.body("The Bond")).contains("number 39", "number 34").doesNotContain("number 0 ");
        assertThat(state.pointers()).isNotEmpty();
        assertThat(guards.judge(input, synthesis.state()).passed()).isTrue();
    }

    @Test
    void should_follow_a_configured_schema_and_lexicon() {
        StateSchema schema = StateSchema.defaults().toBuilder().drop(StateSchema.NICHE)
                .replace(StateSchema.PHENOTYPE, "Product Context", "the product").build();
        OfflineDreamSynthesizer custom = OfflineDreamSynthesizer.builder()
                .lexicon("Product Context", List.of("checkout", "customers")).build();
        DreamInput input = input().schema(schema).notes(List.of(
                States.note(0, 0.7, "The checkout flow serves 3 customers segments"),
                States.note(1, 0.7, "Uses IntelliJ on Ubuntu with Docker"))).build();

        StateDocument state = StateDocument.parse(custom.synthesize(input).state(), schema);

        assertThat(state.sections()).extracting(StateDocument.Section::name).containsExactly("Product Context",
                "The Bond", "Active Context", "Crystal Pointers", "Curiosity Gaps", "Emerging Skills");
        assertThat(state.body("Product Context")).isEqualTo("- The checkout flow serves 3 customers segments");
        assertThat(state.body("Active Context")).isEqualTo("- Uses IntelliJ on Ubuntu with Docker"); // no Niche: fallback
        assertThat(guards.judge(input, custom.synthesize(input).state()).passed()).isTrue();
    }

    @Test
    void should_never_trip_a_guard_over_twenty_dreams() {
        Random random = new Random(13);
        String[] subjects = {"User's partner", "The deadline", "The Postgres cluster", "Assistant", "The sprint goal",
                "The CI pipeline", "Her favorite band", "The API gateway", "The team", "The migration"};
        String[] facts = {"moved to Lisbon", "is due next Friday", "needs a version upgrade", "should answer briefly",
                "fixed the flaky tests", "failed again with an error", "loves jazz", "was decided in the meeting",
                "might need Kafka?", "was completed"};
        StateDocument state = null;
        Instant time = NOW;
        for (int dream = 0; dream < 20; dream++) {
            List<Note> notes = new ArrayList<>();
            List<DreamCrystal> crystals = new ArrayList<>();
            for (int i = 0; i < 5 + random.nextInt(6); i++) {
                Note note = new Note(time.plusSeconds(i), 0.5 + random.nextInt(5) / 10.0, List.of(),
                        subjects[random.nextInt(subjects.length)] + " " + facts[random.nextInt(facts.length)]
                                + " (dream " + dream + ", note " + i + ")");
                notes.add(note);
                crystals.add(new DreamCrystal(note.crystalId(), "note", note.time(), note.importance(), note.text()));
            }
            crystals.add(new DreamCrystal("turns-" + dream, "turn", time, 0.4,
                    "Conversation " + dream + " about " + subjects[random.nextInt(subjects.length)]));
            DreamInput input = DreamInput.builder().time(time).budgetChars(4_000).oldState(state).notes(notes)
                    .crystals(crystals).salience(new SalienceLevels(random.nextDouble(), random.nextDouble(), 0)).build();

            Synthesis synthesis = synthesizer.synthesize(input);

            GuardVerdict verdict = guards.judge(input, synthesis.state());
            assertThat(verdict.passed()).as("dream %d: %s", dream, verdict).isTrue();
            state = verdict.candidate();
            time = time.plus(Duration.ofHours(2));
        }
        assertThat(state.length()).isLessThanOrEqualTo(4_000);
        assertThat(state.pointers()).isNotEmpty().hasSizeLessThanOrEqualTo(12);
    }

    @Test
    void should_reject_bad_configuration() {
        assertThatThrownBy(() -> OfflineDreamSynthesizer.builder().lexicon("Crystal Pointers", List.of("x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OfflineDreamSynthesizer.builder().maxItemChars(5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OfflineDreamSynthesizer.builder().maxPointers(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> synthesizer.synthesize(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_take_the_first_sentence_as_a_topic() {
        assertThat(OfflineDreamSynthesizer.topic("We spent 3 hours debugging a CORS error. Fixed it.")).isEqualTo(
                "We spent 3 hours debugging a CORS error");
        assertThat(OfflineDreamSynthesizer.topic("`a` -> b → c")).isEqualTo("a - b - c");
        assertThat(OfflineDreamSynthesizer.topic("x".repeat(100))).hasSizeLessThanOrEqualTo(60);
        // a first sentence of fewer than two content words says nothing of the subject
        assertThat(OfflineDreamSynthesizer.topic("Hi! I'm Maya. I want help with my thesis.")).isEqualTo(
                "Hi! I'm Maya. I want help with my thesis");
        assertThat(OfflineDreamSynthesizer.topic("Ugh. Thanks.")).isEqualTo("Ugh. Thanks");
    }
}
