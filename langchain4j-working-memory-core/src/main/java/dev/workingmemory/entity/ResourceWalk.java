package dev.workingmemory.entity;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One bounded depth-first walk over the token stream of a tool result, collecting the resources it holds as
 * {@link Entity entities}. The rules are documented on {@link JsonEntityExtractor}.
 *
 * <p>The walk reads the JSON once with a streaming {@link JsonParser} and builds no tree: only the values of id and
 * name keys become strings, everything else is skipped by the tokenizer. Because an object is known to be a resource
 * only at its end, the entities found inside it are provisional and dropped if it turns out to be one (a resource is
 * a leaf); the result is the same as a pre-order walk over the tree.
 *
 * <p>Not thread-safe: create one per result.
 */
final class ResourceWalk {

    /** How many nodes (containers, array elements and object fields) one walk examines at most. */
    static final int MAX_NODES = 10_000;
    /** Longer id values are not taken as ids. */
    static final int MAX_ID_LENGTH = 256;
    /** Longer names are cut to this many characters, ending with an ellipsis. */
    static final int MAX_NAME_LENGTH = 256;

    /** Keys that only wrap what they hold: what they hold is typed by the key above them (or the tool). */
    static final Set<String> WRAPPER_KEYS = Set.of(
            "data", "result", "results", "items", "item", "matches", "match", "hits", "records", "record",
            "rows", "row", "content", "contents", "payload", "response", "body", "value", "values", "list",
            "nodes", "node", "edges", "objects", "object", "output", "resource", "resources", "elements");

    /** Keys whose values are bookkeeping, never resources: they are not walked into. */
    static final Set<String> IGNORED_KEYS = Set.of(
            "meta", "metadata", "_meta", "pagination", "paging", "pageinfo", "page_info", "links", "_links",
            "error", "errors", "debug", "headers", "request", "usage");

    /** Prefixes of {@code *_id} keys that never identify an entity ({@code request_id}, {@code parentId}, ...). */
    static final Set<String> IGNORED_ID_PREFIXES = Set.of(
            "request", "trace", "span", "correlation", "session", "tenant", "parent", "cursor",
            "next", "prev", "previous");

    private final EntityTypeNames typeNames;
    private final String toolType;
    private final int maxPerList;
    private final int maxDepth;
    private final int maxEntities;
    private final List<Entity> found;
    private int remaining = MAX_NODES;

    private String lastContext;
    private String lastContextType;
    private boolean lastContextResolved;

    ResourceWalk(EntityTypeNames typeNames, String toolType, int maxPerList, int maxDepth, int maxEntities) {
        this.typeNames = typeNames;
        this.toolType = toolType;
        this.maxPerList = maxPerList;
        this.maxDepth = maxDepth;
        this.maxEntities = maxEntities;
        this.found = new ArrayList<>(Math.min(maxEntities, 16));
    }

