package dev.workingmemory.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.workingmemory.internal.Ensure;

import java.time.Instant;

/** Reads the JSON that {@link MessageLogEntry#toJson()} writes. Thread-safe (stateless). */
final class MessageLogJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private MessageLogJson() {
    }

    /**
     * {@code json} with each unpaired surrogate written as a {@code \\uXXXX} escape: it can only stand inside a string,
     * where the escape means the same, and unlike the character itself it survives encoding the text as UTF-8.
     */
    static String escapeLoneSurrogates(String json) {
        StringBuilder escaped = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 == json.length() || !Character.isLowSurrogate(json.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(json.charAt(i - 1)));
            if (lone && escaped == null) {
                escaped = new StringBuilder(json.length() + 12).append(json, 0, i);
            }
            if (escaped != null) {
                if (lone) {
                    escaped.append(String.format("\\u%04X", (int) c));
                } else {
                    escaped.append(c);
                }
            }
        }
        return escaped == null ? json : escaped.toString();
    }

    static MessageLogEntry read(String json) {
        Ensure.notNull(json, "json");
        JsonNode node;
        try {
            node = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Not a message log entry (not JSON): " + e.getOriginalMessage(), e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("Not a message log entry: not a JSON object");
        }
        JsonNode message = node.get("message");
        if (message != null) {
            try {
                return new MessageLogEntry.Added(ChatMessageDeserializer.messageFromJson(message.toString()),
                        Instant.parse(node.path("added").asText()));
            } catch (RuntimeException e) { // DateTimeException, or what LangChain4j's codec throws
                throw new IllegalArgumentException("Not a message log entry: unreadable message or time ("
                        + e.getMessage() + ")", e);
            }
        }
        if (node.path("cleared").asBoolean(false)) {
            return new MessageLogEntry.Cleared();
        }
        JsonNode through = node.get("evictedThrough");
        if (through != null && through.isIntegralNumber() && through.canConvertToLong() && through.asLong() > 0) {
            return new MessageLogEntry.Evicted(through.asLong());
        }
        throw new IllegalArgumentException("Not a message log entry: none of message, cleared, evictedThrough");
    }
}
