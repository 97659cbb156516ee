package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.SpecVersionDetector;
import com.networknt.schema.ValidationMessage;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks a structured scratchpad state: against a JSON Schema (networknt), against a Java class
 * (Jackson must be able to read the state as that class), or not at all.
 *
 * <p>A problem is described with the path of the failing value, like
 * {@code $.completedSteps: string found, array expected}, so that a model can correct its update.
 *
 * <p>Thread-safe: immutable once created (networknt schemas and Jackson mappers are thread-safe).
 */
final class ScratchpadValidator {

    /** The draft used when a schema has no {@code $schema}. */
    static final SpecVersion.VersionFlag DEFAULT_DRAFT = SpecVersion.VersionFlag.V202012;

    private static final int MAX_PROBLEMS_SHOWN = 5;

    private static final ObjectMapper CLASS_MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private static final ScratchpadValidator NONE = new ScratchpadValidator(state -> Optional.empty());

    private final Function<ObjectNode, Optional<String>> check;

    private ScratchpadValidator(Function<ObjectNode, Optional<String>> check) {
        this.check = check;
    }

    /** Accepts every state. */
    static ScratchpadValidator none() {
        return NONE;
    }

    /**
     * Validates against a JSON Schema, draft 2020-12 unless its {@code $schema} names another draft.
     *
     * @throws IllegalArgumentException when {@code schema} is not a valid schema of its draft
     */
    static ScratchpadValidator forSchema(JsonNode schema) {
        SpecVersion.VersionFlag draft = draftOf(schema);
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(draft);
        Set<ValidationMessage> schemaProblems;
        try {
            JsonSchema metaSchema = factory.getSchema(SchemaLocation.of(draft.getId()));
            schemaProblems = metaSchema.validate(schema);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Cannot load the meta-schema of " + draft.getId() + ": " + e.getMessage(), e);
        }
        if (!schemaProblems.isEmpty()) {
            throw new IllegalArgumentException("jsonSchema is not a valid JSON Schema (" + draft.getId() + "): "
                    + describe(schemaProblems));
        }
        JsonSchema compiled;
        try {
            compiled = factory.getSchema(schema.deepCopy());
            compiled.initializeValidators();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("jsonSchema is not a usable JSON Schema: " + e.getMessage(), e);
        }
        return new ScratchpadValidator(state -> {
            Set<ValidationMessage> problems = compiled.validate(state);
            return problems.isEmpty() ? Optional.empty() : Optional.of(describe(problems));
        });
    }

    /**
     * Validates by reading the state as {@code type} with Jackson, failing on unknown properties and on
     * {@code null} (or missing record components) for primitives.
     *
     * @throws IllegalArgumentException when no JSON object can ever be read as {@code type}
     */
    static ScratchpadValidator forClass(Class<?> type) {
        ScratchpadValidator validator = new ScratchpadValidator(state -> {
            try {
                CLASS_MAPPER.treeToValue(state, type);
                return Optional.empty();
            } catch (JsonMappingException e) {
                return Optional.of(pathOf(e) + ": " + firstLine(e.getOriginalMessage()));
            } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
                return Optional.of("$: " + firstLine(e.getMessage()));
            }
        });
        // A failure at the root for an empty object means the class can never be read from an object
        // (no usable constructor, a scalar or collection type, ...); failures below the root are about content.
        try {
            CLASS_MAPPER.treeToValue(JsonNodeFactory.instance.objectNode(), type);
        } catch (JsonMappingException e) {
            if (e.getPath().isEmpty()) {
                throw new IllegalArgumentException("schemaClass " + type.getName()
                        + " cannot be read from a JSON object: " + firstLine(e.getOriginalMessage()), e);
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("schemaClass " + type.getName()
                    + " cannot be read from a JSON object: " + firstLine(e.getMessage()), e);
        }
        return validator;
    }

    /** A description of what is wrong with {@code state}, or empty when it is valid. */
    Optional<String> problem(ObjectNode state) {
        return check.apply(state);
    }

    private static SpecVersion.VersionFlag draftOf(JsonNode schema) {
        JsonNode declared = schema.isObject() ? schema.get("$schema") : null;
        if (declared == null) {
            return DEFAULT_DRAFT;
        }
        if (!declared.isTextual()) {
            throw new IllegalArgumentException("jsonSchema's $schema must be a string, got " + ScratchpadJson.kind(declared));
        }
        Optional<SpecVersion.VersionFlag> draft;
        try {
            draft = SpecVersionDetector.detectOptionalVersion(schema, false);
        } catch (RuntimeException e) {
            draft = Optional.empty();
        }
        return draft.orElseThrow(() -> new IllegalArgumentException(
                "jsonSchema's $schema '" + declared.asText() + "' is not a supported draft (4, 6, 7, 2019-09, 2020-12)"));
    }

    private static String describe(Set<ValidationMessage> problems) {
        List<String> lines = problems.stream()
                .sorted(Comparator.comparing((ValidationMessage m) -> String.valueOf(m.getInstanceLocation()))
                        .thenComparing(ValidationMessage::getMessage))
                .map(ValidationMessage::getMessage)
                .distinct()
                .collect(Collectors.toList());
        String shown = String.join("; ", lines.subList(0, Math.min(lines.size(), MAX_PROBLEMS_SHOWN)));
        return lines.size() > MAX_PROBLEMS_SHOWN
                ? shown + "; and " + (lines.size() - MAX_PROBLEMS_SHOWN) + " more"
                : shown;
    }

    private static String pathOf(JsonMappingException e) {
        StringBuilder path = new StringBuilder("$");
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                path.append('.').append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "invalid value";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
