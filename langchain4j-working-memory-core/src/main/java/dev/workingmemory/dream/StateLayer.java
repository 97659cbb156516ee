package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The state document of the resource (seed 000's MEMORY.md), rendered first in the block as
 * {@code <state updated="…">…</state>}, {@code updated} being the time on its {@code _Last dream:} line. Over its
 * budget the document is cut at a line boundary and ends with {@value StateBudget#TRUNCATION_MARKER}.
 *
 * <p>The document lives in the store as the document {@code MEMORY.md} of the resource (the file store writes it as a
 * human-readable file beside {@code state.json}), written only by the {@link DreamEngine}; this layer reads it when the
 * resource is loaded, after every change the engine makes, and at least every {@value #RECHECK_SECONDS} seconds of
 * use to take in what another application instance dreamt. Before the first dream it shows a hand-written MEMORY.md
 * as it is, and the empty layer renders nothing.
 *
 * <p><b>Budget</b>: up to the state's budget for the context window (seed 000's table, {@link StateBudget}); at least
 * a quarter of it. Priority 75: entities, notes and core memory are served first when the block is short, so a large
 * state is cut before they are.
 *
 * <p>Thread-safe: every method holds the resource's lock.
 */
public final class StateLayer implements MemoryLayer {

    /** The layer's name: its tag in the block and its key in snapshots. */
    public static final String NAME = "state";
    static final int RECHECK_SECONDS = 10;
    private static final String CLOSE_TAG = "</" + NAME + ">";
    /** The pointers' label for a model without {@code memory_search}: the topics stay, the call is not suggested. */
    static final String TOPICS_LABEL = "_Topics of earlier conversations:_";

    private final LayerContext context;
    private final DreamEngine engine;
    private final String resource;
    private final LayerBudget budget;
    /** The document's text, {@code null} when there is none. */
    private String text;
    private String openTag = "<" + NAME + ">";
    private long readChanges = -1;
    private long readAt;

    private StateLayer(LayerContext context, DreamEngine engine) {
        this.context = context;
        this.engine = engine;
        this.resource = context.key().resource();
        int chars = engine.budgetChars();
        this.budget = LayerBudget.of(chars / 4, chars + 64);
    }

    /**
     * State layers (resource-scoped) reading what {@code engine} commits. Creating one prepares the resource
     * ({@link DreamEngine#prepare}: a commit a crash interrupted is finished, a hand-written MEMORY.md migrated).
     */
    public static MemoryLayerFactory factory(DreamEngine engine) {
        Ensure.notNull(engine, "engine");
        return new MemoryLayerFactory() {
            @Override
            public LayerScope scope() {
                return LayerScope.RESOURCE;
            }

            @Override
            public MemoryLayer create(LayerContext context) {
                engine.prepare(context.key().resource());
                return new StateLayer(context, engine);
            }
        };
    }

    /** The text of the state document as stored, empty before the first dream (or migration). */
    public Optional<String> text() {
        return context.read(() -> Optional.ofNullable(text));
    }

    /** The state document, parsed with the engine's schema (the generated part of a transition document). */
    public Optional<StateDocument> document() {
        return text().map(stored -> SeedTransition.state(stored, engine.config().schema()));
    }

    @Override
    public boolean refresh() {
        long changes = engine.changes();
        long now = System.nanoTime();
        if (changes == readChanges && now - readAt < TimeUnit.SECONDS.toNanos(RECHECK_SECONDS)) {
            return false;
        }
        readChanges = changes;
        readAt = now;
        String stored = engine.state(resource).orElse(null);
        if (stored == null ? text == null : stored.equals(text)) {
            return false;
        }
        text = stored;
        openTag = stored == null ? "<" + NAME + ">" : SeedTransition.state(stored, engine.config().schema()).lastDream()
                .map(time -> "<" + NAME + " updated=\"" + time + "\">").orElse("<" + NAME + ">");
        return true;
    }

    @Override
    public String render(int maxChars) {
        if (text == null || text.isBlank()) {
            return "";
        }
        int room = maxChars - openTag.length() - CLOSE_TAG.length() - 2;
        String body = context.offersTool(MemoryToolNames.MEMORY_SEARCH)
                ? StateBudget.fit(BlockText.escape(text.strip()), Math.max(0, room))
                : StateBudget.fit(BlockText.escape(withoutSearch(text).strip()), Math.max(0, room),
                        StateBudget.CUT_MARKER);
        return body.isEmpty() ? "" : openTag + "\n" + body + "\n" + CLOSE_TAG;
    }

    /**
     * The state as a model without {@code memory_search} reads it: a template label that names the tool (the seed's
     * pointers) and the seed's cut marker say what they list without suggesting the call. Other text a dream wrote is
     * left as it is.
     */
    private static String withoutSearch(String state) {
        if (!state.contains(MemoryToolNames.MEMORY_SEARCH)) {
            return state;
        }
        List<String> lines = new ArrayList<>();
        for (String line : StateLines.lines(state)) {
            if (line.strip().equals(StateBudget.TRUNCATION_MARKER)) {
                lines.add(StateBudget.CUT_MARKER);
            } else if (StateLines.isLabel(line) && line.contains(MemoryToolNames.MEMORY_SEARCH)) {
                lines.add(TOPICS_LABEL);
            } else {
                lines.add(line);
            }
        }
        return String.join("\n", lines);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.RESOURCE;
    }

    /** First in the block. */
    @Override
    public int order() {
        return 10;
    }

    @Override
    public int priority() {
        return 75;
    }

    @Override
    public LayerBudget budget() {
        return budget;
    }

    /** The state lives in the store's document {@code MEMORY.md}, not in the snapshot. */
    @Override
    public JsonNode snapshot() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public void restore(JsonNode snapshot) {
        // nothing: see snapshot()
    }
}
