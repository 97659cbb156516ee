package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerScope;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a {@link Scratchpad} behaves: free text or structured JSON (optionally validated by a JSON
 * Schema or a Java class), its scope, template, budget and limits.
 *
 * <pre>{@code
 * ScratchpadConfig config = ScratchpadConfig.builder()
 *         .jsonSchema("""
 *                 {"type": "object",
 *                  "properties": {
 *                    "currentGoal":    {"type": "string"},
 *                    "completedSteps": {"type": "array", "items": {"type": "string"}},
 *                    "blockers":       {"type": "array", "items": {"type": "string"}}}}
 *                 """)
 *         .build();
 * }</pre>
 *
 * <p>Modes: without a schema or a schema class the scratchpad holds free text, unless
 * {@code json(true)} asks for unvalidated JSON. A schema or a schema class implies JSON mode.
 * Contradictory options are rejected by {@link Builder#build()} with an {@link IllegalArgumentException}:
 * both a schema and a schema class, {@code json(false)} with either, an invalid schema, a JSON-mode
 * template that is not a JSON object, holds a prototype key or fails the schema, and a template
 * longer than {@code maxStateChars}.
 *
 * <p>The initial state (the template, or nothing) is not validated when there is no template: an
 * empty scratchpad is always allowed, even when the schema requires properties.
 *
 * <p>Immutable and thread-safe.
 */
public final class ScratchpadConfig {

    /** The default budget in the block: at least 200, at most 1500 characters. */
    public static final LayerBudget DEFAULT_BUDGET = LayerBudget.of(200, 1500);

    /** The default limit of the serialized state: 20 000 characters. */
    public static final int DEFAULT_MAX_STATE_CHARS = 20_000;

    private static final ScratchpadConfig DEFAULTS = builder().build();

    private final LayerScope scope;
    private final JsonNode jsonSchema;
    private final Class<?> schemaClass;
    private final boolean json;
    private final String template;
    private final boolean readOnly;
    private final LayerBudget budget;
    private final int maxStateChars;
    private final ScratchpadValidator validator;
    private final ObjectNode initialJson;
    private final String initialText;

    private ScratchpadConfig(Builder builder) {
        this.scope = builder.scope == null ? LayerScope.THREAD : builder.scope;
        this.budget = builder.budget == null ? DEFAULT_BUDGET : builder.budget;
        this.maxStateChars = builder.maxStateChars == null
                ? DEFAULT_MAX_STATE_CHARS
                : Ensure.positive(builder.maxStateChars, "maxStateChars");
        this.readOnly = builder.readOnly;
        this.schemaClass = builder.schemaClass;
        this.jsonSchema = parseSchema(builder);
        Ensure.that(jsonSchema == null || schemaClass == null,
                "Set either jsonSchema or schemaClass, not both");
        boolean validated = jsonSchema != null || schemaClass != null;
        Ensure.that(!(validated && Boolean.FALSE.equals(builder.json)),
                "json(false) contradicts " + (jsonSchema != null ? "jsonSchema" : "schemaClass")
                        + ": a validated scratchpad is always JSON");
        this.json = validated || Boolean.TRUE.equals(builder.json);
        this.validator = jsonSchema != null ? ScratchpadValidator.forSchema(jsonSchema)
                : schemaClass != null ? ScratchpadValidator.forClass(schemaClass)
                : ScratchpadValidator.none();
        this.template = builder.template;
        if (json) {
            this.initialJson = parseTemplate(template, validator, maxStateChars);
            this.initialText = "";
        } else {
            this.initialJson = null;
            this.initialText = template == null ? "" : template;
            Ensure.that(initialText.length() <= maxStateChars, "template is " + initialText.length()
                    + " characters long, more than maxStateChars (" + maxStateChars + ")");
        }
    }

    /** Free text, thread scope, no template, default budget and limit. */
    public static ScratchpadConfig defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Which memories share the scratchpad; default {@link LayerScope#THREAD}. */
    public LayerScope scope() {
        return scope;
    }

    /** A copy of the JSON Schema, if one is set. */
    public Optional<JsonNode> jsonSchema() {
        return Optional.ofNullable(jsonSchema).map(JsonNode::deepCopy);
    }

    /** The Java class the state is validated against, if one is set. */
    public Optional<Class<?>> schemaClass() {
        return Optional.ofNullable(schemaClass);
    }

    /** Whether the scratchpad holds a JSON object (true with a schema or a schema class) rather than free text. */
    public boolean json() {
        return json;
    }

    /** The initial content, also restored by {@code clear()}, if one is set. */
    public Optional<String> template() {
        return Optional.ofNullable(template);
    }

    /** Whether the scratchpad rejects every write (it still renders and restores); default false. */
    public boolean readOnly() {
        return readOnly;
    }

    /** The scratchpad's share of the block; default {@link #DEFAULT_BUDGET}. */
    public LayerBudget budget() {
        return budget;
    }

    /** The largest state, in characters of text or of compact JSON, an update may produce. */
    public int maxStateChars() {
        return maxStateChars;
    }

    ScratchpadValidator validator() {
        return validator;
    }

    /** A fresh copy of the initial JSON state (the template, or an empty object); JSON mode only. */
    ObjectNode initialJson() {
        return initialJson.deepCopy();
    }

    /** The initial text (the template, or ""); text mode only. */
    String initialText() {
        return initialText;
    }

    private static JsonNode parseSchema(Builder builder) {
        if (builder.jsonSchemaText != null) {
            JsonNode parsed = ScratchpadJson.parseOrNull(builder.jsonSchemaText);
            Ensure.that(parsed != null, "jsonSchema is not valid JSON: "
                    + ScratchpadJson.excerpt(builder.jsonSchemaText));
            return parsed;
        }
        return builder.jsonSchemaNode == null ? null : builder.jsonSchemaNode.deepCopy();
    }

    private static ObjectNode parseTemplate(String template, ScratchpadValidator validator, int maxStateChars) {
        if (template == null) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode parsed = ScratchpadJson.parseOrNull(template);
        Ensure.that(parsed != null && parsed.isObject(), "In JSON mode the template must be a JSON object, got "
                + (parsed == null ? "text that is not JSON" : ScratchpadJson.kind(parsed))
                + ": " + ScratchpadJson.excerpt(template));
        List<String> forbidden = new ArrayList<>();
        JsonMerge.withoutForbiddenKeys(parsed, forbidden);
        Ensure.that(forbidden.isEmpty(), "The template holds forbidden keys: " + forbidden);
        ObjectNode initial = (ObjectNode) parsed;
        validator.problem(initial).ifPresent(problem -> {
            throw new IllegalArgumentException("The template fails the schema: " + problem);
        });
        int size = ScratchpadJson.compact(initial).length();
        Ensure.that(size <= maxStateChars, "The template is " + size
                + " characters long as JSON, more than maxStateChars (" + maxStateChars + ")");
        return initial;
    }

    /**
     * Builds a {@link ScratchpadConfig}. Every option is optional; {@link #build()} checks them together.
     *
     * <p>Not thread-safe.
     */
    public static final class Builder {

        private LayerScope scope;
        private String jsonSchemaText;
        private JsonNode jsonSchemaNode;
        private Class<?> schemaClass;
        private Boolean json;
        private String template;
        private boolean readOnly;
        private LayerBudget budget;
        private Integer maxStateChars;

        private Builder() {
        }

        /** Which memories share the scratchpad. Default {@link LayerScope#THREAD}. */
        public Builder scope(LayerScope scope) {
            this.scope = scope;
            return this;
        }

        /**
         * A JSON Schema every state must pass (draft 2020-12 unless {@code $schema} names another draft).
         * Implies JSON mode. Replaces an earlier {@code jsonSchema}.
         */
        public Builder jsonSchema(String jsonSchema) {
            this.jsonSchemaText = jsonSchema;
            this.jsonSchemaNode = null;
            return this;
        }

        /** Like {@link #jsonSchema(String)}, with the schema as a tree (copied). */
        public Builder jsonSchema(JsonNode jsonSchema) {
            this.jsonSchemaNode = jsonSchema == null ? null : jsonSchema.deepCopy();
            this.jsonSchemaText = null;
            return this;
        }

        /**
         * A class every state must be readable as, by Jackson, failing on unknown properties and on
         * {@code null} for primitives (a missing primitive record component counts as {@code null}: use
         * wrapper types for optional fields). Implies JSON mode.
         */
        public Builder schemaClass(Class<?> schemaClass) {
            this.schemaClass = schemaClass;
            return this;
        }

        /** Structured JSON state without validation. Implied by a schema or a schema class; default free text. */
        public Builder json(boolean json) {
            this.json = json;
            return this;
        }

        /** The initial content, also restored by {@code clear()}; a JSON object in JSON mode. */
        public Builder template(String template) {
            this.template = template;
            return this;
        }

        /** Whether the scratchpad rejects every write; it still renders and restores. Default false. */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /** Budget in the block. Default {@link ScratchpadConfig#DEFAULT_BUDGET}. */
        public Builder budget(LayerBudget budget) {
            this.budget = Ensure.notNull(budget, "budget");
            return this;
        }

        /** Largest state an update may produce. Default {@link ScratchpadConfig#DEFAULT_MAX_STATE_CHARS}. */
        public Builder maxStateChars(int maxStateChars) {
            this.maxStateChars = maxStateChars;
            return this;
        }

        /**
         * @throws IllegalArgumentException on an invalid or contradictory option
         */
        public ScratchpadConfig build() {
            return new ScratchpadConfig(this);
        }
    }
}
