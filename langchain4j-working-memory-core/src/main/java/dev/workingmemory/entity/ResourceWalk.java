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
 * <p>The walk reads the JSON once with a streaming {@link JsonParser} and builds no tree: only id values and names
 * better than the best so far become strings, everything else is skipped by the tokenizer. An object is sure to be a
 * resource once it has a type and an id no later key can displace, often only at its end: the entities found in its
 * containers before that are provisional and dropped if it turns out to be one (a resource is a leaf), its containers
 * after that are skipped without being examined. The entities are those a pre-order walk over the tree finds.
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

    /** Prefixes of {@code *_id} keys that never identify an entity ({@code request_id}, {@code parentId}, ...). */
    static final Set<String> IGNORED_ID_PREFIXES = Set.of(
            "request", "trace", "span", "correlation", "session", "tenant", "parent", "cursor",
            "next", "prev", "previous");

    /** Ranks of the name keys, best first. */
    private static final int TITLE = 0;
    private static final int NAME = 1;
    private static final int HEADING = 2;
    private static final int TYPED_NAME = 3;
    private static final int OTHER_NAME = 4;
    private static final int SLUG = 5;
    private static final int FILENAME = 6;
    private static final int LABEL = 7;
    private static final int NO_NAME = 8;

    private final ContainerKeys keys;
    private final String toolType;
    private final int maxPerList;
    private final int maxDepth;
    private final int maxEntities;
    private final List<Entity> found;
    private int remaining = MAX_NODES;

    ResourceWalk(ContainerKeys keys, String toolType, int maxPerList, int maxDepth, int maxEntities) {
        this.keys = keys;
        this.toolType = toolType;
        this.maxPerList = maxPerList;
        this.maxDepth = maxDepth;
        this.maxEntities = maxEntities;
        this.found = new ArrayList<>(Math.min(maxEntities, 4)); // most results hold one to three
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

    private void readContainer(JsonParser parser, JsonToken start, ContainerKeys.Key context, int depth)
            throws IOException {
        if (depth > maxDepth || saturated()) {
            parser.skipChildren();
        } else if (start == JsonToken.START_OBJECT) {
            readObject(parser, context, depth);
        } else {
            readArray(parser, context, depth);
        }
    }

    /** Reads an array up to its end; only the first {@code maxPerList} elements are examined. */
    private void readArray(JsonParser parser, ContainerKeys.Key context, int depth) throws IOException {
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
     * candidates, and at the end adds it as an entity if it is a resource. Once the object is sure to be a resource
     * (it has a type and an id no later key can displace), its remaining containers are skipped: a resource is a
     * leaf, so nothing found in them would be kept.
     */
    private void readObject(JsonParser parser, ContainerKeys.Key context, int depth) throws IOException {
        remaining--;
        String type = typeOfContext(context);
        int mark = found.size();

        String id = null;
        String uuid = null;
        String typedId = null;
        String otherId = null;
        String otherIdKey = null;
        int otherIdSuffix = 0;
        String key = null;
        // Only the best name so far is kept: a name key of a worse rank is not even read.
        String name = null;
        int nameRank = NO_NAME;
        boolean leaf = false;

        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            token = parser.nextToken();
            if (token == null) {
                break;
            }
            if (token.isStructStart()) {
                if (leaf) {
                    parser.skipChildren();
                } else {
                    readField(parser, token, field, context, depth);
                }
                continue;
            }
            // Ids and names are strings or integers; other scalars only count as examined nodes.
            if (--remaining < 0 || field.isEmpty()
                    || (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_NUMBER_INT)) {
                continue;
            }
            boolean strongId = id != null || uuid != null || typedId != null;
            int rank = NO_NAME;
            switch (field) {
                case "id", "ID", "Id" -> id = id != null ? id : idText(parser, token);
                case "uuid" -> uuid = id != null || uuid != null ? uuid : idText(parser, token);
                case "key" -> key = strongId || key != null ? key : idText(parser, token);
                case "title" -> rank = TITLE;
                case "name" -> rank = NAME;
                case "heading" -> rank = HEADING;
                case "slug" -> rank = SLUG;
                case "filename" -> rank = FILENAME;
                case "label" -> rank = LABEL;
                default -> {
                    char last = field.charAt(field.length() - 1);
                    if (last == 'd' || last == 'D') {
                        int idSuffix = strongId ? 0 : idSuffixLength(field);
                        if (idSuffix > 0) {
                            if (type != null && hasPrefix(field, idSuffix, type)) {
                                typedId = idText(parser, token);
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
                            rank = type != null && hasPrefix(field, nameSuffix, type) ? TYPED_NAME : OTHER_NAME;
                        }
                    }
                }
            }
            if (rank < nameRank) {
                String text = nameText(parser, token);
                if (text != null) {
                    name = text;
                    nameRank = rank;
                }
            }
            leaf = type != null && (id != null || uuid != null || typedId != null);
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
        // A resource is a leaf: what was found inside it belongs to it.
        while (found.size() > mark) {
            found.remove(found.size() - 1);
        }
        add(new Entity(entityId, name, entityType));
    }

    /** Walks the container held by {@code field}, unless the key is bookkeeping; wrapper keys pass on the context. */
    private void readField(JsonParser parser, JsonToken start, String field, ContainerKeys.Key context, int depth)
            throws IOException {
        ContainerKeys.Key key = keys.of(field);
        if (key.ignored()) {
            parser.skipChildren();
        } else {
            readContainer(parser, start, key.wrapper() ? context : key, depth + 1);
        }
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
    private String typeOfContext(ContainerKeys.Key context) {
        if (context == null) {
            return toolType;
        }
        if (context.knownType() != null) {
            return context.knownType();
        }
        return toolType != null ? toolType : context.ownType();
    }

    private String typeOfIdPrefix(String key, int suffix) {
        String prefix = key.substring(0, key.length() - suffix);
        String known = keys.typeNames().knownTypeOfKey(prefix);
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
