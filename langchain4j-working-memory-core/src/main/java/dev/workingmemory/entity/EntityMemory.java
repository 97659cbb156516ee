package dev.workingmemory.entity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.event.EntityTracked;
import dev.workingmemory.internal.EnglishNouns;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.MessageText;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Entity tracking (seed 001): the entities met in tool results, most recent first, bounded.
 *
 * <p>Every {@link ToolExecutionResultMessage} added to the memory goes through the configured
 * {@link EntityExtractor}. An entity seen again moves to the front with its new name; past the limit
 * the oldest is dropped. Rendered grouped by type, types in order of their most recent entity:
 * <pre>
 * &lt;entities&gt;pages:
 *   - "About Us" (page-123)
 * restaurants:
 *   - "Sushi Ran" (restaurant)
 * …reference-resolution guidance…&lt;/entities&gt;
 * </pre>
 * A type's heading is its English plural ({@link EnglishNouns#plural}: none for a word with a letter outside ASCII,
 * {@code заказ:}), except where the {@link JsonEntityExtractor} read the type from the key of a list whose spelling is
 * not that plural: the key is the plural the API gives in its own language, and it heads the type's group
 * ({@code {"verbindungen":[…]}} is listed under {@code verbindungen:}, not {@code verbindungens:}; {@code szkolki:},
 * {@code 注文:}). The most recent shown entity of the type that came with such a heading gives it; an entity seen
 * again without one keeps the one it had. Entities given to {@link #track}, or of an extractor that gives no headings
 * ({@link EntityExtractor#extractWithHeadings}), have none.
 * An entity with a {@linkplain Entity#hasDerivedId() derived id} (the tool named it without an id) is listed with
 * its type instead of an id, and when one is shown a line after the guidance says to refer to such entities by name.
 * Such an entity is the same as a tracked one of the same type whose name is equal ignoring case and runs of
 * whitespace: an entity with a real id replaces a derived one of the same name, and a derived one moves the tracked
 * entity with the real id to the front instead of being added beside it. Snapshots hold each entity's id, name and
 * type, and the heading its list gave when it has one (format version 1, unchanged: the heading is an optional field):
 * derived ids are recognized by their form, so older snapshots restore as before.
 *
 * <p>Thread-safe: every method holds the memory's lock.
 */
public final class EntityMemory implements MemoryLayer {

    public static final String NAME = "entities";
    private static final String OPEN_TAG = "<" + NAME + ">";
    private static final String CLOSE_TAG = "</" + NAME + ">";
    private static final Logger log = LoggerFactory.getLogger(EntityMemory.class);
    private static final int FORMAT_VERSION = 1;
    /** Rendered after the guidance when an entity without an id is shown. */
    static final String NO_ID_GUIDANCE =
            "An entity listed with its type in place of an id has no id: refer to it by its name.";

    private final LayerContext context;
    private final EntityMemoryConfig config;
    private final String escapedGuidance;
    private final String escapedNoIdGuidance;
    /** Most recent first. */
    private final List<Tracked> entities = new ArrayList<>();

    private EntityMemory(LayerContext context, EntityMemoryConfig config) {
        this.context = Ensure.notNull(context, "context");
        this.config = Ensure.notNull(config, "config");
        this.escapedGuidance = BlockText.escape(config.referenceGuidance());
        this.escapedNoIdGuidance = escapedGuidance.isEmpty() ? "" : BlockText.escape(NO_ID_GUIDANCE);
    }

    public static MemoryLayerFactory factory(EntityMemoryConfig config) {
        Ensure.notNull(config, "config");
        return context -> new EntityMemory(context, config);
    }

    /** All tracked entities, most recent first. */
    public List<Entity> entities() {
        return context.read(() -> entities.stream().map(Tracked::entity).toList());
    }

    /** The tracked entities of {@code type}, most recent first. */
    public List<Entity> entities(String type) {
        return context.read(() -> entities.stream().map(Tracked::entity).filter(e -> e.type().equals(type)).toList());
    }

    /**
     * Tracks {@code found} as if it came from one tool result: the first entity ends up most recent.
     */
    public void track(List<Entity> found) {
        Ensure.notNull(found, "found");
        track(found, null);
    }

    /** @param headings one per entity, the heading its list gave it or null; {@code null} for none at all */
    private void track(List<Entity> found, List<String> headings) {
        if (found.isEmpty()) {
            return;
        }
        context.write(() -> {
            if (alreadyInFront(found, headings)) {
                return null; // e.g. the same page fetched again: nothing to re-render or save
            }
            // Seed 001 adds each entity at the front in turn; we keep the result's own order instead so
            // the first (most relevant) entity of a list result is the most recent.
            for (int i = found.size() - 1; i >= 0; i--) {
                moveToFront(found.get(i), headings == null ? null : headings.get(i));
            }
            while (entities.size() > config.maxEntities()) {
                entities.remove(entities.size() - 1);
            }
            context.changed();
            context.events().onEntityTracked(new EntityTracked(context.key(), found));
            return null;
        });
    }

    /** Forgets the entity with {@code id} (for an entity without one, its derived id); returns whether there was one. */
    public boolean remove(String id) {
        return context.write(() -> {
            boolean removed = entities.removeIf(t -> t.entity().id().equals(id));
            if (removed) {
                context.changed();
            }
            return removed;
        });
    }

    /** Forgets all entities. */
    public void clear() {
        context.write(() -> {
            if (!entities.isEmpty()) {
                entities.clear();
                context.changed();
            }
            return null;
        });
    }

    private boolean alreadyInFront(List<Entity> found, List<String> headings) {
        if (found.size() > entities.size()) {
            return false;
        }
        for (int i = 0; i < found.size(); i++) {
            Tracked tracked = entities.get(i);
            String heading = headings == null ? null : headings.get(i);
            if (!found.get(i).equals(tracked.entity()) || heading != null && !heading.equals(tracked.heading())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Puts {@code entity} first, replacing the tracked entity with its id or, when either has a derived id, the one
     * of its type and name. A tracked entity with a real id stays (moved to the front) when the same thing comes
     * back without one.
     */
    private void moveToFront(Entity entity, String heading) {
        Tracked incoming = new Tracked(entity, heading);
        for (int i = 0; i < entities.size(); i++) {
            Tracked tracked = entities.get(i);
            boolean same = tracked.entity().id().equals(entity.id())
                    || ((tracked.derivedId() || incoming.derivedId()) && tracked.sameThing(incoming));
            if (!same) {
                continue;
            }
            entities.remove(i--);
            if (incoming.derivedId() && !tracked.derivedId()) {
                incoming = tracked;
                break;
            }
            // a result that gives only the id ({"product_id":"P-102"}) says nothing new of its name, and a lookup of
            // one thing nothing of the name its list gave its type
            Entity kept = !named(entity) && named(tracked.entity())
                    ? new Entity(entity.id(), tracked.entity().name(), entity.type()) : incoming.entity();
            String keptHeading = incoming.heading() == null && tracked.entity().type().equals(entity.type())
                    ? tracked.heading() : incoming.heading();
            if (kept != incoming.entity() || keptHeading != incoming.heading()) {
                incoming = new Tracked(kept, keptHeading);
            }
        }
        entities.add(0, incoming);
    }

    /** Whether the entity has a name of its own: without one, its name is its id. */
    private static boolean named(Entity entity) {
        return !entity.name().equals(entity.id());
    }

    @Override
    public void onMessage(ChatMessage message) {
        // the memory's own tools answer about the memory (a page of a cached output, a search hit): no new entity
        if (message instanceof ToolExecutionResultMessage result && !context.isMemoryToolResult(result)) {
            ExtractedEntities found;
            try {
                found = config.extractor().extractWithHeadings(result.toolName(), MessageText.of(result));
            } catch (RuntimeException e) {
                log.warn("Entity extractor failed on the result of tool '{}'", result.toolName(), e);
                return;
            }
            if (found != null) {
                track(found.entities(), found.headings());
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.THREAD;
    }

    @Override
    public int order() {
        return 40;
    }

    @Override
    public int priority() {
        return 90;
    }

    @Override
    public LayerBudget budget() {
        return config.budget();
    }

    @Override
    public String render(int maxChars) {
        for (int shown = entities.size(); shown > 0; shown--) {
            String element = renderFirst(shown);
            if (element.length() <= maxChars) {
                return element;
            }
        }
        return "";
    }

    /**
     * The element listing the {@code shown} most recent entities, grouped by type in order of each type's most recent
     * entity. Built in one buffer: this runs on every entity change, before the next model call.
     */
    private String renderFirst(int shown) {
        // The pieces are joined once: a StringBuilder would grow and then copy again in toString().
        List<String> pieces = new ArrayList<>(2 * shown + 8);
        pieces.add(OPEN_TAG);
        for (int i = 0; i < shown; i++) {
            String type = entities.get(i).entity().type();
            if (firstOfType(i, type)) {
                pieces.add(pieces.size() == 1 ? "" : "\n");
                pieces.add(header(i, shown, type));
                for (int j = i; j < shown; j++) {
                    Tracked tracked = entities.get(j);
                    if (tracked.entity().type().equals(type)) {
                        pieces.add(tracked.line());
                    }
                }
            }
        }
        if (shown < entities.size()) {
            pieces.add("\n[... " + (entities.size() - shown) + " older entities cut]");
        }
        if (!escapedGuidance.isEmpty()) {
            pieces.add("\n");
            pieces.add(escapedGuidance);
            if (anyWithoutId(shown)) {
                pieces.add("\n");
                pieces.add(escapedNoIdGuidance);
            }
        }
        pieces.add(CLOSE_TAG);
        return String.join("", pieces);
    }

    private boolean anyWithoutId(int shown) {
        for (int i = 0; i < shown; i++) {
            if (entities.get(i).derivedId()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The heading of the group of {@code type} whose most recent entity is at {@code i}: the first of its shown
     * entities that came with a heading from its list gives it, else its type's plural.
     */
    private String header(int i, int shown, String type) {
        for (int j = i; j < shown; j++) {
            Tracked tracked = entities.get(j);
            if (tracked.heading() != null && tracked.entity().type().equals(type)) {
                return tracked.header();
            }
        }
        return entities.get(i).header();
    }

    /** Whether no entity before index {@code i} has {@code type}. */
    private boolean firstOfType(int i, String type) {
        for (int j = 0; j < i; j++) {
            if (entities.get(j).entity().type().equals(type)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public JsonNode snapshot() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("formatVersion", FORMAT_VERSION);
        ArrayNode list = node.putArray("entities");
        for (Tracked tracked : entities) {
            Entity entity = tracked.entity();
            ObjectNode item = list.addObject()
                    .put("id", entity.id()).put("name", entity.name()).put("type", entity.type());
            if (tracked.heading() != null) {
                item.put("heading", tracked.heading());
            }
        }
        return node;
    }

    @Override
    public void restore(JsonNode snapshot) {
        entities.clear();
        JsonNode list = snapshot == null ? null : snapshot.get("entities");
        if (list == null || !list.isArray()) {
            log.warn("Ignoring an unreadable entity snapshot for {}", context.key());
            return;
        }
        for (JsonNode item : list) {
            try {
                String heading = item.path("heading").asText(null);
                entities.add(new Tracked(new Entity(item.path("id").asText(null), item.path("name").asText(null),
                        item.path("type").asText(null)), heading == null || heading.isBlank() ? null : heading));
            } catch (IllegalArgumentException e) {
                log.warn("Dropping an unreadable stored entity {} of {}", item, context.key());
            }
            if (entities.size() == config.maxEntities()) {
                break;
            }
        }
    }

    /**
     * A tracked entity with the heading its list gave it (or null), its line of the rendered list and the heading of
     * its type's group, escaped once rather than on every render, and whether its id is derived.
     */
    private record Tracked(Entity entity, String heading, String line, String header, boolean derivedId) {
        Tracked(Entity entity, String heading) {
            this(entity, heading, entity.hasDerivedId());
        }

        private Tracked(Entity entity, String heading, boolean derivedId) {
            this(entity, heading, "\n  - \"" + BlockText.escapeLine(entity.name()) + "\" ("
                            + BlockText.escapeLine(derivedId ? entity.type() : entity.id()) + ")",
                    BlockText.escapeLine(heading != null ? heading : EnglishNouns.plural(entity.type())) + ":",
                    derivedId);
        }

        /** Whether both have the same type and names equal ignoring case and runs of whitespace. */
        boolean sameThing(Tracked other) {
            return entity.type().equals(other.entity.type())
                    && Entity.nameKey(entity.name()).equals(Entity.nameKey(other.entity.name()));
        }
    }
}
