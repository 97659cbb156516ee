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
 * memory too. The answers of the tools module's {@code AiServices} handlers to a call that ran no tool (a tool the
 * model does not have, arguments that could not be read) are the memory's own too, whatever tool they name: their
 * text is the library's, and an error slot that took them lost the build's real errors.
 *
 * <p>The names are also what the memory's texts may name to a model whose requests the provider's
 * {@link WorkingMemoryProvider#chatModelListener() model listener} has not seen yet
 * ({@link dev.workingmemory.layer.LayerContext#offersTool}): a tool no bean was made for is never suggested.
 *
 * <p>Thread-safe: names are only ever added.
 */
public final class MemoryToolNames {

    /** Searches the long-term memory; named by the notes and the state the memory shows (tools module: the same). */
    public static final String MEMORY_SEARCH = "memory_search";
    /** Writes a core memory block; named by context pressure's advice. */
    public static final String CORE_MEMORY_UPDATE = "core_memory_update";
    /** Empties one session slot; named by context pressure's advice. */
    public static final String WORKING_MEMORY_CLEAR_SLOT = "working_memory_clear_slot";
    /** Removes one session item; named by context pressure's advice. */
    public static final String WORKING_MEMORY_REMOVE = "working_memory_remove";

    /** How the tools module's answer to a call of a tool the model does not have starts, after {@code "Error: "}. */
    public static final String UNKNOWN_TOOL = "There is no tool ";
    /** How the tools module's answer to a call whose arguments could not be read starts, after {@code "Error: "}. */
    public static final String UNREADABLE_ARGUMENTS = "The arguments of tool ";
    private static final String ERROR = "Error: ";
    /** Such an answer is short (it quotes the arguments in part): a long text that starts alike is a tool's output. */
    static final int MAX_HANDLER_ANSWER_CHARS = 2_000;

    private final Set<String> names = ConcurrentHashMap.newKeySet();

    MemoryToolNames() {
    }

    /** Registers a tool whose results are the memory's own answers. Registering a name again does nothing. */
    public void register(String toolName) {
        Ensure.notBlank(toolName, "toolName");
        names.add(toolName);
    }

    /** Whether {@code toolName} is registered as a memory tool; {@code false} for null. */
    public boolean contains(String toolName) {
        return toolName != null && names.contains(toolName);
    }

    /** Whether {@code message} is the result of a registered tool, or a handler's answer to a call that ran none. */
    public boolean isResultOf(ChatMessage message) {
        return message instanceof ToolExecutionResultMessage result
                && (contains(result.toolName()) || answersACallThatRanNoTool(result));
    }

    /** Whether {@code result} is the tools module's answer to a call that ran no tool (see the class comment). */
    public static boolean answersACallThatRanNoTool(ToolExecutionResultMessage result) {
        String text;
        try {
            text = result.text();
        } catch (RuntimeException e) {
            return false; // contents other than one text: a tool's output
        }
        return text != null && text.length() <= MAX_HANDLER_ANSWER_CHARS
                && text.startsWith(ERROR) && (text.startsWith(UNKNOWN_TOOL, ERROR.length())
                || text.startsWith(UNREADABLE_ARGUMENTS, ERROR.length()));
    }

    /** How many names are registered: it only grows, so a change of it means a new tool. */
    public int count() {
        return names.size();
    }

    /** The names registered so far. */
    public Set<String> names() {
        return Set.copyOf(names);
    }
}
