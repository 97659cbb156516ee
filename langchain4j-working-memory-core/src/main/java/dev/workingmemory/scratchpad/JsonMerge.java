package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.workingmemory.render.BlockText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scratchpad's deep merge, in the shape of RFC 7386 (JSON Merge Patch), and the stripping of
 * prototype-pollution keys that precedes it.
 *
 * <ul>
 *   <li>an object value merges recursively into the object at the same key (a non-object there is
 *       replaced by the merge of the value into an empty object);</li>
 *   <li>an array or a scalar value replaces what was at the key;</li>
 *   <li>a {@code null} value removes the key.</li>
 * </ul>
 *
 * <p>Thread-safe (stateless); the target tree passed to {@link #merge} must not be shared.
 */
final class JsonMerge {

    /** Keys removed at every depth, including inside arrays, before a merge. */
    static final Set<String> FORBIDDEN_KEYS = Set.of("__proto__", "constructor", "prototype");

    private static final Logger log = LoggerFactory.getLogger(JsonMerge.class);

    private JsonMerge() {
    }

    /**
     * Returns a deep copy of {@code node} without {@link #FORBIDDEN_KEYS}, at any depth, its keys and strings
     * {@link BlockText#clean cleaned} (a key is checked once cleaned). The paths of the removed keys (like
     * {@code $.a[0].__proto__}) are added to {@code strippedPaths}.
     */
    static JsonNode withoutForbiddenKeys(JsonNode node, List<String> strippedPaths) {
        List<String> found = new ArrayList<>();
        JsonNode clean = strip(node, "$", found);
        if (!found.isEmpty()) {
            log.debug("Stripped forbidden keys from a scratchpad update: {}", found);
            strippedPaths.addAll(found);
        }
        return clean;
    }

    private static JsonNode strip(JsonNode node, String path, List<String> found) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String key = BlockText.clean(field.getKey());
                String childPath = path + "." + key;
                if (FORBIDDEN_KEYS.contains(key)) {
                    found.add(childPath);
                } else {
                    copy.set(key, strip(field.getValue(), childPath, found));
                }
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode(node.size());
            for (int i = 0; i < node.size(); i++) {
                copy.add(strip(node.get(i), path + "[" + i + "]", found));
            }
            return copy;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(BlockText.clean(node.textValue()));
        }
        return node.deepCopy();
    }

    /** Merges {@code patch} into {@code target}, changing {@code target}. */
    static void merge(ObjectNode target, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            String key = field.getKey();
            JsonNode value = field.getValue();
            if (value.isNull()) {
                target.remove(key);
            } else if (value.isObject()) {
                JsonNode existing = target.get(key);
                ObjectNode child = existing != null && existing.isObject()
                        ? (ObjectNode) existing
                        : target.putObject(key);
                merge(child, (ObjectNode) value);
            } else {
                target.set(key, value.deepCopy());
            }
        }
    }
}
