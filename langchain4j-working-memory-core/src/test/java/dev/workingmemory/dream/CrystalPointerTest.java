package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrystalPointerTest {

    private static final CrystalPointer CORS = new CrystalPointer("P2P bridge CORS debugging", "CORS P2P EigenTrust");

    @Test
    void should_write_the_seed_line() {
        assertThat(CORS.line()).isEqualTo("- Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`");
        assertThat(CORS.keywordList()).containsExactly("CORS", "P2P", "EigenTrust");
        assertThat(CrystalPointer.parse(CORS.line())).contains(CORS);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "- Past: P2P bridge CORS debugging -> search: `CORS P2P EigenTrust`",
            "* Past: P2P bridge CORS debugging => search: \"CORS P2P EigenTrust\"",
            "  + past:   P2P bridge CORS debugging  →  SEARCH:  CORS P2P EigenTrust   ",
            "- **Past:** P2P bridge CORS debugging → **search:** `CORS P2P EigenTrust` (fixed in March)",
            "- P2P bridge CORS debugging → search: `CORS P2P EigenTrust`",
            "Past: P2P bridge CORS debugging → search: 'CORS P2P EigenTrust'"})
    void should_read_what_models_write(String line) {
        assertThat(CrystalPointer.parse(line)).contains(CORS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "- Past: topic", "- Past: → search: `k`", "- Past: t → search: ``", "- a note",
            "- TypeScript refactoring → Confidence: 85% | Occurrences: 7", "- Past: a → search: `k`\n- b"})
    void should_not_take_other_lines_for_pointers(String line) {
        assertThat(CrystalPointer.parse(line)).isEmpty();
    }

    @Test
    void should_keep_a_pointer_on_one_line() {
        CrystalPointer pointer = new CrystalPointer(" multi\nline  topic ", "`a`\n b");

        assertThat(pointer.topic()).isEqualTo("multi line topic");
        assertThat(pointer.keywords()).isEqualTo("a b");
        assertThatThrownBy(() -> new CrystalPointer(" ", "k")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CrystalPointer("t", "``")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CrystalPointer(null, "k")).isInstanceOf(IllegalArgumentException.class);
    }
}
