package dev.workingmemory.scratchpad;

import dev.workingmemory.layer.TestLayerContext;
import dev.workingmemory.testing.TestSchemas;

import java.util.List;

/** Shared configurations and helpers for the scratchpad tests. */
final class ScratchpadFixtures {

    /** The structured example of seed 002 as a JSON Schema. */
    static final String GOAL_SCHEMA = TestSchemas.GOAL_SCHEMA;

    /** The same example as a Java type, for class-based validation. */
    record GoalState(String currentGoal, List<String> completedSteps, List<String> blockers, Integer attempts) {
    }

    private ScratchpadFixtures() {
    }

    static Scratchpad scratchpad(ScratchpadConfig config, TestLayerContext context) {
        return (Scratchpad) Scratchpad.factory(config).create(context);
    }

    static Scratchpad scratchpad(ScratchpadConfig config) {
        return scratchpad(config, new TestLayerContext());
    }

    static ScratchpadConfig goalSchema() {
        return ScratchpadConfig.builder().jsonSchema(GOAL_SCHEMA).build();
    }

    static ScratchpadConfig freeJson() {
        return ScratchpadConfig.builder().json(true).build();
    }
}
