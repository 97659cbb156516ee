package dev.workingmemory.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.render.LayerShare;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.blocks.CoreMemory;
import dev.workingmemory.dream.SalienceLayer;
import dev.workingmemory.dream.StateDocument;
import dev.workingmemory.dream.StateLayer;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.context.PressureStats;
import dev.workingmemory.entity.EntityMemory;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.notes.NotesLayer;
import dev.workingmemory.notes.NotesStats;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.turns.PastTurns;
import dev.workingmemory.slots.SessionSlots;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tool {@code working_memory_stats} (seed 004's stats, for every layer): how full the working memory
 * is, so the model can decide what to shorten before something is cut.
 *
 * <p>The first line gives the rendered {@code <working_memory>} block's size against the provider's
 * {@link WorkingMemoryProvider#blockBudget() block budget} as a percentage, with a status — {@code safe}
 * below 75%, {@code moderate} from 75%, {@code high} from 90% (seed 003's pressure thresholds) — and advice
 * when it is not safe. Then one line per layer, in block order:
 * <ul>
 *   <li>{@code entities}: entities tracked against the maximum;</li>
 *   <li>{@code core_memory}: each block's characters against its limit, and the total;</li>
 *   <li>{@code scratchpad}: structured or free text, read-only or writable, its size against
 *       {@code maxStateChars} (compact JSON for a structured one);</li>
 *   <li>{@code state}: the state document's size against the dream's budget and the time of the last dream;</li>
 *   <li>{@code unsynthesized_notes}: pending notes against the soft and hard limits, utilization and status
 *       (seed 004);</li>
 *   <li>{@code session}: items in each slot and the pool against their limits (seed 003, tier 2);</li>
 *   <li>{@code pressure}: the level and size of the last request against the model's context window, and how often
 *       the memory intervened (seed 003, tier 4);</li>
 *   <li>any other layer: its name only.</li>
 * </ul>
 * Every layer line ends with the characters the layer takes in the block against its budget's maximum, and
 * says when its content was cut to fit. Layers added later appear without changes here (generic line);
 * a layer that has counts of its own gets a case in {@code describe}.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class MemoryStatsTools {

    static final int MODERATE_PERCENT = 75;
    static final int HIGH_PERCENT = 90;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories to report on; every provider has something to report
     */
    public MemoryStatsTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, MemoryStatsTools.class);
    }

    /**
     * The tool {@code working_memory_stats} for {@code memoryId}. Never throws.
     *
     * @return the block's budget use and one line per layer, or {@code "Error: …"} when the memory is unavailable
     */
    @Tool(name = WorkingMemoryTools.WORKING_MEMORY_STATS, value = "Reports how full your working memory is: for each part"
            + " (entities, core memory blocks, scratchpad, ...) what it holds against its limits, and how much of the"
            + " working memory block's size budget is used, with a status: safe, moderate or high. Call it before writing"
            + " a lot into memory, or when a part of your working memory looks cut, to decide what to shorten.")
    public String workingMemoryStats(@ToolMemoryId Object memoryId) {
        return ToolRunner.run(WorkingMemoryTools.WORKING_MEMORY_STATS, provider, memoryId, null, this::stats);
    }

    private String stats(WorkingMemory memory) {
        String block = memory.render();
        int budget = provider.blockBudget();
        int percent = percent(block.length(), budget);
        String status = percent >= HIGH_PERCENT ? "high" : percent >= MODERATE_PERCENT ? "moderate" : "safe";
        StringBuilder out = new StringBuilder("Working memory block: ").append(block.length()).append('/').append(budget)
                .append(" chars (").append(percent).append("%), status: ").append(status).append('.');
        if (!"safe".equals(status)) {
            out.append(percent >= HIGH_PERCENT
                    ? " The block is nearly full and parts of it may be cut: replace long core memory blocks with short"
                    + " summaries and remove what you no longer need from the scratchpad."
                    : " The block is getting full: keep core memory blocks and the scratchpad short.");
        }
        // past turns go to the long-term memory and salience to the state's mood line; neither takes room in the block
        List<MemoryLayer> layers = memory.layers().stream()
                .filter(layer -> !(layer instanceof PastTurns) && !(layer instanceof SalienceLayer)).toList();
        Map<String, BlockParts.Part> parts = BlockParts.of(block, layers.stream().map(MemoryLayer::name).toList());
        // whether the budget cut a layer, from the block last sent: a layer's own text may hold " cut]"
        Map<String, Integer> cutLastSent = memory.lastRequest().map(sent -> sent.layers().stream()
                .collect(java.util.stream.Collectors.toMap(LayerShare::layer, LayerShare::charsCut, Math::max)))
                .orElse(null);
        for (MemoryLayer layer : layers) {
            out.append("\n- ").append(layer.name()).append(": ");
            describe(layer, memory).ifPresent(details -> out.append(details).append("; "));
            BlockParts.Part part = parts.get(layer.name());
            LayerBudget layerBudget = layer.budget();
            if (part == null) {
                out.append("not in the block (empty)");
            } else {
                out.append(part.chars()).append(" chars in the block");
                boolean cut = cutLastSent == null ? part.cut() : cutLastSent.getOrDefault(layer.name(), 0) > 0;
                if (cut) {
                    out.append(", cut to fit");
                }
            }
            out.append(" (layer budget ").append(layerBudget.minChars()).append('-').append(layerBudget.maxChars())
                    .append(" chars).");
        }
        return out.toString();
    }

    /** What a layer holds against its own limits; empty for layers this tool does not know. */
    private Optional<String> describe(MemoryLayer layer, WorkingMemory memory) {
        if (layer instanceof EntityMemory entities) {
            int count = entities.entities().size();
            return Optional.of(provider.entityConfig()
                    .map(config -> count + "/" + config.maxEntities() + " entities tracked ("
                            + percent(count, config.maxEntities()) + "%)")
                    .orElse(count + " entities tracked"));
        }
        if (layer instanceof CoreMemory core) {
            return Optional.of(coreMemory(core.blocks()));
        }
        if (layer instanceof Scratchpad scratchpad) {
            return Optional.of(scratchpad(scratchpad));
        }
        if (layer instanceof StateLayer state) {
            return Optional.of(state.text().map(text -> "state document " + text.length() + "/"
                    + provider.dreamEngine().budgetChars() + " chars, last dream " + state.document()
                    .flatMap(StateDocument::lastDream).map(Object::toString).orElse("none yet"))
                    .orElse("no state document yet (a dream writes it from the notes)"));
        }
        if (layer instanceof SessionSlots session) {
            List<String> each = new ArrayList<>();
            for (String slot : session.slotNames()) {
                each.add(slot + " " + session.items(slot).size() + "/" + session.limit(slot));
            }
            if (session.config().poolCapacity() > 0) {
                each.add(SessionSlots.POOL + " " + session.pool().size() + "/" + session.limit(SessionSlots.POOL));
            }
            return Optional.of(String.join(", ", each) + " items");
        }
        if (layer instanceof ContextPressure pressure) {
            PressureStats stats = pressure.stats();
            if (stats.contextWindow() == 0) {
                return Optional.of("context pressure: no request measured yet");
            }
            return Optional.of("context pressure " + stats.level().textName() + ": the last request took " + stats.percent()
                    + "% of the " + stats.contextWindow() + "-token context window (" + stats.tokens() + " tokens, "
                    + stats.sentTokens() + " as sent after pruning); " + stats.interventions() + " intervention"
                    + (stats.interventions() == 1 ? "" : "s") + " so far");
        }
        if (layer instanceof NotesLayer notes) {
            NotesStats stats = notes.stats();
            return Optional.of(stats.current() + " notes pending a dream; soft limit " + stats.softLimit()
                    + " (archives the oldest unprotected), hard limit " + stats.hardLimit() + " (deletes the oldest);"
                    + " utilization " + Math.round(stats.utilization()) + "%, status: " + stats.status());
        }
        return Optional.empty();
    }

    private static String coreMemory(List<CoreBlock> blocks) {
        List<String> each = new ArrayList<>(blocks.size());
        int used = 0;
        int limit = 0;
        for (CoreBlock block : blocks) {
            each.add(block.name() + " " + block.chars() + "/" + block.maxChars() + " chars ("
                    + percent(block.chars(), block.maxChars()) + "%)");
            used += block.chars();
            limit += block.maxChars();
        }
        return String.join(", ", each) + "; total " + used + "/" + limit + " chars (" + percent(used, limit) + "%)";
    }

    private static String scratchpad(Scratchpad scratchpad) {
        int max = scratchpad.config().maxStateChars();
        int size = scratchpad.isStructured() ? compactSize(scratchpad) : scratchpad.text().length();
        return (scratchpad.isStructured() ? "structured JSON" : "free text") + ", "
                + (scratchpad.isReadOnly() ? "read-only" : "writable") + ", " + size + "/" + max + " chars ("
                + percent(size, max) + "%)";
    }

    private static int compactSize(Scratchpad scratchpad) {
        try {
            return JSON.writeValueAsString(scratchpad.json()).length();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize the scratchpad", e);
        }
    }

    private static int percent(int used, int limit) {
        return limit <= 0 ? 0 : (int) Math.round(100.0 * used / limit);
    }
}
