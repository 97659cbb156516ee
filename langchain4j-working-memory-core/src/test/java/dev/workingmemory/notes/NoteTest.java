package dev.workingmemory.notes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NoteTest {

    private static final Instant TIME = Instant.parse("2026-03-12T14:30:00.750Z");

    @Test
    void should_write_the_seed_line_format() {
        assertThat(new Note(TIME, 0.8, List.of(), "User's name is Douglas, prefers tabs over spaces").line())
                .isEqualTo("- [2026-03-12T14:30:00Z] (importance: 0.8) User's name is Douglas, prefers tabs over spaces");
        assertThat(new Note(TIME, 1, List.of("Decision", "personal"), "Use PostgreSQL").line())
                .isEqualTo("- [2026-03-12T14:30:00Z] (importance: 1; tags: decision, personal) Use PostgreSQL");
        assertThat(new Note(TIME, 0.756, List.of(), "x").importanceText()).isEqualTo("0.76");
    }

    @Test
    void should_read_back_what_it_wrote_including_line_breaks_and_backslashes() {
        Note note = new Note(TIME, 0.7, List.of("todo"), "two\nlines with C:\\temp and a \\n literal");

        assertThat(note.line()).doesNotContain("\n");
        assertThat(Note.parse(note.line())).contains(note);
    }

    @Test
    void should_write_every_kind_of_line_break_as_one_and_read_it_back_as_a_line_feed() {
        Note note = new Note(TIME, 0.7, List.of(), "a\u2028b\u2029c\u0085d\re\r\nf");

        assertThat(note.line()).endsWith(") a\\nb\\nc\\nd\\ne\\nf").doesNotContain("\u2028", "\u2029", "\u0085", "\r");
        assertThat(Note.parse(note.line())).hasValueSatisfying(read -> assertThat(read.text()).isEqualTo("a\nb\nc\nd\ne\nf"));
        assertThat(Note.parse("- [2026-03-12T14:30:00Z] (importance: 0.8) written\u2028before")).as("an older line")
                .hasValueSatisfying(read -> assertThat(read.text()).isEqualTo("written\u2028before"));
    }

    @Test
    void should_read_the_seed_examples() {
        assertThat(Note.parse("- [2026-03-12T15:10:00Z] (importance: 0.9) User explicitly asked to never use semicolons in JS"))
                .hasValueSatisfying(note -> {
                    assertThat(note.time()).isEqualTo(Instant.parse("2026-03-12T15:10:00Z"));
                    assertThat(note.importance()).isEqualTo(0.9);
                    assertThat(note.text()).isEqualTo("User explicitly asked to never use semicolons in JS");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "- buy milk", "- [yesterday] (importance: 0.8) x", "- [2026-03-12T14:30:00Z] (importance: 2) x",
            "- [2026-03-12T14:30:00Z] (importance: 0.8)", "# Scratch Buffer", "- [2026-03-12T14:30:00Z] (importance: 0.8; tags: A B) x"})
    void should_not_take_other_lines_for_notes(String line) {
        assertThat(Note.parse(line)).isEmpty();
    }

    @Test
    void should_give_one_crystal_id_per_line() {
        Note a = new Note(TIME, 0.8, List.of(), "a");
        assertThat(a.crystalId()).isEqualTo(new Note(TIME.plusMillis(100), 0.8, List.of(), "a").crystalId())
                .isNotEqualTo(new Note(TIME, 0.8, List.of(), "b").crystalId()).startsWith("note-");
    }

    @Test
    void should_reject_bad_values() {
        assertThatThrownBy(() -> new Note(TIME, 1.5, List.of(), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Note(TIME, Double.NaN, List.of(), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Note(TIME, 0.5, List.of("no spaces"), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Note(TIME, 0.5, List.of(), " ")).isInstanceOf(IllegalArgumentException.class);
    }
}
