package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.context.ToolOutputCache;

/**
 * The tool {@code read_tool_output(id, fromLine, lines)}: reads back, a page of lines at a time, the full output of a
 * tool result that the memory pruned (seed 003, tier 3: the pruned text names the id). Pages are at most
 * {@value #MAX_LINES} lines (default {@value #DEFAULT_LINES}), and the context pressure layer never prunes this tool's
 * results. An unknown or swept id, or a line past the end, is answered with an error text.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class ToolOutputTools {

    public static final String READ_TOOL_OUTPUT = ContextPressure.READ_TOOL_OUTPUT;
    static final int DEFAULT_LINES = 100;
    static final int MAX_LINES = 200;
    private static final String FIX = "Pass the id exactly as the pruned output gave it, like {\"id\":"
            + " \"tool-output-20261123T091500Z-3fa9c2d14b7e0a51\", \"fromLine\": 31, \"lines\": 100}.";

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories whose cached outputs the tool reads; a memory without context pressure answers
     *                 every call with an error text
     */
    public ToolOutputTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, ToolOutputTools.class);
    }

    /** The tool {@code read_tool_output} for {@code memoryId}. Never throws. */
    @Tool(name = READ_TOOL_OUTPUT, value = "Reads lines of the full output of a tool result that was pruned for you."
            + " A pruned output ends with the call to use, like read_tool_output(\"tool-output-…\"), and says how many"
            + " lines were cut. Read only the lines you need: give fromLine and lines (at most 200 per call).")
    public String readToolOutput(
            @ToolMemoryId Object memoryId,
            @P(name = "id", value = "The id the pruned output gave, starting with tool-output-.") String id,
            @P(name = "fromLine", value = "The first line to read, counting from 1; default 1.", required = false) Integer fromLine,
            @P(name = "lines", value = "How many lines to read, at most 200; default 100.", required = false) Integer lines) {
        return ToolRunner.run(READ_TOOL_OUTPUT, provider, memoryId, FIX, memory -> read(memory, id, fromLine, lines));
    }

    private static String read(WorkingMemory memory, String id, Integer fromLine, Integer lines) {
        ContextPressure pressure = memory.layer(ContextPressure.class).orElseThrow(() -> new IllegalStateException(
                "This working memory keeps no tool outputs: the WorkingMemoryProvider was built without context pressure."));
        String name = Arguments.required(Arguments.text(id, "id", FIX), "id", FIX).replace("\"", "");
        if (!name.startsWith(ToolOutputCache.PREFIX)) {
            name = ToolOutputCache.PREFIX + name;
        }
        int first = fromLine == null ? 1 : fromLine;
        int count = lines == null ? DEFAULT_LINES : lines;
        if (first < 1) {
            throw new ToolInputException("fromLine must be 1 or more, was " + first + ".", FIX);
        }
        if (count < 1 || count > MAX_LINES) {
            throw new ToolInputException("lines must be from 1 to " + MAX_LINES + ", was " + count + ".", FIX);
        }
        String text = pressure.toolOutput(name).orElseThrow(() -> new ToolInputException("No cached tool output has the id "
                + Arguments.excerpt(id, 80) + "; it may have been swept (the cache keeps recent outputs only).", FIX));
        String[] all = text.split("\n", -1);
        if (first > all.length) {
            throw new ToolInputException("The output has " + all.length + " lines; fromLine " + first + " is past its end.",
                    "Pass a fromLine from 1 to " + all.length + ".");
        }
        int last = Math.min(all.length, first + count - 1);
        StringBuilder out = new StringBuilder("Lines ").append(first).append('-').append(last).append(" of ")
                .append(all.length).append(" of ").append(name).append(":\n");
        for (int i = first - 1; i < last; i++) {
            out.append(all[i]).append('\n');
        }
        if (last < all.length) {
            out.append("[").append(all.length - last).append(" more lines: call ").append(READ_TOOL_OUTPUT)
                    .append(" with fromLine ").append(last + 1).append(".]");
        } else {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }
}
