package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateSchemaTest {

    @Test
    void should_default_to_the_seven_sections_of_seed_000() {
        StateSchema schema = StateSchema.defaults();

        assertThat(schema.names()).containsExactly("The Phenotype", "The Bond", "The Niche", "Active Context",
                "Crystal Pointers", "Curiosity Gaps", "Emerging Skills");
        assertThat(schema.section("the bond").orElseThrow().weightedBy()).containsExactly(Hormone.OXYTOCIN);
        assertThat(schema.section("Active Context").orElseThrow().weightedBy())
                .containsExactlyInAnyOrder(Hormone.DOPAMINE, Hormone.CORTISOL);
        assertThat(schema.section("The Niche").orElseThrow().weightedBy()).isEmpty();
    }

    @Test
    void should_drop_and_replace_sections_in_place() {
        StateSchema schema = StateSchema.defaults().toBuilder()
                .drop("the niche")
                .replace(StateSchema.PHENOTYPE, "Product Context", "the product the user builds")
                .section("Open Risks", "risks", Hormone.CORTISOL)
                .build();

        assertThat(schema.names()).containsExactly("Product Context", "The Bond", "Active Context",
                "Crystal Pointers", "Curiosity Gaps", "Emerging Skills", "Open Risks");
        assertThat(schema.has("THE NICHE")).isFalse();
        assertThat(StateSchema.defaults().has(StateSchema.NICHE)).isTrue();
        assertThat(schema).isNotEqualTo(StateSchema.defaults());
        assertThat(StateSchema.defaults().toBuilder().build()).isEqualTo(StateSchema.defaults());
    }

    @Test
    void should_keep_crystal_pointers() {
        assertThatThrownBy(() -> StateSchema.defaults().toBuilder().drop(StateSchema.CRYSTAL_POINTERS).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Crystal Pointers");
        assertThatThrownBy(() -> StateSchema.builder().section("Notes", "n").build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_reject_duplicates_and_unknown_sections() {
        StateSchema.Builder builder = StateSchema.defaults().toBuilder();
        assertThatThrownBy(() -> builder.section("the bond", "again")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.drop("Nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("The Phenotype");
        assertThatThrownBy(() -> builder.replace("The Niche", "The Bond", "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(StateSchema.defaults().toBuilder().replace("The Niche", "the niche", "y").build()
                .section("The Niche").orElseThrow().guidance()).isEqualTo("y");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "The Bond (x)", "# Head", "Line\nbreak", "-dash first",
            "a name far too long for a heading of a state document, longer than sixty"})
    void should_reject_bad_section_names(String name) {
        assertThatThrownBy(() -> new StateSchema.Section(name, "g", Set.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
