package dev.workingmemory.crystal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.internal.Utf16;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON line of one recorded crystal:
 * {@code {"seq":7,"id":"n-1","scope":"user-42","kind":"note","time":"2026-03-12T14:30:00Z","importance":0.8,
 * "tags":["decision"],"text":"…","source":"…","context":"…"}} ({@code source} and {@code context} only when
 * present). {@code seq} orders the records of a store: a later record of an id replaces an earlier one.
 *
 * <p>Thread-safe (stateless).
 */
final class CrystalRecords {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CrystalRecords() {
    }

    /** A crystal as recorded, with its sequence number. */
    record Stored(long seq, Crystal crystal) {
    }

    /** @return the record as one line of UTF-8 JSON ending with {@code \n} */
    static byte[] line(Stored stored) {
        Crystal crystal = stored.crystal();
        ObjectNode node = JSON.createObjectNode()
                .put("seq", stored.seq())
                .put("id", crystal.id())
                .put("scope", crystal.scope())
                .put("kind", crystal.kind().textName())
                .put("time", crystal.time().toString())
                .put("importance", crystal.importance());
        ArrayNode tags = node.putArray("tags");
        crystal.tags().forEach(tags::add);
        node.put("text", crystal.text());
        if (crystal.source() != null) {
            node.put("source", crystal.source());
        }
        if (crystal.context() != null) {
            node.put("context", crystal.context());
        }
        try {
            byte[] json = JSON.writeValueAsBytes(node); // escapes line breaks, so one record is one line
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            return line;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write crystal " + crystal.id() + " as JSON", e);
        }
    }

    /**
     * @throws IllegalArgumentException when the line is not a valid record
     */
    static Stored parse(byte[] bytes, int offset, int length) {
        JsonNode node;
        try {
            node = JSON.readTree(bytes, offset, length);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        try {
            List<String> tags = new ArrayList<>();
            JsonNode tagNodes = node.path("tags");
            for (JsonNode tag : tagNodes) {
                // a line written before tags were bounded keeps its crystal, its tag cut as the tag is now made
                tags.add(Utf16.prefix(text(tag, "tags[]"), Crystal.MAX_TAG_LENGTH));
            }
            Crystal crystal = new Crystal(
                    text(node.get("id"), "id"),
                    text(node.get("scope"), "scope"),
                    CrystalKind.fromTextName(text(node.get("kind"), "kind")),
                    Instant.parse(text(node.get("time"), "time")),
                    number(node.get("importance"), "importance"),
                    tags,
                    text(node.get("text"), "text"),
                    optionalText(node.get("source"), "source"),
                    optionalText(node.get("context"), "context"));
            JsonNode seq = node.get("seq");
            if (seq == null || !seq.canConvertToLong() || !seq.isIntegralNumber() || seq.asLong() <= 0) {
                throw new IllegalArgumentException("no positive seq");
            }
            return new Stored(seq.asLong(), crystal);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String name) {
        if (node == null || !node.isTextual()) {
            throw new IllegalArgumentException("no text field " + name);
        }
        return node.textValue();
    }

    private static String optionalText(JsonNode node, String name) {
        return node == null || node.isNull() ? null : text(node, name);
    }

    private static double number(JsonNode node, String name) {
        if (node == null || !node.isNumber()) {
            throw new IllegalArgumentException("no number field " + name);
        }
        return node.asDouble();
    }
}
