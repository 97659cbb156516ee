package dev.workingmemory.tools;

import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.langchain4j.service.tool.ToolService;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.layer.MemoryLayer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The memory's tools as a dynamic LangChain4j {@link ToolProvider} ({@link WorkingMemoryTools#toolProvider}): before
 * each model call, the tools of {@link WorkingMemoryTools#all} for the caller's memory, but those of a layer that
 * does not act for it ({@link LayerTools}, {@link MemoryLayer#active()}): a tier waiting for its evidence costs the
 * model no tool specifications either. The session slots' four tools (some 2,000 characters of specifications on every
 * request) reach a coding agent's next model call after its first compiler, build or test output, and never a chat
 * assistant's.
 *
 * <p>Thread-safe: {@code AiServices} asks it from any thread; it holds the tools, made once, and the provider.
 */
final class MemoryToolProvider implements ToolProvider {

    private static final Logger log = LoggerFactory.getLogger(MemoryToolProvider.class);

    private final WorkingMemoryProvider provider;
    private final List<Offered> tools = new ArrayList<>();

    /** A tool, and the layer that must act or hold something for it to be offered ({@code null}: always). */
    private record Offered(AiServiceTool tool, Class<? extends MemoryLayer> layer) {
    }

    MemoryToolProvider(WorkingMemoryProvider provider, List<Object> beans) {
        this.provider = provider;
        for (Object bean : beans) {
            Class<? extends MemoryLayer> layer = bean instanceof LayerTools layerTools ? layerTools.layer() : null;
            for (AiServiceTool tool : ToolService.findTools(bean)) {
                tools.add(new Offered(tool, layer));
            }
        }
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        Object memoryId = request.chatMemoryId() == null ? "default" : request.chatMemoryId();
        List<AiServiceTool> offered;
        try {
            // through withMemory: a memory evicted between its lookup and the reading of its layers is read again
            offered = provider.withMemory(memoryId, this::offeredTo);
        } catch (RuntimeException e) {
            log.warn("Could not read the memory of {} to choose its tools; offering them all", memoryId, e);
            offered = tools.stream().map(Offered::tool).toList();
        }
        return new ToolProviderResult(offered);
    }

    private List<AiServiceTool> offeredTo(WorkingMemory memory) {
        List<AiServiceTool> offered = new ArrayList<>(tools.size());
        for (Offered tool : tools) {
            if (tool.layer() == null || serves(memory, tool.layer())) {
                offered.add(tool.tool());
            }
        }
        return offered;
    }

    /** Asked before every model call: a tier that starts acting mid-turn has its tools from the next call on. */
    @Override
    public boolean isDynamic() {
        return true;
    }

    private static boolean serves(WorkingMemory memory, Class<? extends MemoryLayer> type) {
        Optional<? extends MemoryLayer> layer = memory.layer(type);
        return layer.isPresent() && layer.get().active();
    }
}
