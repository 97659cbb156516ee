package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * A layer inside its scope: the {@link LayerContext} it was created with, its change counter and
 * the cache of its renderings. Thread-safe: fields are guarded by the scope's lock.
 */
public final class LayerSlot implements LayerContext {

    private final ScopeState scope;
    private final MemoryKey key;
    private final Clock clock;
    private final MemoryLayerFactory factory;
    private MemoryLayer layer;
    private long version;
    private final RenderCache atMax = new RenderCache();
    private final RenderCache cut = new RenderCache();
    private long snapshotVersion = -1;
    private String snapshotMember;
    /** Whether the layer's rendering reads other layers ({@link #reliefs()}): then it is cached per scope version. */
    private boolean readsOtherLayers;
    /** Whether the layer's rendering asks which tools are {@link #offersTool offered}: then it is cached per answer too. */
    private boolean readsTools;
    /** Inside the layer's {@link MemoryLayer#render}: what it reads then decides how its rendering is cached. */
    private boolean rendering;

    LayerSlot(ScopeState scope, MemoryKey key, Clock clock, MemoryLayerFactory factory) {
        this.scope = scope;
        this.key = key;
        this.clock = clock;
        this.factory = factory;
    }

    void bind(MemoryLayer layer) {
        this.layer = layer;
    }

    public MemoryLayer layer() {
        return layer;
    }

    @Override
    public MemoryKey key() {
        return key;
    }

    @Override
    public <T> T read(Supplier<T> action) {
        return scope.read(action);
    }

    @Override
    public <T> T write(Supplier<T> action) {
        return scope.layerWrite(this, action, false);
    }

    @Override
    public <T> T writeDurably(Supplier<T> action) {
        return scope.layerWrite(this, action, true);
    }

    /** Lets the layer observe a message added to its memory, as one of its writes. */
    public void observe(ChatMessage message) {
        scope.observe(this, message);
    }

    @Override
    public void changed() {
        scope.changed(this);
    }

    @Override
    public void refreshed() {
        scope.refreshed(this);
    }

    void bumpVersion() {
        version++;
    }

    long version() {
        return version;
    }

    /**
     * Puts the layer back to the state a new memory starts with (the stored state of this scope is gone): the state
     * of a layer the factory creates afresh. Called holding the lock.
     */
    void reset() {
        layer.restore(factory.create(new DetachedContext(key, clock)).snapshot());
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public WorkingMemoryListener events() {
        return scope.events();
    }

    @Override
    public boolean isMemoryToolResult(ChatMessage message) {
        return scope.messageRules().isMemoryToolResult(message);
    }

    @Override
    public boolean runLater(Runnable task, java.time.Duration delay) {
        return scope.runLater(task, delay);
    }

    @Override
    public List<String> reliefs() {
        readsOtherLayers = true;
        return scope.reliefs(this);
    }

    @Override
    public boolean offersTool(String toolName) {
        if (rendering) {
            readsTools = true; // asked from relief() instead, the layer that reads the reliefs renders again
        }
        return scope.offersTool(toolName);
    }

    @Override
    public int maxAnalyzedChars() {
        return scope.messageRules().maxAnalyzedChars();
    }

    /** The layer's part of the saved document ({@code "name":snapshot}), cached until the layer changes. Called holding the lock. */
    String snapshotMember() {
        if (snapshotMember == null || snapshotVersion != version) {
            snapshotMember = ScopeState.member(layer.name(), layer.snapshot());
            snapshotVersion = version;
        }
        return snapshotMember;
    }

    /** Renders at the layer's own maximum, cached until the layer changes. Called holding the scope's lock. */
    String renderAtMax() {
        return atMax.get(renderVersion(), toolsVersion(), layer.budget().maxChars(), this);
    }

    /** Renders within {@code maxChars}, cached until the layer changes. Called holding the scope's lock. */
    String renderWithin(int maxChars) {
        return cut.get(renderVersion(), toolsVersion(), maxChars, this);
    }

    /** The layer's version, or (negated, so the two never meet) its scope's when its rendering reads other layers. */
    private long renderVersion() {
        return readsOtherLayers ? -1 - scope.version() : version;
    }

    /** What the tools offered to the scope's memories were when its rendering asked, or 0 when it does not ask. */
    private long toolsVersion() {
        return readsTools ? scope.toolsVersion() : 0;
    }

    /** The layer's rendering, {@link BlockText#clean cleaned}: the one rule for every layer, ours or not. */
    private String render(int maxChars) {
        rendering = true;
        try {
            return BlockText.clean(layer.render(maxChars));
        } finally {
            rendering = false;
        }
    }

    private static final class RenderCache {
        private long version = -1;
        private long toolsVersion = -1;
        private int limit = -1;
        private String text;

        String get(long currentVersion, long currentToolsVersion, int maxChars, LayerSlot slot) {
            if (text == null || version != currentVersion || toolsVersion != currentToolsVersion || limit != maxChars) {
                text = slot.render(maxChars);
                version = currentVersion;
                toolsVersion = currentToolsVersion;
                limit = maxChars;
            }
            return text;
        }
    }

    /** The context of a layer created only to read its initial state; it is never changed. */
    private record DetachedContext(MemoryKey key, Clock clock) implements LayerContext {

        @Override
        public <T> T read(Supplier<T> action) {
            return action.get();
        }

        @Override
        public <T> T write(Supplier<T> action) {
            throw new IllegalStateException("A layer created to read its initial state cannot be changed");
        }

        @Override
        public <T> T writeDurably(Supplier<T> action) {
            return write(action);
        }

        @Override
        public void changed() {
            throw new IllegalStateException("A layer created to read its initial state cannot be changed");
        }

        @Override
        public void refreshed() {
            changed();
        }
    }
}
