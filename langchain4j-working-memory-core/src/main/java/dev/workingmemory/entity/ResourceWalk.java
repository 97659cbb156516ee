package dev.workingmemory.entity;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One bounded depth-first walk over a parsed tool result, collecting the resources it holds as
 * {@link Entity entities}. The rules are documented on {@link JsonEntityExtractor}.
 *
 * <p>Not thread-safe: create one per result.
 */
final class ResourceWalk {

    /** How many nodes (containers, array elements and object fields) one walk examines at most. */
    static final int MAX_NODES = 10_000;
    /** Longer id values are not taken as ids. */
    static final int MAX_ID_LENGTH = 256;
    /** Longer names are cut to this many characters and end with an ellipsis. */
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

    List<Entity> run(JsonNode root) {
        visit(root, null, 1);
        return found;
    }

    private boolean done() {
        return remaining <= 0 || found.size() >= maxEntities;
    }

    /**
     * @param node    an object or array
     * @param context the nearest key above the node that is not a wrapper key, or {@code null}
     * @param depth   1 for the root
     */
    private void visit(JsonNode node, String context, int depth) {
        if (depth > maxDepth || done()) {
            return;
        }
        remaining--;
        if (node.isArray()) {
            int n = Math.min(node.size(), maxPerList);
            for (int i = 0; i < n && !done(); i++) {
                remaining--;
                JsonNode element = node.get(i);
                if (element.isContainerNode()) {
                    visit(element, context, depth + 1);
                }
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        if (collectResource(node, context)) {
            return; // a resource is a leaf: what it nests belongs to it
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (done()) {
                return;
            }
            JsonNode value = field.getValue();
            if (!value.isContainerNode() || value.isEmpty()) {
                continue;
            }
            String key = field.getKey();
            String lower = key.toLowerCase(Locale.ROOT);
            if (IGNORED_KEYS.contains(lower)) {
                continue;
            }
            visit(value, WRAPPER_KEYS.contains(lower) ? context : key, depth + 1);
        }
    }

    /** Adds the object as an entity if it is a resource; returns whether it is one. */
    private boolean collectResource(JsonNode object, String context) {
        String type = typeOfContext(context);

        JsonNode idNode = null;
        JsonNode uuidNode = null;
        JsonNode keyNode = null;
        JsonNode typedIdNode = null;
        JsonNode otherIdNode = null;
        String otherIdKey = null;
        int otherIdSuffix = 0;
        JsonNode title = null;
        JsonNode name = null;
        JsonNode heading = null;
        JsonNode typedName = null;
        JsonNode otherName = null;
        JsonNode slug = null;
        JsonNode filename = null;
        JsonNode label = null;

        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (--remaining < 0) {
                break;
            }
            String key = field.getKey();
            JsonNode value = field.getValue();
            switch (key) {
                case "id", "ID", "Id" -> idNode = first(idNode, value);
                case "uuid" -> uuidNode = first(uuidNode, value);
                case "key" -> keyNode = first(keyNode, value);
                case "title" -> title = first(title, text(value));
                case "name" -> name = first(name, text(value));
                case "heading" -> heading = first(heading, text(value));
                case "slug" -> slug = first(slug, text(value));
                case "filename" -> filename = first(filename, text(value));
                case "label" -> label = first(label, text(value));
                default -> {
                    int idSuffix = idSuffixLength(key);
                    if (idSuffix > 0) {
                        if (type != null && hasPrefix(key, idSuffix, type)) {
                            typedIdNode = first(typedIdNode, value);
                        } else if (otherIdNode == null && idText(value) != null
                                && !IGNORED_ID_PREFIXES.contains(
                                        key.substring(0, key.length() - idSuffix).toLowerCase(Locale.ROOT))) {
                            otherIdNode = value;
                            otherIdKey = key;
                            otherIdSuffix = idSuffix;
                        }
                        continue;
                    }
                    int nameSuffix = nameSuffixLength(key);
                    if (nameSuffix > 0 && value.isTextual()) {
                        if (type != null && hasPrefix(key, nameSuffix, type)) {
                            typedName = first(typedName, text(value));
                        } else {
                            otherName = first(otherName, text(value));
                        }
                    }
                }
            }
        }

        String id;
        if (type == null) {
            // Without a type only a prefixed id key (event_id) can name one, and only if nothing else is the id.
            if (idText(idNode) != null || idText(uuidNode) != null || otherIdNode == null) {
                return false;
            }
            id = idText(otherIdNode);
            type = typeOfIdPrefix(otherIdKey, otherIdSuffix);
        } else {
            id = idText(idNode);
            if (id == null) {
                id = idText(uuidNode);
            }
            if (id == null) {
                id = idText(typedIdNode);
            }
            if (id == null && otherIdNode != null) {
                id = idText(otherIdNode);
                type = typeOfIdPrefix(otherIdKey, otherIdSuffix);
            }
            if (id == null) {
                id = idText(keyNode);
            }
        }
        if (id == null || type == null) {
            return false;
        }
        JsonNode nameNode = firstNonNull(title, name, heading, typedName, otherName, slug, filename, label);
        add(new Entity(id, nameNode == null ? null : truncate(nameNode.textValue()), type));
        return true;
    }

    private void add(Entity entity) {
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

    /** The id a value stands for: a non-blank string of at most {@link #MAX_ID_LENGTH} chars, or an integer. */
    static String idText(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isTextual()) {
            String text = value.textValue().strip();
            return text.isEmpty() || text.length() > MAX_ID_LENGTH ? null : text;
        }
        if (value.isIntegralNumber()) {
            String text = value.asText();
            return text.length() > MAX_ID_LENGTH ? null : text;
        }
        return null;
    }

    private static JsonNode text(JsonNode value) {
        return value.isTextual() && !value.textValue().isBlank() ? value : null;
    }

    private static JsonNode first(JsonNode current, JsonNode candidate) {
        return current != null ? current : candidate;
    }

    private static JsonNode firstNonNull(JsonNode... candidates) {
        for (JsonNode candidate : candidates) {
            if (candidate != null) {
                return candidate;
            }
        }
        return null;
    }

    static String truncate(String name) {
        if (name.length() <= MAX_NAME_LENGTH) {
            return name;
        }
        int cut = MAX_NAME_LENGTH - 1;
        if (Character.isHighSurrogate(name.charAt(cut - 1))) {
            cut--;
        }
        return name.substring(0, cut) + "…";
    }
}
