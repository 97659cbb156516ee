package dev.workingmemory.dream;

import dev.workingmemory.notes.Note;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DreamInputTest {

    @Test
    void should_take_the_oldest_notes_and_defer_the_rest_unchanged() {
        List<Note> notes = new ArrayList<>();
        for (int i = 60; i > 0; i--) { // newest first, as a log might be read
            notes.add(States.note(i, 0.7, "note " + i + " " + "x".repeat(i == 1 ? 3_000 : 10)));
        }
        DreamInput input = DreamInput.builder().notes(notes).build();

        assertThat(input.consumedNotes()).hasSize(50);
        assertThat(input.consumedNotes().get(0).text()).startsWith("note 1 ").hasSize(3_007); // unchanged
        assertThat(input.consumedNotes().get(49).text()).startsWith("note 50 ");
        assertThat(input.deferredNotes()).isEqualTo(10);
        assertThat(input.notes()).hasSize(50);
        assertThat(input.notes().get(0).text()).hasSizeLessThanOrEqualTo(1_000).endsWith("…");
        assertThat(input.notes().get(1)).isEqualTo(input.consumedNotes().get(1));
    }

    @Test
    void should_take_the_most_important_then_newest_crystals_once_each() {
        List<DreamCrystal> crystals = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            crystals.add(new DreamCrystal("c" + i, "note", States.T0.plusSeconds(i), i % 2 == 0 ? 0.9 : 0.3,
                    "text " + i + " " + "y".repeat(1_000)));
        }
        crystals.add(new DreamCrystal("c38", "note", States.T0, 1, "a duplicate id"));
        DreamInput input = DreamInput.builder().crystals(crystals)
                .limits(DreamInputLimits.builder().maxCrystals(5).maxCrystalChars(100).build()).build();

        assertThat(input.crystals()).extracting(DreamCrystal::id).containsExactly("c38", "c36", "c34", "c32", "c30");
        assertThat(input.crystals().get(0).text()).isEqualTo("a duplicate id");
        assertThat(input.crystals().get(1).text()).hasSizeLessThanOrEqualTo(100);
    }

    @Test
    void should_cap_entities_and_slot_items() {
        DreamInput input = DreamInput.builder()
                .entities(Arrays.asList("\"About Us\" (page-123)", " ", null, "e2\nsecond line", "e3"))
                .slotItems(List.of("goal: " + "z".repeat(500)))
                .limits(DreamInputLimits.builder().maxEntities(2).build()).build();

        assertThat(input.entities()).containsExactly("\"About Us\" (page-123)", "e2 second line");
        assertThat(input.slotItems()).singleElement().asString().hasSizeLessThanOrEqualTo(200);
    }

    @Test
    void should_cut_a_huge_old_state_and_read_it_in_the_input_schema() {
        StateDocument huge = States.full(200);
        DreamInput input = DreamInput.builder().oldState(huge).build();

        assertThat(input.oldState()).hasValueSatisfying(state -> {
            assertThat(state.length()).isLessThanOrEqualTo(16_000);
            assertThat(state.render()).doesNotContain(StateBudget.TRUNCATION_MARKER);
        });
        StateSchema noNiche = StateSchema.defaults().toBuilder().drop(StateSchema.NICHE).build();
        DreamInput other = DreamInput.builder().schema(noNiche).oldState(States.full(1)).build();
        assertThat(other.oldState().orElseThrow().schema()).isEqualTo(noNiche);
        assertThat(DreamInput.builder().oldState(States.full(1)).build().oldState()).contains(States.full(1));
    }

    @Test
    void should_stay_flat_as_the_history_grows() {
        int small = input(10).sizeChars();
        int large = input(100).sizeChars();
        int huge = input(1_000).sizeChars();

        assertThat((double) large).isCloseTo(huge, org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(large).isLessThan(2 * small);
        assertThat((long) huge).isLessThanOrEqualTo(DreamInputLimits.defaults().maxInputChars());
    }

    /** The input of a dream after {@code sessions} sessions, each leaving five notes and ten crystals. */
    private static DreamInput input(int sessions) {
        List<Note> notes = new ArrayList<>();
        List<DreamCrystal> crystals = new ArrayList<>();
        List<String> entities = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            for (int i = 0; i < 5; i++) {
                notes.add(States.note(s * 10 + i, 0.7, "Session " + s + " note " + i + " " + "w".repeat(400), "decision"));
            }
            for (int i = 0; i < 10; i++) {
                crystals.add(new DreamCrystal("s" + s + "c" + i, "turn", States.T0.plusSeconds(s * 100L + i), 0.5,
                        "Turn " + i + " of session " + s + " " + "v".repeat(2_000)));
            }
            entities.add("entity of session " + s);
        }
        return DreamInput.builder().oldState(States.full(3)).notes(notes).crystals(crystals).entities(entities)
                .salience(new SalienceLevels(0.5, 0.2, 0.1)).time(Instant.parse("2026-04-01T00:00:00Z")).build();
    }

    @Test
    void should_reject_bad_arguments() {
        assertThatThrownBy(() -> DreamInput.builder().budgetChars(100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DreamInput.builder().notes(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DreamInputLimits.builder().maxNotes(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DreamInputLimits.builder().maxNoteChars(5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DreamCrystal(" ", "k", Instant.EPOCH, 0.5, "t"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DreamCrystal("i", "k", Instant.EPOCH, 1.5, "t"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
