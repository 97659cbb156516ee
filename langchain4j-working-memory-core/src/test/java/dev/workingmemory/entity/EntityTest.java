package dev.workingmemory.entity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EntityTest {

    @Test
    void should_derive_the_id_of_an_entity_without_one_from_type_and_name() {
        Entity entity = Entity.withoutId(" Sushi \t Ran ", "restaurant");

        assertThat(entity).isEqualTo(new Entity("restaurant:sushi ran", " Sushi \t Ran ", "restaurant"));
        assertThat(entity.hasDerivedId()).isTrue();
        assertThat(Entity.withoutId("SUSHI RAN", "restaurant").id()).isEqualTo(entity.id());
        assertThat(Entity.withoutId("Sushi Ran", "hotel").id()).isNotEqualTo(entity.id());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "page-123            | About Us  | page       | false",
            "restaurant:sushi ran | Sushi Ran | restaurant | true",
            "restaurant:sushi ran | Ebisu     | restaurant | false",
            "restaurant:sushi ran | Sushi Ran | hotel      | false",
            "restaurant:          | Sushi Ran | restaurant | false",
            "page:home            | Home      | page       | true",
            "page-1               |           | page       | false"
    })
    void should_tell_derived_ids_by_their_form(String id, String name, String type, boolean derived) {
        assertThat(new Entity(id, name, type).hasDerivedId()).isEqualTo(derived);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\t\n"})
    void should_reject_a_blank_name_or_type_for_an_entity_without_id(String blank) {
        assertThatThrownBy(() -> Entity.withoutId(blank, "restaurant")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Entity.withoutId("Sushi Ran", blank)).isInstanceOf(IllegalArgumentException.class);
    }
}
