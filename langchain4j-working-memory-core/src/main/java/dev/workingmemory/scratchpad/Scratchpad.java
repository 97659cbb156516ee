package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The scratchpad layer: notes the agent reads and rewrites every turn, rendered as
 * {@code <scratchpad>…</scratchpad>} in the block.
 *
 * <p><b>Text mode</b> (the default): the state is one free text. {@link #update(String)} replaces it;
 * a {@code null} or blank update is the same as {@link #clear()} (back to the template, or empty).
 *
 * <p><b>JSON mode</b> ({@code json(true)}, a JSON Schema or a schema class): the state is a JSON
 * object and an update is a JSON object deep-merged into it, like RFC 7386 JSON Merge Patch:
 * <ul>
 *   <li>object values merge recursively, so a partial update keeps the other fields;</li>
 *   <li>arrays and scalars replace the previous value;</li>
 *   <li>a {@code null} value <em>removes</em> the key (there is no way to store a JSON {@code null});</li>
 *   <li>the keys {@code __proto__}, {@code constructor} and {@code prototype} are dropped at every
 *       depth, also inside arrays, before merging.</li>
 * </ul>
 * The merged state must pass the schema (or be readable as the schema class), nest at most
 * {@value #MAX_DEPTH} levels deep and stay within {@link ScratchpadConfig#maxStateChars()}; otherwise a {@link ScratchpadUpdateException} names the
 * failing path and the previous state stays.
 *
 * <pre>{@code
 * Scratchpad pad = (Scratchpad) Scratchpad.factory(config).create(context);
 * pad.update("{\"currentGoal\": \"Deploy v2\", \"completedSteps\": [\"write tests\"]}");
 * pad.update("{\"blockers\": [\"CI is red\"]}");     // currentGoal and completedSteps stay
 * pad.update("{\"blockers\": null}");                // removes blockers
 * }</pre>
 *
 * <p>Every write ({@link #update}, {@link #merge}, {@link #clear}) is in the store when it returns, and
 * applies to the state another instance saved meanwhile (a merge merges into it); a write that cannot be saved
 * throws {@link dev.workingmemory.store.WorkingMemoryStoreException} and changes nothing.
 *
 * <p>A read-only scratchpad rejects every write with an {@link IllegalStateException} but still
 * renders, snapshots and restores.
 *
 * <p>Thread-safe: the state is guarded by the lock of the {@link LayerContext}; the public methods
 * take it, the {@link MemoryLayer} methods expect their caller to hold it.
 */
public final class Scratchpad implements MemoryLayer {

    /** The layer's name, tag and snapshot key. */
    public static final String NAME = "scratchpad";

    /** The version written into snapshots. */
    public static final int FORMAT_VERSION = 1;

    private static final Logger log = LoggerFactory.getLogger(Scratchpad.class);
    private static final String OPEN_TAG = "<" + NAME + ">";
    private static final String CLOSE_TAG = "</" + NAME + ">";
    private static final String EXPECTED = "a scratchpad update must be a JSON object holding the keys to change, "
            + "like {\"currentGoal\": \"Deploy v2\"} (a null value removes a key)";
    private static final String REJECTED = "The update was rejected and the scratchpad is unchanged: ";
    /**
     * How deep the state may nest (objects and arrays): far above any plan or checklist, and far below what a store's
     * JSON reader takes (Jackson's 1,000 levels hold the state inside the memory's snapshot), so that an update the
     * scratchpad accepts can always be saved and read back. Without it, a 999-level update broke the saves of its
     * memory and made its stored state unreadable.
     */
    static final int MAX_DEPTH = 32;

    private final ScratchpadConfig config;
    private final LayerContext context;
    private final ScratchpadValidator validator;

    /** Text mode state; guarded by the context's lock. */
    private String text;
    /** JSON mode state; guarded by the context's lock, never shared outside. */
    private ObjectNode state;

    private Scratchpad(ScratchpadConfig config, LayerContext context) {
        this.config = config;
        this.context = context;
        this.validator = config.validator();
        resetToInitial();
    }

    /**
     * A factory of scratchpads configured by {@code config}, whose {@link MemoryLayerFactory#scope()}
     * is the config's scope. The layers it creates are {@code Scratchpad}s.
     */
    public static MemoryLayerFactory factory(ScratchpadConfig config) {
        Ensure.notNull(config, "config");
        return new MemoryLayerFactory() {
            @Override
            public LayerScope scope() {
                return config.scope();
            }

            @Override
            public MemoryLayer create(LayerContext context) {
                return new Scratchpad(config, Ensure.notNull(context, "context"));
            }
        };
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return config.scope();
    }

    @Override
    public int order() {
        return 60;
    }

    @Override
    public int priority() {
        return 40;
    }

    @Override
    public LayerBudget budget() {
        return config.budget();
    }

    /** The mode, schema, template and limits this scratchpad was created with. */
    public ScratchpadConfig config() {
        return config;
    }

    /** Whether the state is a JSON object (JSON mode) rather than free text. */
    public boolean isStructured() {
        return config.json();
    }

    /** Whether every write is rejected ({@link ScratchpadConfig#readOnly()}). */
    public boolean isReadOnly() {
        return config.readOnly();
    }

    /** The free text, or in JSON mode the state pretty-printed; {@code ""} when empty. */
    public String text() {
        return context.read(this::content);
    }

    /**
     * A deep copy of the JSON state (an empty object when empty).
     *
     * @throws IllegalStateException in text mode
     */
    public ObjectNode json() {
        if (!config.json()) {
            throw new IllegalStateException("The scratchpad holds free text; configure jsonSchema, schemaClass "
                    + "or json(true) for a JSON state");
        }
        return context.read(() -> state.deepCopy());
    }

    /**
     * Applies an update and returns a short description of what changed, for the model.
     *
     * <p>Text mode: replaces the text; {@code null} or blank clears it like {@link #clear()}.
     * JSON mode: {@code update} is a JSON object, or a JSON string whose content is a JSON object,
     * deep-merged into the state as described in the class documentation. The text, or the keys and strings of the
     * JSON, are {@link BlockText#clean cleaned} first: the scratchpad holds what every store keeps exactly.
     *
     * @throws ScratchpadUpdateException when the update is not a JSON object (JSON mode), fails the
     *                                   schema or makes the state larger than {@code maxStateChars}
     * @throws IllegalStateException     when the scratchpad is read-only
     */
    public String update(String update) {
        ensureWritable();
        if (!config.json()) {
            return context.writeDurably(() -> replaceText(update));
        }
        ObjectNode patch = parseUpdate(update);
        return context.writeDurably(() -> apply(patch));
    }

    /**
     * Deep-merges {@code update} (a JSON object, or a JSON string holding one) into the JSON state,
     * like {@link #update(String)}.
     *
     * @throws ScratchpadUpdateException when the update is not a JSON object, fails the schema or
     *                                   makes the state larger than {@code maxStateChars}
     * @throws IllegalStateException     in text mode, or when the scratchpad is read-only
     */
    public void merge(JsonNode update) {
        ensureWritable();
        if (!config.json()) {
            throw new IllegalStateException("The scratchpad holds free text; merge needs a JSON scratchpad, use update(String)");
        }
        ObjectNode patch = asPatch(update);
        context.writeDurably(() -> apply(patch));
    }

    /**
     * Puts the scratchpad back to its template, or empties it.
     *
     * @throws IllegalStateException when the scratchpad is read-only
     */
    public void clear() {
        ensureWritable();
        context.writeDurably(() -> {
            if (config.json()) {
                ObjectNode initial = config.initialJson();
                if (!initial.equals(state)) {
                    state = initial;
                    context.changed();
                }
            } else if (!config.initialText().equals(text)) {
                text = config.initialText();
                context.changed();
            }
            return null;
        });
    }

    /**
     * {@code <scratchpad>} + the escaped content + {@code </scratchpad>}, the content cut (with a
     * marker) so that the element takes at most {@code maxChars}; {@code ""} when the scratchpad is
     * empty or not even the tags fit.
     */
    @Override
    public String render(int maxChars) {
        String body = content();
        if (body.isBlank()) {
            return "";
        }
        int room = maxChars - OPEN_TAG.length() - CLOSE_TAG.length();
        if (room <= 0) {
            return "";
        }
        return BlockText.element(NAME, BlockText.fit(BlockText.escape(body), room));
    }

    /** {@code {"formatVersion":1,"mode":"text"|"json","state":…}}. */
    @Override
    public JsonNode snapshot() {
        ObjectNode snapshot = JsonNodeFactory.instance.objectNode();
        snapshot.put("formatVersion", FORMAT_VERSION);
        snapshot.put("mode", modeName());
        if (config.json()) {
            snapshot.set("state", state.deepCopy());
        } else {
            snapshot.put("state", text);
        }
        return snapshot;
    }

    /**
     * Restores a snapshot written by {@link #snapshot()}. A snapshot of another format version or mode,
     * an unreadable one, or a JSON state that fails the schema is replaced by the template (or the
     * empty state) with a warning; this method never throws. Prototype keys in a stored JSON state
     * are dropped. {@code maxStateChars} is not applied: it limits updates, not stored state.
     */
    @Override
    public void restore(JsonNode snapshot) {
        String problem;
        try {
            problem = tryRestore(snapshot);
        } catch (RuntimeException e) {
            problem = "cannot read it (" + e + ")";
        }
        if (problem != null) {
            log.warn("Discarding the stored scratchpad of {}: {}; starting from the {}",
                    context.key(), problem, config.template().isPresent() ? "template" : "empty state");
            resetToInitial();
        }
    }

    private String tryRestore(JsonNode snapshot) {
        if (snapshot == null || !snapshot.isObject()) {
            return "expected a snapshot object, got " + ScratchpadJson.kind(snapshot);
        }
        JsonNode version = snapshot.get("formatVersion");
        if (version == null || !version.isIntegralNumber() || version.intValue() != FORMAT_VERSION) {
            return "unsupported formatVersion " + version + " (expected " + FORMAT_VERSION + ")";
        }
        JsonNode mode = snapshot.get("mode");
        if (mode == null || !modeName().equals(mode.asText())) {
            return "it was saved in mode " + mode + " but the scratchpad is in mode \"" + modeName() + "\"";
        }
        JsonNode stored = snapshot.get("state");
        if (!config.json()) {
            if (stored == null || !stored.isTextual()) {
                return "expected a text state, got " + ScratchpadJson.kind(stored);
            }
            text = stored.textValue();
            return null;
        }
        if (stored == null || !stored.isObject()) {
            return "expected a JSON object state, got " + ScratchpadJson.kind(stored);
        }
        ObjectNode restored = (ObjectNode) JsonMerge.withoutForbiddenKeys(stored, new ArrayList<>());
        String invalid = validator.problem(restored).orElse(null);
        if (invalid != null) {
            return "it fails the schema (" + invalid + ")";
        }
        state = restored;
        return null;
    }

    private void resetToInitial() {
        if (config.json()) {
            state = config.initialJson();
            text = null;
        } else {
            text = config.initialText();
            state = null;
        }
    }

    private String content() {
        if (config.json()) {
            return state.isEmpty() ? "" : ScratchpadJson.pretty(state);
        }
        return text;
    }

    private String modeName() {
        return config.json() ? "json" : "text";
    }

    private void ensureWritable() {
        if (config.readOnly()) {
            throw new IllegalStateException("The scratchpad is read-only");
        }
    }

    private String replaceText(String rawUpdate) {
        String update = BlockText.clean(rawUpdate);
        boolean clearing = update == null || update.isBlank();
        String next = clearing ? config.initialText() : update;
        if (next.length() > config.maxStateChars()) {
            throw new ScratchpadUpdateException(REJECTED + "the text is " + next.length()
                    + " characters long, more than the limit of " + config.maxStateChars()
                    + " characters. Shorten it.");
        }
        if (next.equals(text)) {
            return "No changes: the scratchpad already holds this text";
        }
        text = next;
        context.changed();
        if (clearing) {
            return next.isEmpty() ? "Cleared the scratchpad" : "Reset the scratchpad to its template";
        }
        return "Replaced the scratchpad text (" + next.length() + " characters)";
    }

    private String apply(ObjectNode patch) {
        int depth = depth(patch);
        if (depth > MAX_DEPTH) { // checked first: cleaning, merging and the schema check recurse
            throw new ScratchpadUpdateException(REJECTED + "it nests " + depth + " levels deep, more than the limit of "
                    + MAX_DEPTH + ". Send a flatter object.");
        }
        String infinite = nonFinite(patch);
        if (infinite != null) {
            // a double holds no such number and JSON has no Infinity: it would be stored as the string "Infinity",
            // and the next load would find a state that fails its schema and discard all of it
            throw new ScratchpadUpdateException(REJECTED + "the number at " + infinite + " is too large for a JSON"
                    + " number the scratchpad can keep (over about 1.8e308). Send it as a string, or a smaller number.");
        }
        List<String> stripped = new ArrayList<>();
        ObjectNode clean = (ObjectNode) JsonMerge.withoutForbiddenKeys(patch, stripped);
        ObjectNode merged = state.deepCopy();
        JsonMerge.merge(merged, clean);
        String ignored = stripped.isEmpty() ? "" : "; ignored forbidden keys: " + String.join(", ", stripped);
        if (merged.equals(state)) {
            return "No changes: the scratchpad already holds these values" + ignored;
        }
        validator.problem(merged).ifPresent(problem -> {
            throw new ScratchpadUpdateException(REJECTED + problem);
        });
        int size = ScratchpadJson.compact(merged).length();
        if (size > config.maxStateChars()) {
            throw new ScratchpadUpdateException(REJECTED + "it would make the state " + size
                    + " characters long as JSON, more than the limit of " + config.maxStateChars()
                    + " characters. Shorten values or remove keys (a null value removes a key).");
        }
        String description = describe(state, merged, clean) + ignored;
        state = merged;
        context.changed();
        return description;
    }

    /** How many objects and arrays deep {@code node} nests (1 for a flat object); iterative, as the node may nest deeply. */
    static int depth(JsonNode node) {
        int deepest = 0;
        Deque<JsonNode> nodes = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        nodes.push(node);
        depths.push(1);
        while (!nodes.isEmpty()) {
            JsonNode current = nodes.pop();
            int level = depths.pop();
            if (current.isContainerNode()) {
                deepest = Math.max(deepest, level);
                for (JsonNode child : current) {
                    nodes.push(child);
                    depths.push(level + 1);
                }
            }
        }
        return deepest;
    }

    /**
     * The path ({@code $.a.b[2]}) of the first number in {@code node} that is a fraction or exponent too large for a
     * double ({@code 1e999}), or null; iterative, like {@link #depth}. Integers stay exact at any size.
     */
    static String nonFinite(JsonNode node) {
        Deque<JsonNode> nodes = new ArrayDeque<>();
        Deque<String> paths = new ArrayDeque<>();
        nodes.push(node);
        paths.push("$");
        while (!nodes.isEmpty()) {
            JsonNode current = nodes.pop();
            String path = paths.pop();
            if (current.isFloatingPointNumber() && !Double.isFinite(current.doubleValue())) {
                return path;
            }
            if (current.isObject()) {
                current.properties().forEach(field -> {
                    nodes.push(field.getValue());
                    paths.push(path + "." + field.getKey());
                });
            } else if (current.isArray()) {
                for (int i = 0; i < current.size(); i++) {
                    nodes.push(current.get(i));
                    paths.push(path + "[" + i + "]");
                }
            }
        }
        return null;
    }

    private static String describe(ObjectNode before, ObjectNode after, ObjectNode patch) {
        List<String> updated = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            String key = field.getKey();
            if (Objects.equals(before.get(key), after.get(key))) {
                continue;
            }
            (after.has(key) ? updated : removed).add(key);
        }
        List<String> parts = new ArrayList<>();
        if (!updated.isEmpty()) {
            parts.add("Updated keys: " + String.join(", ", updated));
        }
        if (!removed.isEmpty()) {
            parts.add((parts.isEmpty() ? "Removed" : "removed") + " keys: " + String.join(", ", removed));
        }
        return String.join("; ", parts);
    }

    private static ObjectNode parseUpdate(String update) {
        if (update == null) {
            throw new ScratchpadUpdateException("Received no update (null); " + EXPECTED);
        }
        if (update.isBlank()) {
            throw new ScratchpadUpdateException("Received an empty update; " + EXPECTED);
        }
        JsonNode parsed = ScratchpadJson.parseOrNull(update);
        if (parsed == null) {
            throw new ScratchpadUpdateException("Received text that is not valid JSON: "
                    + ScratchpadJson.excerpt(update) + "; " + EXPECTED);
        }
        return asPatch(parsed);
    }

    private static ObjectNode asPatch(JsonNode update) {
        if (update == null || update.isMissingNode()) {
            throw new ScratchpadUpdateException("Received no update; " + EXPECTED);
        }
        if (update.isObject()) {
            return (ObjectNode) update;
        }
        if (update.isTextual()) {
            JsonNode inner = ScratchpadJson.parseOrNull(update.textValue());
            if (inner != null && inner.isObject()) {
                return (ObjectNode) inner;
            }
            throw new ScratchpadUpdateException("Received a JSON string that does not hold a JSON object: "
                    + ScratchpadJson.excerpt(ScratchpadJson.compact(update)) + "; " + EXPECTED);
        }
        throw new ScratchpadUpdateException("Received " + ScratchpadJson.kind(update) + ": "
                + ScratchpadJson.excerpt(ScratchpadJson.compact(update)) + "; " + EXPECTED);
    }
}
