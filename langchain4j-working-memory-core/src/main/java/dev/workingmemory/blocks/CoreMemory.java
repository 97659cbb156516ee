package dev.workingmemory.blocks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Core memory (seed 003, tier 1): named blocks with character limits that the model keeps up to date,
 * always visible in the block as {@code <core_memory><goal chars="87/1000">…</goal>…</core_memory>}.
 *
 * <p>A write that would exceed a block's limit is rejected with a message saying by how much; content is
 * never cut silently. Thread-safe: every method holds the memory's lock.
 */
public final class CoreMemory implements MemoryLayer {

    /** The layer's name: its tag in the block and its key in snapshots. */
    public static final String NAME = "core_memory";
    private static final Logger log = LoggerFactory.getLogger(CoreMemory.class);
    private static final int FORMAT_VERSION = 1;

    private final LayerContext context;
    private final CoreMemoryConfig config;
    private final Map<String, String> contents = new LinkedHashMap<>();

    private CoreMemory(LayerContext context, CoreMemoryConfig config) {
        this.context = Ensure.notNull(context, "context");
        this.config = Ensure.notNull(config, "config");
        config.blockLimits().keySet().forEach(name -> contents.put(name, ""));
    }

    /** A factory of thread-scoped core memories with the blocks and budget of {@code config}. */
    public static MemoryLayerFactory factory(CoreMemoryConfig config) {
        Ensure.notNull(config, "config");
        return context -> new CoreMemory(context, config);
    }

    /**
     * Replaces the content of {@code block} with {@code rawContent} {@link BlockText#clean cleaned}. Saved in the
     * store when it returns; when another instance changed this memory meanwhile, the replace applies to the state it
     * saved.
     *
     * @throws IllegalArgumentException for an unknown block or content over the block's limit (nothing changed)
     * @throws dev.workingmemory.store.WorkingMemoryStoreException when it could not be saved (nothing changed)
     */
    public CoreBlock replace(String block, String rawContent) {
        String content = BlockText.clean(Ensure.notNull(rawContent, "content"));
        return context.writeDurably(() -> {
            int limit = limitOf(block);
            rejectOverflow(block, content.length(), limit);
            store(block, content);
            return new CoreBlock(block, content, limit);
        });
    }

    /**
     * Appends {@code rawContent} {@link BlockText#clean cleaned} to {@code block} on a new line. Saved in the store
     * when it returns; when another
     * instance changed this memory meanwhile, the line is appended to the content it saved.
     *
     * @throws IllegalArgumentException for an unknown block or when the block would exceed its limit (nothing changed)
     * @throws dev.workingmemory.store.WorkingMemoryStoreException when it could not be saved (nothing changed)
     */
    public CoreBlock append(String block, String rawContent) {
        String content = BlockText.clean(Ensure.notNull(rawContent, "content"));
        return context.writeDurably(() -> {
            int limit = limitOf(block);
            String current = contents.get(block);
            String next = current.isEmpty() ? content : current + "\n" + content;
            rejectOverflow(block, next.length(), limit);
            store(block, next);
            return new CoreBlock(block, next, limit);
        });
    }

    /** The block named {@code block}. */
    public CoreBlock read(String block) {
        return context.read(() -> new CoreBlock(block, contents.get(block), limitOf(block)));
    }

    /** All blocks in their configured order. */
    public List<CoreBlock> blocks() {
        return context.read(() -> {
            List<CoreBlock> blocks = new ArrayList<>(contents.size());
            contents.forEach((name, content) -> blocks.add(new CoreBlock(name, content, config.blockLimits().get(name))));
            return blocks;
        });
    }

    /** The names of the configured blocks. */
    public List<String> blockNames() {
        return List.copyOf(config.blockLimits().keySet());
    }

    private int limitOf(String block) {
        Integer limit = block == null ? null : config.blockLimits().get(block);
        if (limit == null) {
            throw new IllegalArgumentException("Unknown core memory block '" + block + "'. Valid blocks: "
                    + String.join(", ", config.blockLimits().keySet()));
        }
        return limit;
    }

    private static void rejectOverflow(String block, int size, int limit) {
        if (size > limit) {
            throw new IllegalArgumentException("Block '" + block + "' would hold " + size + " chars, over its limit of "
                    + limit + " by " + (size - limit) + ". Shorten the content or replace the block with a summary.");
        }
    }

    private void store(String block, String content) {
        if (!content.equals(contents.put(block, content))) {
            context.changed();
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
        return 30;
    }

    @Override
    public int priority() {
        return 80;
    }

    @Override
    public LayerBudget budget() {
        return config.budget();
    }

    /** Compressing its blocks, once one holds anything and the model has the tool. */
    @Override
    public String relief() {
        return contents.values().stream().anyMatch(content -> !content.isEmpty())
                && context.offersTool(MemoryToolNames.CORE_MEMORY_UPDATE)
                ? "compress core memory blocks (" + MemoryToolNames.CORE_MEMORY_UPDATE + ")" : "";
    }

    @Override
    public String render(int maxChars) {
        List<Map.Entry<String, String>> filled = contents.entrySet().stream().filter(e -> !e.getValue().isEmpty()).toList();
        if (filled.isEmpty()) {
            return "";
        }
        String open = "<" + NAME + ">";
        String close = "</" + NAME + ">";
        int room = maxChars - open.length() - close.length();
        StringBuilder out = new StringBuilder(Math.min(Math.max(room, 0), 8192) + 32).append(open);
        for (Map.Entry<String, String> block : filled) {
            String name = block.getKey();
            String content = block.getValue();
            String tagOpen = "\n<" + name + " chars=\"" + content.length() + "/" + config.blockLimits().get(name) + "\">";
            String tagClose = "</" + name + ">";
            int bodyRoom = room - (out.length() - open.length()) - tagOpen.length() - tagClose.length() - 1;
            if (bodyRoom <= 0) {
                break;
            }
            String body = BlockText.fit(BlockText.escape(content), bodyRoom);
            if (body.isEmpty()) {
                break;
            }
            out.append(tagOpen).append(body).append(tagClose);
        }
        if (out.length() == open.length()) {
            return "";
        }
        return out.append('\n').append(close).toString();
    }

    @Override
    public JsonNode snapshot() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("formatVersion", FORMAT_VERSION);
        ObjectNode blocks = node.putObject("blocks");
        contents.forEach(blocks::put);
        return node;
    }

    @Override
    public void restore(JsonNode snapshot) {
        contents.replaceAll((name, content) -> "");
        JsonNode blocks = snapshot == null ? null : snapshot.get("blocks");
        if (blocks == null || !blocks.isObject()) {
            log.warn("Ignoring an unreadable core memory snapshot for {}", context.key());
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = blocks.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> block = it.next();
            Integer limit = config.blockLimits().get(block.getKey());
            String content = block.getValue().asText("");
            if (limit == null) {
                log.warn("Dropping stored core memory block '{}' of {}: it is no longer configured", block.getKey(), context.key());
            } else {
                if (content.length() > limit) {
                    // Kept whole (nothing is cut silently); the next write must bring it under the limit.
                    log.warn("Stored core memory block '{}' of {} holds {} chars, over its limit of {}",
                            block.getKey(), context.key(), content.length(), limit);
                }
                contents.put(block.getKey(), content);
            }
        }
    }
}
