package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The scratchpad's Jackson mapper and the few JSON helpers its classes share.
 *
 * <p>Thread-safe (the mapper is configured once and then only used).
 */
final class ScratchpadJson {

    /** Parses strictly: trailing content after the first JSON value is an error. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final int EXCERPT_CHARS = 80;

    private ScratchpadJson() {
    }

    /** Parses {@code text} as one JSON value; {@code null} when it is not valid JSON. */
    static JsonNode parseOrNull(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    static String compact(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize JSON", e);
        }
    }

    static String pretty(JsonNode node) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize JSON", e);
        }
    }

    /** "an object", "an array", "a string", ... for messages. */
    static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case OBJECT, POJO -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case BINARY -> "binary data";
            case MISSING -> "nothing";
        };
    }

    /** {@code text} shortened for an error message. */
    static String excerpt(String text) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= EXCERPT_CHARS ? oneLine : oneLine.substring(0, EXCERPT_CHARS) + "…";
    }
}
