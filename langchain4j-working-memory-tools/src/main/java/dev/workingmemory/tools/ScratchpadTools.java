package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.scratchpad.ScratchpadConfig;

/**
 * The tool {@code updateWorkingMemory} for a <b>structured</b> scratchpad (seed 002): the model sends a JSON
 * object that is deep-merged into the scratchpad, shown as {@code <scratchpad>} in the block.
 *
 * <p>The parameter {@code update} is a Jackson {@link JsonNode}, so LangChain4j declares it as an object
 * in the tool's schema and models send an object: {@code {"update": {"currentGoal": "Deploy v2"}}}. A string
 * holding a JSON object, {@code {"update": "{\"currentGoal\": \"Deploy v2\"}"}}, works too: LangChain4j
 * parses a string argument of a non-string parameter as JSON. Other values — an array, a number, a string
 * that is JSON but not an object, a missing {@code update} — are answered with a text saying what was
 * received and what is expected. Plain text that is not JSON fails in LangChain4j before the tool runs;
 * {@link WorkingMemoryTools#argumentsErrorHandler()} returns that failure to the model as well.
 *
 * <p>A merged state that fails the schema or grows past {@code maxStateChars}, and any update of a
 * read-only scratchpad, is answered with the reason; the scratchpad keeps its previous state.
 *
 * <p>For a free-text scratchpad use {@link TextScratchpadTools}; {@link WorkingMemoryTools#all} picks the
 * right one.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class ScratchpadTools {

    private static final String FIX = "Call " + WorkingMemoryTools.UPDATE_WORKING_MEMORY + " again with update set to a JSON"
            + " object holding only the keys to change, like {\"update\": {\"currentGoal\": \"Deploy v2\"}};"
            + " the current scratchpad is shown in <scratchpad> of your working memory.";

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories whose scratchpads the tool updates
     * @throws IllegalArgumentException when {@code provider} has no scratchpad, or a free-text one
     */
    public ScratchpadTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, ScratchpadTools.class);
        ScratchpadConfig config = ScratchpadToolsSupport.configOf(provider);
        Checks.that(config.json(), "The provider's scratchpad holds free text: use new TextScratchpadTools(provider),"
                + " or WorkingMemoryTools.all(provider), which picks the tool that fits the scratchpad");
    }

    /**
     * The tool {@code updateWorkingMemory}: deep-merges {@code update} into {@code memoryId}'s scratchpad.
     * Never throws.
     *
     * @return the scratchpad's description of the change ({@code "Updated keys: …"}), or
     *         {@code "Error: … How to fix: …"} (then nothing changed)
     */
    @Tool(name = WorkingMemoryTools.UPDATE_WORKING_MEMORY, value = "Updates your scratchpad: the structured notes shown"
            + " in <scratchpad> of your working memory, kept across the turns of this conversation. Call it whenever your"
            + " goal, plan, completed steps or blockers change, so that later turns know where you are. Send only the keys"
            + " that change: objects are merged key by key, arrays and plain values replace the old value, and null"
            + " removes a key. The scratchpad may follow a schema; an update that breaks it is rejected. Answers with the"
            + " keys updated or removed, or with what was wrong and how to fix it (then nothing was changed).")
    public String updateWorkingMemory(
            @ToolMemoryId Object memoryId,
            @P(name = "update", value = "A JSON object with only the keys to change, for example"
                    + " {\"currentGoal\": \"Deploy v2\", \"completedSteps\": [\"write tests\"]}. It must be an object,"
                    + " not a list, a number or plain text.") JsonNode update) {
        return ToolRunner.run(WorkingMemoryTools.UPDATE_WORKING_MEMORY, provider, memoryId, FIX, memory -> {
            Scratchpad scratchpad = memory.scratchpad();
            ScratchpadToolsSupport.ensureWritable(scratchpad);
            if (update == null || update.isNull() || update.isMissingNode()) {
                throw new ToolInputException("The parameter 'update' is missing.", FIX);
            }
            // A JSON string holding an object is unwrapped by the scratchpad; other kinds are described by it.
            return scratchpad.update(update.toString());
        });
    }
}
