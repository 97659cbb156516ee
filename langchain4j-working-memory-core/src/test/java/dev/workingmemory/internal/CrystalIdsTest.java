package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrystalIdsTest {

    @Test
    void should_name_a_crystal_by_its_prefix_and_a_hash_of_its_scope_and_parts() {
        assertThat(CrystalIds.of("turn", "alice", "default", "1773325800000", "user: hi"))
                .matches("turn-[0-9a-f]{32}")
                .isEqualTo(CrystalIds.of("turn", "alice", "default", "1773325800000", "user: hi"))
                .isNotEqualTo(CrystalIds.of("turn", "bob", "default", "1773325800000", "user: hi"));
    }

    /** Ids made before this class (notes, past turns) hashed {@code scope + "\n" + part + ...}: they stay the same. */
    @Test
    void should_give_notes_and_past_turns_without_backslashes_or_line_breaks_the_ids_they_had() {
        String line = "- [2026-03-12T14:30:00Z] (importance: 0.8) Deadline is March 20th";
        assertThat(CrystalIds.of("note", "alice", line))
                .isEqualTo("note-" + DirectoryNames.sha256Hex("alice\n" + line).substring(0, 32));
        assertThat(CrystalIds.of("turn", "alice", "default", "1773325800000", "[2026-03-12] user: hi"))
                .isEqualTo("turn-" + DirectoryNames.sha256Hex("alice\ndefault\n1773325800000\n[2026-03-12] user: hi")
                        .substring(0, 32));
    }

    /** Scopes and parts that joined by line breaks would read the same: each list gets its own id. */
    @Test
    void should_never_give_two_lists_of_scope_and_parts_one_id() {
        List<List<String>> lists = List.of(
                List.of("a\nb", "c"), List.of("a", "b\nc"), List.of("a\\nb", "c"), List.of("a\\", "nb", "c"),
                List.of("a", "b", "c"), List.of("a\\\nb", "c"), List.of("a", "\\b\nc"), List.of("", "a"),
                List.of("a", ""), List.of("a"), List.of("\uD800", "x"), List.of("\uDBFF", "x"), List.of("a\u0000", "b"),
                List.of("a", "\u0000b"));
        Set<String> ids = new HashSet<>();
        for (List<String> list : lists) {
            ids.add(CrystalIds.of("turn", list.get(0), list.subList(1, list.size()).toArray(String[]::new)));
        }
        assertThat(ids).hasSize(lists.size());
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"Note", "note_x", "note#", "tool output"})
    void should_reject_a_prefix_that_is_not_lower_case_letters_digits_and_dashes(String prefix) {
        assertThatThrownBy(() -> CrystalIds.of(prefix, "alice")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prefix");
    }

    @Test
    void should_reject_a_null_scope_or_part() {
        assertThatThrownBy(() -> CrystalIds.of("note", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CrystalIds.of("note", "alice", (String) null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
