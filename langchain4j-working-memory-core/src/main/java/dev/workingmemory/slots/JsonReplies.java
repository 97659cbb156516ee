package dev.workingmemory.slots;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Tool results that are JSON: the error an API replied with ({@code {"error": {"code": 401, "message": …}}},
 * {@code {"status": 500, "error": "Internal Server Error"}}, GraphQL's {@code errors}), and nothing from the text of
 * other fields (an issue titled "NullPointerException in checkout" is data, not an error of this session).
 * Thread-safe (stateless).
 */
final class JsonReplies {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> PROBLEM_FIELDS = Set.of("type", "title", "status", "detail", "instance", "code");
    /** The top-level fields that {@link #find} and {@link Dependencies} read; JSON without any is not mined. */
    private static final Set<String> MINED_FIELDS = Set.of("error", "errors", "status", "statusCode", "code", "detail",
            "title", "message", "dependencies", "devDependencies", "peerDependencies");
    /** Larger JSON is not parsed. */
    static final int MAX_JSON_CHARS = 2_000_000;

    private JsonReplies() {
    }

    /** The text parsed as JSON, or {@code null} when it is not a JSON object or array. */
    static JsonNode parse(String text) {
        String trimmed = text.strip();
        if (trimmed.length() < 2 || trimmed.length() > MAX_JSON_CHARS) {
            return null;
        }
        char first = trimmed.charAt(0);
        char last = trimmed.charAt(trimmed.length() - 1);
        if (!(first == '{' && last == '}' || first == '[' && last == ']')) {
            return null;
        }
        try {
            return hasMinedField(trimmed) ? JSON.readTree(trimmed) : JsonNodeFactory.instance.objectNode();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether the JSON object has a top-level field that {@link #find} or a {@code package.json} reading looks at.
     * Streams over the text (so that it is still checked to be JSON) without building a tree: most results (a
     * page, a list of records) have none, and the tree is built only for the others.
     *
     * @throws IOException when the text is not JSON
     */
    private static boolean hasMinedField(String json) throws IOException {
        boolean mined = false;
        try (JsonParser parser = JSON.getFactory().createParser(json)) {
            JsonToken token = parser.nextToken();
            boolean object = token == JsonToken.START_OBJECT;
            while ((token = parser.nextToken()) != null) {
                if (object && token == JsonToken.FIELD_NAME && parser.getParsingContext().getParent().inRoot()) {
                    mined |= MINED_FIELDS.contains(parser.currentName());
                } else if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                    parser.skipChildren();
                }
            }
        }
        return mined;
    }

    static void find(JsonNode json, Found found) {
        if (!json.isObject()) {
            return;
        }
        JsonNode error = json.get("error");
        String status = firstText(json, "status", "statusCode", "code");
        if (error != null && error.isObject()) {
            found.add(Found.ERROR, join(firstText(error, "code", "status", "statusCode"),
                    firstText(error, "status", "type", "name"), firstText(error, "message", "description", "detail"), null));
        } else if (error != null && error.isTextual() && !error.asText().isBlank()) {
            found.add(Found.ERROR, join(status, error.asText(), firstText(json, "message", "error_description", "detail"),
                    firstText(json, "path")));
        } else if (isHttpError(json.get("status")) || isHttpError(json.get("statusCode"))) {
            String message = firstText(json, "message", "detail", "title");
            if (message != null) {
                found.add(Found.ERROR, join(status, firstText(json, "title", "reason"), message, firstText(json, "path", "instance")));
            }
        } else if (isProblemDetails(json)) {
            JsonNode detail = json.get("detail");
            String message = detail != null && detail.isArray() && detail.size() > 0
                    ? firstText(detail.get(0), "msg", "message") : firstText(json, "detail");
            found.add(Found.ERROR, join(status, firstText(json, "title"), message, null));
        } else if (json.path("errors").isArray() && !json.path("errors").isEmpty() && json.path("data").isNull()) {
            JsonNode first = json.path("errors").get(0);
            String message = first.isObject() ? firstText(first, "message") : null;
            if (message != null) {
                found.add(Found.ERROR, "GraphQL error: " + message);
            }
        }
    }

    /**
     * An RFC 7807 problem ({@code type}, {@code title}, {@code status}, {@code detail}, {@code instance}) or the
     * {@code {"detail": …}} that FastAPI answers errors with: only those fields, a detail or title among them.
     */
    private static boolean isProblemDetails(JsonNode json) {
        if (!json.has("detail") && !json.has("title")) {
            return false;
        }
        for (Iterator<String> it = json.fieldNames(); it.hasNext(); ) {
            if (!PROBLEM_FIELDS.contains(it.next())) {
                return false;
            }
        }
        return true;
    }

    /** A status of 4xx or 5xx, as a number or as text ({@code "404"}, as GitHub sends it). */
    private static boolean isHttpError(JsonNode status) {
        if (status == null || !(status.canConvertToInt() || status.isTextual() && status.asText().matches("\\d{3}"))) {
            return false;
        }
        int code = status.asInt();
        return code >= 400 && code < 600;
    }

    /** The first of the fields that holds a non-blank scalar, as text. */
    private static String firstText(JsonNode node, String... fields) {
        for (String field : fields) {
            JsonNode value = node.get(field);
            if (value != null && value.isValueNode() && !value.isNull() && !value.asText().isBlank()) {
                return value.asText().strip();
            }
        }
        return null;
    }

    /** {@code 401 UNAUTHENTICATED: Invalid API key (path)}, leaving out what is missing or repeated. */
    private static String join(String code, String name, String message, String where) {
        List<String> head = new ArrayList<>(2);
        if (code != null) {
            head.add(code);
        }
        if (name != null && !name.equals(code)) {
            head.add(name);
        }
        StringBuilder out = new StringBuilder(String.join(" ", head));
        if (message != null && !message.equals(name)) {
            out.append(out.length() == 0 ? "" : ": ").append(message);
        }
        if (where != null) {
            out.append(" (").append(where).append(')');
        }
        return out.length() == 0 ? null : out.toString();
    }
}
