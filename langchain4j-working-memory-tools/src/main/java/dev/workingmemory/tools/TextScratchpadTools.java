package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.scratchpad.ScratchpadConfig;

/**
 * The tool {@code updateWorkingMemory} for a <b>free-text</b> scratchpad (seed 002 without a schema): the
 * text the model sends replaces the scratchpad, shown as {@code <scratchpad>} in the block; an empty string
 * clears it (back to the template, if one is configured).
 *
 * <p>The parameter {@code update} is a {@code String}, so the tool's schema asks for a string. LangChain4j
 * converts any other JSON value to text before the tool runs; an object arrives in Java's map notation
 * ({@code {a=1}}) and is rejected with a text asking for plain text, so that such an accident does not
 * overwrite the notes. A missing {@code update}, text over {@code maxStateChars} and any update of a
 * read-only scratchpad are answered with the reason; the scratchpad keeps its previous text.
 *
 * <p>For a structured scratchpad use {@link ScratchpadTools}; {@link WorkingMemoryTools#all} picks the
 * right one.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class TextScratchpadTools {

    private static final String FIX = "Call " + WorkingMemoryTools.UPDATE_WORKING_MEMORY + " again with update set to the"
            + " complete new scratchpad text as a plain string, like {\"update\": \"Goal: deploy v2. Done: tests.\"}.";

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories whose scratchpads the tool rewrites
     * @throws IllegalArgumentException when {@code provider} has no scratchpad, or a structured one
     */
    public TextScratchpadTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, TextScratchpadTools.class);
        ScratchpadConfig config = ScratchpadToolsSupport.configOf(provider);
        Checks.that(!config.json(), "The provider's scratchpad is structured (JSON): use new ScratchpadTools(provider),"
                + " or WorkingMemoryTools.all(provider), which picks the tool that fits the scratchpad");
    }

    /**
     * The tool {@code updateWorkingMemory}: replaces the text of {@code memoryId}'s scratchpad. Never throws.
     *
     * @return the scratchpad's description of the change, or {@code "Error: … How to fix: …"} (then nothing changed)
     */
    @Tool(name = WorkingMemoryTools.UPDATE_WORKING_MEMORY, value = "Rewrites your scratchpad: the free-text notes shown in"
            + " <scratchpad> of your working memory, kept across the turns of this conversation. Call it whenever your goal,"
            + " plan or progress changes, so that later turns know where you are. The text you send replaces the whole"
            + " scratchpad, so include everything worth keeping. Answers with what changed, or with what was wrong and how"
            + " to fix it (then nothing was changed).")
    public String updateWorkingMemory(
            @ToolMemoryId Object memoryId,
            @P(name = "update", value = "The complete new scratchpad text, as a plain string. An empty string clears the"
                    + " scratchpad.") String update) {
        return ToolRunner.run(WorkingMemoryTools.UPDATE_WORKING_MEMORY, provider, memoryId, FIX, memory -> {
            Scratchpad scratchpad = memory.scratchpad();
            ScratchpadToolsSupport.ensureWritable(scratchpad);
            if (update == null) {
                throw new ToolInputException("The parameter 'update' is missing.", FIX);
            }
            return scratchpad.update(Arguments.text(update, "update", FIX));
        });
    }
}
