package dev.workingmemory.crystal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrystalValuesTest {

    private static final Instant T = Instant.parse("2026-03-12T14:30:00Z");

    static Stream<Arguments> badCrystals() {
        return Stream.of(
                Arguments.of("null id", (Supplier<Crystal>) () -> crystal(null, "s", 0.5, "text")),
                Arguments.of("blank id", (Supplier<Crystal>) () -> crystal(" ", "s", 0.5, "text")),
                Arguments.of("long id", (Supplier<Crystal>) () -> crystal("i".repeat(1_001), "s", 0.5, "text")),
                Arguments.of("null scope", (Supplier<Crystal>) () -> crystal("i", null, 0.5, "text")),
                Arguments.of("blank scope", (Supplier<Crystal>) () -> crystal("i", "\t", 0.5, "text")),
                Arguments.of("long scope", (Supplier<Crystal>) () -> crystal("i", "s".repeat(1_001), 0.5, "text")),
                Arguments.of("importance below 0", (Supplier<Crystal>) () -> crystal("i", "s", -0.01, "text")),
                Arguments.of("importance above 1", (Supplier<Crystal>) () -> crystal("i", "s", 1.01, "text")),
                Arguments.of("importance NaN", (Supplier<Crystal>) () -> crystal("i", "s", Double.NaN, "text")),
                Arguments.of("null text", (Supplier<Crystal>) () -> crystal("i", "s", 0.5, null)),
                Arguments.of("blank text", (Supplier<Crystal>) () -> crystal("i", "s", 0.5, "  ")),
                Arguments.of("null kind", (Supplier<Crystal>) () ->
                        new Crystal("i", "s", null, T, 0.5, List.of(), "text", null)),
                Arguments.of("null time", (Supplier<Crystal>) () ->
                        new Crystal("i", "s", CrystalKind.NOTE, null, 0.5, List.of(), "text", null)),
                Arguments.of("null tag", (Supplier<Crystal>) () ->
                        new Crystal("i", "s", CrystalKind.NOTE, T, 0.5, Arrays.asList("a", null), "text", null)),
                Arguments.of("blank index text", (Supplier<Crystal>) () ->
                        new Crystal("i", "s", CrystalKind.NOTE, T, 0.5, List.of(), "text", null, " ")));
    }

    private static Crystal crystal(String id, String scope, double importance, String text) {
        return new Crystal(id, scope, CrystalKind.NOTE, T, importance, List.of(), text, null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCrystals")
    void should_refuse_a_bad_crystal(String what, Supplier<Crystal> crystal) {
        assertThatThrownBy(crystal::get).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_copy_tags_keep_microseconds_and_embed_its_text_without_its_context() {
        List<String> tags = new ArrayList<>(List.of("decision"));
        Crystal crystal = new Crystal("i", "s", CrystalKind.TURN, Instant.parse("2026-03-12T14:30:00.123456789Z"),
                0, tags, "text", null);
        tags.add("later");

        assertThat(crystal.tags()).containsExactly("decision");
        assertThat(crystal.time()).isEqualTo(Instant.parse("2026-03-12T14:30:00.123456Z"));
        assertThat(crystal.textToIndex()).isEqualTo("text");
        assertThat(new Crystal("i", "s", CrystalKind.TURN, T, 1, null, "text", "src", "the next turn").textToIndex())
                .isEqualTo("text");
        assertThat(new Crystal("i", "s", CrystalKind.TURN, T, 1, null, "text", null).tags()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(CrystalKind.class)
    void should_name_each_kind_in_lower_case_and_read_the_name_back(CrystalKind kind) {
        assertThat(kind.textName()).isEqualTo(kind.name().toLowerCase());
        assertThat(CrystalKind.fromTextName(kind.textName())).isEqualTo(kind);
        assertThat(CrystalKind.fromTextName(kind.textName().toUpperCase())).isEqualTo(kind);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "notes", "archived note"})
    void should_refuse_an_unknown_kind_name(String name) {
        assertThatThrownBy(() -> CrystalKind.fromTextName(name))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("archived_note");
    }

    static Stream<Arguments> badQueries() {
        return Stream.of(
                Arguments.of("blank scope", (Supplier<CrystalQuery>) () -> new CrystalQuery(" ", "q", 5)),
                Arguments.of("null text", (Supplier<CrystalQuery>) () -> new CrystalQuery("s", null, 5)),
                Arguments.of("blank text", (Supplier<CrystalQuery>) () -> new CrystalQuery("s", "", 5)),
                Arguments.of("long text", (Supplier<CrystalQuery>) () -> new CrystalQuery("s", "q".repeat(4_001), 5)),
                Arguments.of("limit 0", (Supplier<CrystalQuery>) () -> new CrystalQuery("s", "q", 0)),
                Arguments.of("limit 1001", (Supplier<CrystalQuery>) () -> new CrystalQuery("s", "q", 1_001)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQueries")
    void should_refuse_a_bad_query(String what, Supplier<CrystalQuery> query) {
        assertThatThrownBy(query::get).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_take_no_kinds_as_all_kinds() {
        assertThat(new CrystalQuery("s", "q", 5, null).kinds()).isEmpty();
        assertThat(new CrystalQuery("s", "q", 5, Set.of(CrystalKind.NOTE)).kinds()).containsExactly(CrystalKind.NOTE);
    }

    static Stream<Arguments> badRankings() {
        return Stream.of(
                Arguments.of(-1.0, 1.0, 0.5, 50, 0.3),
                Arguments.of(1.0, Double.NaN, 0.5, 50, 0.3),
                Arguments.of(Double.POSITIVE_INFINITY, 1.0, 0.5, 50, 0.3),
                Arguments.of(0.0, 0.0, 0.5, 50, 0.3),
                Arguments.of(1.0, 1.0, -0.1, 50, 0.3),
                Arguments.of(1.0, 1.0, 1.5, 50, 0.3),
                Arguments.of(1.0, 1.0, 0.5, 0, 0.3),
                Arguments.of(1.0, 1.0, 0.5, 50, -0.1),
                Arguments.of(1.0, 1.0, 0.5, 50, 1.5),
                Arguments.of(1.0, 1.0, 0.5, 50, Double.NaN));
    }

    @ParameterizedTest
    @MethodSource("badRankings")
    void should_refuse_a_bad_ranking(double keywordWeight, double vectorWeight, double contextWeight, int candidates,
                                     double feedbackWeight) {
        assertThatThrownBy(() -> new CrystalRanking(keywordWeight, vectorWeight, contextWeight, candidates,
                feedbackWeight)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_give_a_ranking_made_without_a_feedback_weight_the_default_one() {
        assertThat(new CrystalRanking(1, 1, 0.5, 30)).isEqualTo(CrystalRanking.defaults());
        assertThat(new CrystalRanking(1, 0, 0.5, 30).feedbackWeight()).isEqualTo(CrystalRanking.FEEDBACK_WEIGHT);
    }
}
