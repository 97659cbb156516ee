package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static dev.workingmemory.scratchpad.ScratchpadFixtures.GOAL_SCHEMA;
import static dev.workingmemory.scratchpad.ScratchpadFixtures.GoalState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScratchpadConfigTest {

    @Test
    void should_default_to_free_text_in_thread_scope() {
        ScratchpadConfig config = ScratchpadConfig.defaults();

        assertThat(config.scope()).isEqualTo(LayerScope.THREAD);
        assertThat(config.json()).isFalse();
        assertThat(config.readOnly()).isFalse();
        assertThat(config.template()).isEmpty();
        assertThat(config.jsonSchema()).isEmpty();
        assertThat(config.schemaClass()).isEmpty();
        assertThat(config.budget()).isEqualTo(LayerBudget.of(200, 1500));
        assertThat(config.maxStateChars()).isEqualTo(20_000);
    }

    @Test
    void should_imply_json_mode_from_a_schema_or_a_class() {
        assertThat(ScratchpadConfig.builder().jsonSchema(GOAL_SCHEMA).build().json()).isTrue();
        assertThat(ScratchpadConfig.builder().schemaClass(GoalState.class).build().json()).isTrue();
        assertThat(ScratchpadConfig.builder().json(true).build().json()).isTrue();
    }

    @Test
    void should_accept_a_schema_tree_and_an_older_draft() {
        JsonNode tree = ScratchpadJson.parseOrNull("""
                {"$schema": "http://json-schema.org/draft-07/schema#",
                 "type": "object", "properties": {"n": {"type": "integer"}}}
                """);
        ScratchpadConfig config = ScratchpadConfig.builder().jsonSchema(tree).build();
        Scratchpad pad = ScratchpadFixtures.scratchpad(config);

        assertThatThrownBy(() -> pad.update("{\"n\": \"one\"}"))
                .isInstanceOf(ScratchpadUpdateException.class).hasMessageContaining("$.n");
        assertThat(config.jsonSchema()).contains(tree);
    }

    static Stream<Arguments> contradictions() {
        return Stream.of(
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .jsonSchema(GOAL_SCHEMA).schemaClass(GoalState.class), "not both"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .jsonSchema(GOAL_SCHEMA).json(false), "json(false) contradicts jsonSchema"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .schemaClass(GoalState.class).json(false), "json(false) contradicts schemaClass"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .json(true).template("plain text"), "template must be a JSON object"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .json(true).template("[1, 2]"), "template must be a JSON object, got an array"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .json(true).template(""), "template must be a JSON object"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .json(true).template("{\"a\": {\"__proto__\": 1}}"), "forbidden keys"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .jsonSchema(GOAL_SCHEMA).template("{\"completedSteps\": \"x\"}"),
                        "template fails the schema: $.completedSteps"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .schemaClass(GoalState.class).template("{\"attempts\": \"x\"}"),
                        "template fails the schema: $.attempts"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .template("x".repeat(11)).maxStateChars(10), "maxStateChars (10)"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .json(true).template("{\"a\": \"long\"}").maxStateChars(5), "maxStateChars (5)"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .maxStateChars(0), "maxStateChars must be positive"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .schemaClass(NoJsonConstructor.class), "cannot be read from a JSON object"),
                Arguments.of((Supplier<ScratchpadConfig.Builder>) () -> ScratchpadConfig.builder()
                        .schemaClass(String.class), "cannot be read from a JSON object"));
    }

    @ParameterizedTest
    @MethodSource("contradictions")
    void should_reject_contradictory_or_invalid_options_at_build(Supplier<ScratchpadConfig.Builder> builder,
                                                                 String message) {
        ScratchpadConfig.Builder configured = builder.get();

        assertThatThrownBy(configured::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "not json",
            "42",
            "{\"type\": \"objekt\"}",
            "{\"properties\": 5}",
            "{\"type\": \"object\", \"required\": \"currentGoal\"}",
            "{\"$schema\": \"https://example.com/my-draft\", \"type\": \"object\"}",
            "{\"$ref\": \"#/$defs/missing\"}"})
    void should_reject_an_invalid_schema_at_build(String schema) {
        ScratchpadConfig.Builder builder = ScratchpadConfig.builder().jsonSchema(schema);

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jsonSchema");
    }

    @Test
    void should_reject_a_null_budget() {
        assertThatThrownBy(() -> ScratchpadConfig.builder().budget(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget");
    }

    @Test
    void should_not_share_the_schema_tree_with_the_caller() {
        JsonNode tree = ScratchpadJson.parseOrNull(GOAL_SCHEMA);
        ScratchpadConfig config = ScratchpadConfig.builder().jsonSchema(tree).build();

        ((com.fasterxml.jackson.databind.node.ObjectNode) tree).put("type", "array");

        assertThat(config.jsonSchema().orElseThrow().get("type").textValue()).isEqualTo("object");
        Scratchpad pad = ScratchpadFixtures.scratchpad(config);
        pad.update("{\"currentGoal\": \"still an object\"}");
        assertThat(pad.json().get("currentGoal").textValue()).isEqualTo("still an object");
    }

    @Test
    void should_allow_an_empty_initial_state_even_when_the_schema_requires_properties() {
        ScratchpadConfig config = ScratchpadConfig.builder()
                .jsonSchema("{\"type\": \"object\", \"required\": [\"currentGoal\"]}")
                .build();
        Scratchpad pad = ScratchpadFixtures.scratchpad(config);

        assertThat(pad.json()).isEmpty();
        assertThatThrownBy(() -> pad.update("{\"completedSteps\": []}"))
                .isInstanceOf(ScratchpadUpdateException.class)
                .hasMessageContaining("currentGoal");
        pad.update("{\"currentGoal\": \"Deploy\"}");
        assertThat(pad.json().get("currentGoal").textValue()).isEqualTo("Deploy");
    }

    @Test
    void should_keep_budget_scope_and_template() {
        ScratchpadConfig config = ScratchpadConfig.builder()
                .scope(LayerScope.RESOURCE)
                .budget(LayerBudget.of(0, 400))
                .template("t")
                .readOnly(true)
                .maxStateChars(100)
                .build();

        assertThat(config.scope()).isEqualTo(LayerScope.RESOURCE);
        assertThat(config.budget()).isEqualTo(LayerBudget.of(0, 400));
        assertThat(config.template()).contains("t");
        assertThat(config.readOnly()).isTrue();
        assertThat(config.maxStateChars()).isEqualTo(100);
        assertThat(List.of(config.json())).containsExactly(false);
    }

    /** A class Jackson cannot create. */
    static final class NoJsonConstructor {
        private NoJsonConstructor(int value) {
        }
    }
}