    /**
     * Reads the whole document from {@code parser} (positioned before its first token).
     *
     * @return the entities in document order, or an empty list when the document is not exactly one JSON
     * object or array
     * @throws IOException when the JSON is malformed or breaks the parser's constraints
     */
    List<Entity> run(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == JsonToken.START_OBJECT) {
            readObject(parser, null, 1);
        } else if (first == JsonToken.START_ARRAY) {
            readArray(parser, null, 1);
        } else {
            return List.of();
        }
        if (parser.nextToken() != null) {
            return List.of(); // trailing content: not one JSON value
        }
        return found;
    }

    /** Whether containers are no longer entered (enough found, or the node budget spent). */
    private boolean saturated() {
        return remaining <= 0 || found.size() >= maxEntities;
    }

    private void readContainer(JsonParser parser, JsonToken start, String context, int depth) throws IOException {
        if (depth > maxDepth || saturated()) {
            parser.skipChildren();
        } else if (start == JsonToken.START_OBJECT) {
            readObject(parser, context, depth);
        } else {
            readArray(parser, context, depth);
        }
    }

    /** Reads an array up to its end; only the first {@code maxPerList} elements are examined. */
    private void readArray(JsonParser parser, String context, int depth) throws IOException {
        remaining--;
        int index = 0;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token == null) {
                throw new IOException("unexpected end of input in array");
            }
            if (token.isStructStart()) {
                if (index < maxPerList) {
                    remaining--;
                    readContainer(parser, token, context, depth + 1);
                } else {
                    parser.skipChildren();
                }
            }
            index++;
        }
    }

    /**
     * Reads an object up to its end: walks its containers (their entities are provisional), notes its id and name
     * candidates, and at the end adds it as an entity if it is a resource.
     */
    private void readObject(JsonParser parser, String context, int depth) throws IOException {
        remaining--;
        String type = typeOfContext(context);
        int mark = found.size();

        String id = null;
        String uuid = null;
        String key = null;
        String typedId = null;
        String otherId = null;
        String otherIdKey = null;
        int otherIdSuffix = 0;
        String title = null;
        String name = null;
        String heading = null;
        String typedName = null;
        String otherName = null;
        String slug = null;
        String filename = null;
        String label = null;

        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            token = parser.nextToken();
            if (token == null) {
                break;
            }
            if (token.isStructStart()) {
                String lower = field.toLowerCase(Locale.ROOT);
                if (IGNORED_KEYS.contains(lower)) {
                    parser.skipChildren();
                } else {
                    readContainer(parser, token, WRAPPER_KEYS.contains(lower) ? context : field, depth + 1);
                }
                continue;
            }
            if (--remaining < 0 || field.isEmpty()) {
                continue;
            }
            switch (field) {
                case "id", "ID", "Id" -> id = id != null ? id : idText(parser, token);
                case "uuid" -> uuid = uuid != null ? uuid : idText(parser, token);
                case "key" -> key = key != null ? key : idText(parser, token);
                case "title" -> title = title != null ? title : nameText(parser, token);
                case "name" -> name = name != null ? name : nameText(parser, token);
                case "heading" -> heading = heading != null ? heading : nameText(parser, token);
                case "slug" -> slug = slug != null ? slug : nameText(parser, token);
                case "filename" -> filename = filename != null ? filename : nameText(parser, token);
                case "label" -> label = label != null ? label : nameText(parser, token);
                default -> {
                    char last = field.charAt(field.length() - 1);
                    if (last == 'd' || last == 'D') {
                        int idSuffix = idSuffixLength(field);
                        if (idSuffix > 0) {
                            if (type != null && hasPrefix(field, idSuffix, type)) {
                                typedId = typedId != null ? typedId : idText(parser, token);
                            } else if (otherId == null && !IGNORED_ID_PREFIXES.contains(
                                    field.substring(0, field.length() - idSuffix).toLowerCase(Locale.ROOT))) {
                                otherId = idText(parser, token);
                                if (otherId != null) {
                                    otherIdKey = field;
                                    otherIdSuffix = idSuffix;
                                }
                            }
                        }
                    } else if (last == 'e' && token == JsonToken.VALUE_STRING) {
                        int nameSuffix = nameSuffixLength(field);
                        if (nameSuffix > 0) {
                            if (type != null && hasPrefix(field, nameSuffix, type)) {
                                typedName = typedName != null ? typedName : nameText(parser, token);
                            } else {
                                otherName = otherName != null ? otherName : nameText(parser, token);
                            }
                        }
                    }
                }
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("unexpected " + token + " in object");
        }

        String entityId;
        String entityType = type;
        if (type == null) {
            // Without a type only a prefixed id key (event_id) can name one, and only if nothing else is the id.
            if (id != null || uuid != null || otherId == null) {
                return;
            }
            entityId = otherId;
            entityType = typeOfIdPrefix(otherIdKey, otherIdSuffix);
        } else if (id != null) {
            entityId = id;
        } else if (uuid != null) {
            entityId = uuid;
        } else if (typedId != null) {
            entityId = typedId;
        } else if (otherId != null) {
            entityId = otherId;
            entityType = typeOfIdPrefix(otherIdKey, otherIdSuffix);
        } else {
            entityId = key;
        }
        if (entityId == null || entityType == null) {
            return;
        }
        String entityName = title != null ? title
                : name != null ? name
                : heading != null ? heading
                : typedName != null ? typedName
                : otherName != null ? otherName
                : slug != null ? slug
                : filename != null ? filename
                : label;
        // A resource is a leaf: what was found inside it belongs to it.
        while (found.size() > mark) {
            found.remove(found.size() - 1);
        }
        add(new Entity(entityId, entityName, entityType));
    }

    private void add(Entity entity) {
        if (found.size() >= maxEntities) {
            return;
        }
        for (Entity existing : found) {
            if (existing.id().equals(entity.id())) {
                return;
            }
        }
        found.add(entity);
    }

    /**
     * The type of a resource held (directly or through wrapper keys) by {@code context}: a known type the key
     * names wins, then the tool's type, then a type made from the key itself.
     */
    private String typeOfContext(String context) {
        if (lastContextResolved && context == lastContext) {
            return lastContextType;
        }
        String type = null;
        if (context != null) {
            type = typeNames.knownTypeOfKey(context);
        }
        if (type == null) {
            type = toolType;
        }
        if (type == null && context != null) {
            type = EntityTypeNames.typeOfKey(context);
        }
        lastContext = context;
        lastContextType = type;
        lastContextResolved = true;
        return type;
    }

    private String typeOfIdPrefix(String key, int suffix) {
        String prefix = key.substring(0, key.length() - suffix);
        String known = typeNames.knownTypeOfKey(prefix);
        return known != null ? known : EntityTypeNames.typeOfKey(prefix);
    }

    /** 3 for {@code page_id}, 2 for {@code pageId} / {@code pageID}, 0 if the key is not a prefixed id key. */
    static int idSuffixLength(String key) {
        int n = key.length();
        if (n > 3 && key.endsWith("_id")) {
            return 3;
        }
        if (n > 2 && (key.endsWith("Id") || key.endsWith("ID")) && Character.isLowerCase(key.charAt(n - 3))) {
            return 2;
        }
        return 0;
    }

    /** 5 for {@code page_name}, 4 for {@code pageName}, 0 otherwise. */
    static int nameSuffixLength(String key) {
        int n = key.length();
        if (n > 5 && key.endsWith("_name")) {
            return 5;
        }
        if (n > 4 && key.endsWith("Name") && Character.isLowerCase(key.charAt(n - 5))) {
            return 4;
        }
        return 0;
    }

    /** Whether {@code key} minus its suffix is {@code type}, ignoring case ({@code pageId} for page). */
    private static boolean hasPrefix(String key, int suffix, String type) {
        return key.length() - suffix == type.length() && key.regionMatches(true, 0, type, 0, type.length());
    }

    /**
     * The id the current value stands for: a string of at most {@link #MAX_ID_LENGTH} chars, not blank once
     * stripped, or an integer (its literal text); otherwise {@code null}.
     */
    private static String idText(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            if (parser.getTextLength() > MAX_ID_LENGTH) {
                return null;
            }
            String text = parser.getText().strip();
            return text.isEmpty() ? null : text;
        }
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return parser.getTextLength() > MAX_ID_LENGTH ? null : parser.getText();
        }
        return null;
    }

    /**
     * The name the current value stands for: a string that is not blank, cut to {@link #MAX_NAME_LENGTH} chars
     * (ending with an ellipsis) without copying the rest; otherwise {@code null}.
     */
    private static String nameText(JsonParser parser, JsonToken token) throws IOException {
        if (token != JsonToken.VALUE_STRING) {
            return null;
        }
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int length = parser.getTextLength();
        boolean blank = true;
        for (int i = offset, end = offset + length; i < end; i++) {
            if (!Character.isWhitespace(chars[i])) {
                blank = false;
                break;
            }
        }
        if (blank) {
            return null;
        }
        if (length <= MAX_NAME_LENGTH) {
            return new String(chars, offset, length);
        }
        int cut = MAX_NAME_LENGTH - 1;
        if (Character.isHighSurrogate(chars[offset + cut - 1])) {
            cut--;
        }
        return new String(chars, offset, cut) + "…";
    }
}
