package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.context.PressureStats;
import dev.workingmemory.context.ToolOutputCache;

import java.util.Arrays;

/**
 * The tool {@code read_tool_output(id, fromLine, lines, fromChar)}: reads back, a page at a time, the full output of
 * a tool result that the memory pruned (seed 003, tier 3: the pruned text names the id). Pages are at most
 * {@value #MAX_LINES} lines (default {@value #DEFAULT_LINES}) and at most {@link #pageChars} characters: the context
 * pressure layer never prunes this tool's results, so a page of one 28,000-character line of JSON would stay whole in
 * every request. A page also fits the room the memory's last request left in the context window, less the pages
 * read since ({@link ContextPressure#claimRoom}, a token taken as three characters): the pages one turn reads stay in
 * its requests, and four pages of a quarter of a small window each took a request to twice the window, three read in
 * parallel by one answer each took all the room. When less than {@value #MIN_PAGE_CHARS} characters are left, the
 * answer says so instead of a page. A line longer than a page is read in slices ({@code fromChar}). An unknown or
 * swept id, or a line past the end, is answered with an error text. Lines are numbered as the pruned output numbers
 * them: a text that ends with a line break has no empty last line.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class ToolOutputTools {

    /** The tool that reads a page of a cached full output back. */
    public static final String READ_TOOL_OUTPUT = ContextPressure.READ_TOOL_OUTPUT;
    static final int DEFAULT_LINES = 100;
    static final int MAX_LINES = 200;
    static final int MIN_PAGE_CHARS = 1_000;
    static final int MAX_PAGE_CHARS = 16_000;
    /** Characters per token when sizing a page to the room left: fewer than prose's four, for code and JSON. */
    static final int CHARS_PER_TOKEN = 3;
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

    /**
     * The most characters of one page for a model of {@code contextWindowTokens}: about a quarter of a small window
     * (a token is three to four characters), 1,000 at least and 16,000 (some 4,000 tokens) at most.
     */
    static int pageChars(int contextWindowTokens) {
        return Math.max(MIN_PAGE_CHARS, Math.min(MAX_PAGE_CHARS, contextWindowTokens));
    }

    /** The tool {@code read_tool_output} for {@code memoryId}. Never throws. */
    @Tool(name = READ_TOOL_OUTPUT, value = "Reads lines of the full output of a tool result that was pruned for you."
            + " A pruned output ends with the call to use, like read_tool_output(\"tool-output-…\"), and says how many"
            + " lines were cut. Read only the lines you need: give fromLine and lines (at most 200 per call). A line"
            + " longer than a page is read in parts: the answer gives the fromChar to go on with.")
    public String readToolOutput(
            @ToolMemoryId Object memoryId,
            @P(name = "id", value = "The id the pruned output gave, starting with tool-output-.") String id,
            @P(name = "fromLine", value = "The first line to read, counting from 1; default 1.", required = false) Integer fromLine,
            @P(name = "lines", value = "How many lines to read, at most 200; default 100.",
                    required = false) Integer lines,
            @P(name = "fromChar", value = "Where to start in the first line, counting from 1; default 1.",
                    required = false) Integer fromChar) {
        return ToolRunner.run(READ_TOOL_OUTPUT, provider, memoryId, FIX,
                memory -> read(memory, id, fromLine, lines, fromChar, pageChars(provider.contextWindow())));
    }

    private static String read(WorkingMemory memory, String id, Integer fromLine, Integer lines, Integer fromChar,
                               int pageChars) {
        ContextPressure pressure = memory.layer(ContextPressure.class).orElseThrow(() -> new IllegalStateException(
                "This working memory keeps no tool outputs: the WorkingMemoryProvider was built without context pressure."));
        String name = Arguments.required(Arguments.text(id, "id", FIX), "id", FIX).replace("\"", "");
        if (!name.startsWith(ToolOutputCache.PREFIX)) {
            name = ToolOutputCache.PREFIX + name;
        }
        int first = fromLine == null ? 1 : fromLine;
        int count = lines == null ? DEFAULT_LINES : lines;
        int firstChar = fromChar == null ? 1 : fromChar;
        if (first < 1) {
            throw new ToolInputException("fromLine must be 1 or more, was " + first + ".", FIX);
        }
        if (count < 1 || count > MAX_LINES) {
            throw new ToolInputException("lines must be from 1 to " + MAX_LINES + ", was " + count + ".", FIX);
        }
        if (firstChar < 1) {
            throw new ToolInputException("fromChar must be 1 or more, was " + firstChar + ".", FIX);
        }
        String text = pressure.toolOutput(name).orElseThrow(() -> new ToolInputException("No cached tool output has the id "
                + Arguments.excerpt(id, 80) + "; it may have been swept (the cache keeps recent outputs only).", FIX));
        String[] all = text.split("\n", -1);
        if (all.length > 1 && all[all.length - 1].isEmpty()) {
            all = Arrays.copyOf(all, all.length - 1); // the pruner counts no line after the last line break
        }
        if (first > all.length) {
            throw new ToolInputException("The output has " + all.length + " lines; fromLine " + first + " is past its end.",
                    "Pass a fromLine from 1 to " + all.length + ".");
        }
        String line = all[first - 1];
        if (firstChar > 1 && firstChar > line.length()) {
            throw new ToolInputException("Line " + first + " has " + line.length() + " characters; fromChar "
                    + firstChar + " is past its end.", "Pass a fromChar from 1 to " + Math.max(1, line.length()) + ".");
        }
        // claimed only for a call that reads: a call answered with an error takes no room from the pages after it
        pageChars = pressure.claimRoom(pageChars, MIN_PAGE_CHARS, CHARS_PER_TOKEN);
        if (pageChars == 0) {
            PressureStats stats = pressure.stats();
            throw new ToolInputException("The context is nearly full: no page of the output fits (the last request took "
                    + Math.round(100.0 * stats.sentTokens() / stats.contextWindow()) + "% of " + stats.contextWindow()
                    + " tokens, and the pages read since then take the rest).",
                    "Answer from what you have read; once older turns have left the window, read fewer lines at a time");
        }
        if (line.length() - (firstChar - 1) > pageChars) {
            return slice(name, all.length, first, line, firstChar - 1, pageChars);
        }
        int last = first;
        int used = line.length() - (firstChar - 1);
        while (last < all.length && last < first + count - 1 && used + 1 + all[last].length() <= pageChars) {
            used += 1 + all[last].length();
            last++;
        }
        StringBuilder out = new StringBuilder("Lines ").append(first);
        if (firstChar > 1) {
            out.append(" (from character ").append(firstChar).append(')');
        }
        out.append('-').append(last).append(" of ").append(all.length).append(" of ").append(name).append(":\n")
                .append(line, firstChar - 1, line.length()).append('\n');
        for (int i = first; i < last; i++) {
            out.append(all[i]).append('\n');
        }
        if (last < all.length) {
            out.append("[").append(all.length - last).append(" more lines: call ").append(READ_TOOL_OUTPUT)
                    .append(" with fromLine ").append(last + 1).append(last < first + count - 1
                            ? "; a page holds at most " + pageChars + " characters.]" : ".]");
        } else {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }

    /** A slice of a line longer than a page: {@code pageChars} characters from {@code from}, never half a pair. */
    private static String slice(String name, int lineCount, int lineNumber, String line, int from, int pageChars) {
        int end = from + pageChars;
        if (Character.isHighSurrogate(line.charAt(end - 1))) {
            end--;
        }
        return "Line " + lineNumber + " of " + lineCount + " of " + name + ", characters " + (from + 1) + "-" + end
                + " of " + line.length() + ":\n" + line.substring(from, end) + "\n[Line " + lineNumber
                + " goes on: call " + READ_TOOL_OUTPUT + " with fromLine " + lineNumber + " and fromChar " + (end + 1)
                + ".]";
    }
}
