package dev.workingmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;

/**
 * A layer of state the memory derives by itself (saved behind the turn, like entities), in either scope: lines
 * added with {@link #add}. For tests of saving and of conflicts between instances.
 */
final class DerivedLayer implements MemoryLayer {

    private final LayerContext context;
    private final LayerScope scope;
    private String text = "";

    private DerivedLayer(LayerContext context, LayerScope scope) {
        this.context = context;
        this.scope = scope;
    }

    static MemoryLayerFactory factory(LayerScope scope) {
        return new MemoryLayerFactory() {
            @Override
            public LayerScope scope() {
                return scope;
            }

            @Override
            public MemoryLayer create(LayerContext context) {
                return new DerivedLayer(context, scope);
            }
        };
    }

    /** The layer of {@code scope} in {@code memory}. */
    static DerivedLayer of(WorkingMemory memory, LayerScope scope) {
        return memory.layers().stream()
                .filter(layer -> layer instanceof DerivedLayer derived && derived.scope == scope)
                .map(DerivedLayer.class::cast)
                .findFirst().orElseThrow();
    }

    /** Appends a line, saved behind the turn. */
    void add(String line) {
        context.write(() -> {
            text = text.isEmpty() ? line : text + "\n" + line;
            context.changed();
            return null;
        });
    }

    String text() {
        return context.read(() -> text);
    }

    @Override
    public String name() {
        return "derived_" + scope.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public LayerScope scope() {
        return scope;
    }

    @Override
    public int order() {
        return 90;
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public LayerBudget budget() {
        return LayerBudget.of(0, 100_000);
    }

    @Override
    public String render(int maxChars) {
        String element = text.isEmpty() ? "" : BlockText.element(name(), BlockText.escape(text));
        return element.length() <= maxChars ? element : "";
    }

    @Override
    public JsonNode snapshot() {
        return JsonNodeFactory.instance.textNode(text);
    }

    @Override
    public void restore(JsonNode snapshot) {
        text = snapshot == null ? "" : snapshot.asText("");
    }
}
