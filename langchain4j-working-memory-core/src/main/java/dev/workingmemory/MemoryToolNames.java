package dev.workingmemory;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.internal.Ensure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names of the tools that read and write a provider's memories ({@code core_memory_read}, {@code memory_search},
 * {@code working_memory_stats}, {@code read_tool_output}, the slot and note tools, ...). Their results are the memory's
 * own answers about itself: the memory never prunes them and never mines them for entities, session items or salience
 * ({@link dev.workingmemory.layer.LayerContext#isMemoryToolResult}). The tools module registers the {@code @Tool} names
 * of each of its beans when the bean is created, and {@code WorkingMemoryTools.all} those of every bean it returns, so
 * the set follows the tools module without a second list; register your own tools here when they answer from the
 * memory too.
 *
 * <p>Thread-safe: names are only ever added.
 */
public final class MemoryToolNames {

    private final Set<String> names = ConcurrentHashMap.newKeySet();

    MemoryToolNames() {
    }

    /** Registers a tool whose results are the memory's own answers. Registering a name again does nothing. */
    public void register(String toolName) {
        Ensure.notBlank(toolName, "toolName");
        names.add(toolName);
    }

    public boolean contains(String toolName) {
        return toolName != null && names.contains(toolName);
    }

    /** Whether {@code message} is the result of a registered tool. */
    public boolean isResultOf(ChatMessage message) {
        return message instanceof ToolExecutionResultMessage result && contains(result.toolName());
    }

    /** The names registered so far. */
    public Set<String> names() {
        return Set.copyOf(names);
    }
}
