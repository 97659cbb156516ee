package dev.workingmemory.testing;

/**
 * JSON Schemas shared by the tests of several modules.
 */
public final class TestSchemas {

    /** Seed 002's structured scratchpad as a JSON Schema (no required keys, so partial updates stay legal). */
    public static final String GOAL_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "currentGoal":    {"type": "string"},
                "completedSteps": {"type": "array", "items": {"type": "string"}},
                "blockers":       {"type": "array", "items": {"type": "string"}},
                "plan":           {"type": "object"}
              },
              "additionalProperties": false
            }
            """;

    private TestSchemas() {
    }
}
