package dev.workingmemory.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.tool.ToolArgumentsErrorHandler;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolExecutionErrorHandler;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The tools that let the model read and write its working memory, for {@code AiServices.tools(...)}, and the
 * LangChain4j error handlers that keep a malformed tool call from aborting the conversation.
 *
 * <pre>{@code
 * WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
 * Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .chatMemoryProvider(memories)
 *         .tools(WorkingMemoryTools.all(memories))
 *         .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
 *         .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
 *         .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
 *         .build();
 * }</pre>
 *
 * <p>One set of beans serves every user: each tool method takes the {@code @ToolMemoryId} that
 * {@code AiServices} passes (the {@code @MemoryId} of the call) and reads or writes only that memory.
 *
 * <p><b>Why the error handlers matter.</b> The tools themselves never throw: a wrong block, operation or
 * update comes back as a text starting with {@code "Error:"} that says what was wrong and how to fix it.
 * But some calls fail inside LangChain4j before a tool runs, when the arguments cannot be converted to the
 * parameter types: arguments that are not JSON, or plain text where {@code updateWorkingMemory} of a
 * structured scratchpad expects a JSON object. By default {@code AiServices} rethrows such an error and
 * the whole call fails. {@link #argumentsErrorHandler()} turns it into a text for the model instead, and
 * {@link #executionErrorHandler()} does the same for exceptions thrown by any tool. Both handlers apply to
 * every tool of the AI service, not only to these.
 *
 * <p>Thread-safe: the tool beans are stateless apart from the provider, the handlers are stateless.
 */
public final class WorkingMemoryTools {

    /** Updates the scratchpad (seed 002). */
    public static final String UPDATE_WORKING_MEMORY = "updateWorkingMemory";
    /** Replaces or appends to a core memory block (seed 003). */
    public static final String CORE_MEMORY_UPDATE = MemoryToolNames.CORE_MEMORY_UPDATE;
    /** Reads all core memory blocks with their sizes (seed 003). */
    public static final String CORE_MEMORY_READ = "core_memory_read";
    /** Takes a note that survives the conversation and is searchable at once (seed 000). */
    public static final String WORKING_MEMORY_NOTE = "working_memory_note";
    /** Searches the long-term memory: notes and past turns, by meaning and keyword (seed 000). */
    public static final String MEMORY_SEARCH = MemoryToolNames.MEMORY_SEARCH;
    /** Reports what each layer holds against its limits and the block's budget use (seed 004). */
    public static final String WORKING_MEMORY_STATS = "working_memory_stats";

    private static final Logger log = LoggerFactory.getLogger(WorkingMemoryTools.class);
    private static final int ARGUMENTS_EXCERPT_CHARS = 200;
    private static final Pattern JACKSON_LOCATION =
            Pattern.compile("\\s*\\(start marker at \\[Source: .*?]\\)");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How to call each of our tools, for the arguments error handler. */
    private static final Map<String, String> ARGUMENT_HINTS = Map.of(
            UPDATE_WORKING_MEMORY, "call " + UPDATE_WORKING_MEMORY + " again with {\"update\": …}, where update is a JSON object"
                    + " of the keys to change for a structured scratchpad, like {\"update\": {\"currentGoal\": \"Deploy v2\"}},"
                    + " or the new text as a string for a free-text scratchpad",
            CORE_MEMORY_UPDATE, "call " + CORE_MEMORY_UPDATE + " again with three strings, like {\"block\": \"goal\","
                    + " \"operation\": \"replace\", \"content\": \"Ship v2\"}",
            CORE_MEMORY_READ, "call " + CORE_MEMORY_READ + " again with no arguments: {}",
            WORKING_MEMORY_NOTE, "call " + WORKING_MEMORY_NOTE + " again like {\"note\": \"Deadline is March 20th\","
                    + " \"importance\": 0.8, \"tags\": [\"decision\"]}: note is a string, importance a number from 0 to 1"
                    + " (optional), tags a list of strings (optional)",
            WORKING_MEMORY_STATS, "call " + WORKING_MEMORY_STATS + " again with no arguments: {}",
            MEMORY_SEARCH, "call " + MEMORY_SEARCH + " again like {\"query\": \"API migration deadline\", \"limit\": 5}:"
                    + " query is a string, limit a whole number from 1 to " + MemorySearchTools.MAX_LIMIT + " (optional)",
            ToolOutputTools.READ_TOOL_OUTPUT, "call " + ToolOutputTools.READ_TOOL_OUTPUT + " again like {\"id\":"
                    + " \"tool-output-…\", \"fromLine\": 1, \"lines\": 100}: id as the pruned output gave it, fromLine"
                    + " and lines numbers (optional)");

    private static final ToolArgumentsErrorHandler ARGUMENTS_ERROR_HANDLER = WorkingMemoryTools::argumentsError;
    private static final ToolExecutionErrorHandler EXECUTION_ERROR_HANDLER = WorkingMemoryTools::executionError;
    private static final Function<ToolExecutionRequest, ToolExecutionResultMessage> UNKNOWN_TOOL_STRATEGY =
            WorkingMemoryTools::unknownTool;

    private WorkingMemoryTools() {
    }

    /**
     * The tool beans for the layers {@code provider} has enabled, ready for {@code AiServices.tools(...)}:
     * <ul>
     *   <li>a scratchpad: {@link ScratchpadTools} when it is structured (JSON), {@link TextScratchpadTools}
     *       when it holds free text;</li>
     *   <li>core memory: {@link CoreMemoryTools};</li>
     *   <li>notes: {@link NoteTools};</li>
     *   <li>session slots: {@link SlotTools};</li>
     *   <li>context pressure: {@link ToolOutputTools} ({@code read_tool_output});</li>
     *   <li>always: {@link MemoryStatsTools};</li>
     *   <li>long-term memory (crystals): {@link MemorySearchTools}.</li>
     * </ul>
     * Every tool of these beans is registered as one of the memory's own tools
     * ({@link WorkingMemoryProvider#memoryToolNames()}): the memory never prunes their results nor mines them for
     * entities, session items or salience.
     *
     * @param provider the memories the tools read and write
     * @return an unmodifiable list of beans
     */
    public static List<Object> all(WorkingMemoryProvider provider) {
        Checks.notNull(provider, "provider");
        List<Object> tools = new ArrayList<>(3);
        provider.scratchpadConfig().ifPresent(config -> tools.add(scratchpadTools(provider, config)));
        if (provider.coreMemoryConfig().isPresent()) {
            tools.add(new CoreMemoryTools(provider));
        }
        if (provider.notesConfig().isPresent()) {
            tools.add(new NoteTools(provider));
        }
        if (provider.sessionSlotsConfig().isPresent()) {
            tools.add(new SlotTools(provider));
        }
        if (provider.contextPressureConfig().isPresent()) {
            tools.add(new ToolOutputTools(provider));
        }
        tools.add(new MemoryStatsTools(provider));
        if (provider.crystalStore().isPresent()) {
            tools.add(new MemorySearchTools(provider));
        }
        tools.forEach(bean -> OwnTools.register(provider, bean.getClass())); // whatever bean is added above
        return List.copyOf(tools);
    }

    /**
     * The tools of {@link #all} as a dynamic {@code ToolProvider}, for {@code AiServices.builder(...).toolProvider(...)}
     * in place of {@code tools(all(provider))}: before each model call it offers the caller's memory the tools of
     * the layers that act for it. The session slots' tools ({@code working_memory_add}, ...), some 2,000 characters of
     * specifications on every request, reach a coding agent from the model call after its first compiler, build or
     * test output (or from the start with {@code codingAgent(true)}), and never an assistant that does not code.
     * Use one or the other: given both, LangChain4j keeps every tool of {@code tools(…)} on every request, and the
     * provider saves nothing.
     *
     * @return a provider that registers the tools' names with {@code provider} as {@link #all} does
     */
    public static ToolProvider toolProvider(WorkingMemoryProvider provider) {
        return new MemoryToolProvider(provider, all(provider));
    }

    /**
     * For {@code AiServices.builder(...).toolArgumentsErrorHandler(...)}: when LangChain4j cannot convert a
     * tool call's arguments (they are not JSON, or a value does not fit the parameter's type), the model
     * gets {@code "Error: The arguments of tool '<name>' could not be read: <problem> Received: <arguments>
     * How to fix: <how to call it>"} as the tool's result and can try again. The tool did not run, so
     * nothing changed. Without such a handler {@code AiServices} rethrows the error and the call fails.
     *
     * @return a stateless handler, the same instance on every call
     */
    public static ToolArgumentsErrorHandler argumentsErrorHandler() {
        return ARGUMENTS_ERROR_HANDLER;
    }

    /**
     * For {@code AiServices.builder(...).toolExecutionErrorHandler(...)}: when a tool throws, the model gets
     * {@code "Error: Tool '<name>' failed: <message> How to fix: …"} as the tool's result. The tools of
     * this module never throw; this handler is for the other tools of the same AI service, and replaces
     * LangChain4j's default (which returns the bare exception message and logs a warning).
     *
     * @return a stateless handler, the same instance on every call
     */
    public static ToolExecutionErrorHandler executionErrorHandler() {
        return EXECUTION_ERROR_HANDLER;
    }

    /**
     * For {@code AiServices.builder(...).hallucinatedToolNameStrategy(...)}: when the model calls a tool the AI service
     * does not have, the model gets {@code "Error: There is no tool '<name>' here. How to fix: …"} as the tool's result
     * and goes on. Without it {@code AiServices} throws and the call fails. The memory names only the tools a model has
     * (README, "Tools the model has"), but a model may still call one it read of elsewhere, such as a tool it had in an
     * earlier conversation, or a state document a dream model wrote.
     *
     * @return a stateless strategy, the same instance on every call
     */
    public static Function<ToolExecutionRequest, ToolExecutionResultMessage> hallucinatedToolNameStrategy() {
        return UNKNOWN_TOOL_STRATEGY;
    }

    private static Object scratchpadTools(WorkingMemoryProvider provider, ScratchpadConfig config) {
        return config.json() ? new ScratchpadTools(provider) : new TextScratchpadTools(provider);
    }

    private static ToolErrorHandlerResult argumentsError(Throwable error, ToolErrorContext context) {
        ToolExecutionRequest request = context == null ? null : context.toolExecutionRequest();
        String tool = request == null || request.name() == null ? "?" : request.name();
        String arguments = request == null ? null : request.arguments();
        log.debug("The arguments of tool '{}' could not be read: {}", tool, arguments, error);
        String received = arguments == null ? "no arguments" : Arguments.excerpt(arguments, ARGUMENTS_EXCERPT_CHARS);
        String hint = ARGUMENT_HINTS.getOrDefault(tool,
                "call " + tool + " again with a JSON object whose fields match the tool's parameters");
        return ToolErrorHandlerResult.text(ToolRunner.error(
                MemoryToolNames.UNREADABLE_ARGUMENTS + "'" + tool + "' could not be read: "
                        + ToolRunner.sentence(argumentsProblem(arguments, error))
                        + " Received: " + received + ". The tool did not run and nothing was changed.",
                hint));
    }

    private static ToolExecutionResultMessage unknownTool(ToolExecutionRequest request) {
        String tool = request.name() == null ? "'?'" : Arguments.excerpt(request.name(), ARGUMENTS_EXCERPT_CHARS);
        log.debug("The model called {}, a tool it does not have", tool);
        return ToolExecutionResultMessage.builder().id(request.id()).toolName(request.name())
                .text(ToolRunner.error(MemoryToolNames.UNKNOWN_TOOL + tool + " here. Nothing was run.",
                        "Use only the tools you were given in this request, or continue without it"))
                .isError(true).build();
    }

    private static ToolErrorHandlerResult executionError(Throwable error, ToolErrorContext context) {
        ToolExecutionRequest request = context == null ? null : context.toolExecutionRequest();
        String tool = request == null || request.name() == null ? "?" : request.name();
        log.warn("Tool '{}' failed; reporting the error to the model: {}", tool, String.valueOf(error));
        log.debug("Tool '{}' failed", tool, error);
        return ToolErrorHandlerResult.text(ToolRunner.error(
                "Tool '" + tool + "' failed: " + ToolRunner.sentence(reason(error)),
                "check the arguments and call " + tool + " again, or continue without it"));
    }

    /** Why LangChain4j could not use {@code arguments}: not JSON, not an object, or a value of the wrong type. */
    private static String argumentsProblem(String arguments, Throwable error) {
        if (arguments == null || arguments.isBlank()) {
            return reason(error);
        }
        JsonNode parsed;
        try {
            parsed = JSON.readTree(arguments);
        } catch (JsonProcessingException e) {
            return "they are not valid JSON (" + reason(e) + ")";
        }
        if (parsed == null || !parsed.isObject()) {
            return "they must be a JSON object of named parameters, but " + kind(parsed) + " was sent";
        }
        return "a value does not fit the type of its parameter (" + reason(error) + ")";
    }

    private static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        if (node.isArray()) {
            return "an array";
        }
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        return node.isNull() ? "null" : "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The first line of the innermost message, without Jackson's location details. */
    private static String reason(Throwable error) {
        Throwable cause = error;
        while (cause != null && cause.getCause() != null && cause.getCause() != cause && cause.getMessage() == null) {
            cause = cause.getCause();
        }
        if (cause == null) {
            return "unknown problem";
        }
        String message = cause.getMessage();
        if (message == null || message.isBlank()) {
            return cause.getClass().getSimpleName();
        }
        int newline = message.indexOf('\n');
        String first = newline < 0 ? message : message.substring(0, newline);
        // Jackson puts a location into the first line too: "(start marker at [Source: …; line: 1, column: 1])"
        return JACKSON_LOCATION.matcher(first).replaceAll("").strip();
    }
}
