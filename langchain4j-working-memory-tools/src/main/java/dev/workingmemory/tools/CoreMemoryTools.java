package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.blocks.CoreMemory;
import dev.workingmemory.render.BlockText;

import java.util.List;
import java.util.function.Supplier;

/**
 * The tools {@code core_memory_update} and {@code core_memory_read} (seed 003, tier 1): the model keeps its
 * core memory blocks — by default {@code goal}, {@code progress} and {@code context} — up to date, and
 * sees them as {@code <core_memory><goal chars="87/1000">…</goal>…</core_memory>} in the block.
 *
 * <p>{@code core_memory_update(block, operation, content)}: {@code operation} is {@code replace} (the
 * content becomes the block) or {@code append} (the content is added on a new line). Block and operation
 * are matched ignoring case and surrounding spaces. Every problem is answered with a text and changes
 * nothing: a missing parameter; an unknown block (the answer lists the valid ones); an unknown operation;
 * content that would take the block past its limit (the answer gives the limit, the size it would have and
 * by how much it is over); {@code append} with empty content; content that arrived as a JSON object
 * (LangChain4j hands a string parameter Java's {@code toString()} of other JSON values, see the module
 * README). {@code replace} with empty content empties the block.
 *
 * <p>{@code core_memory_read()}: every block, empty ones included, as {@code <name chars="n/limit">…</name>},
 * its content escaped like in the block.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class CoreMemoryTools {

    private static final String UPDATE = WorkingMemoryTools.CORE_MEMORY_UPDATE;
    private static final String READ = WorkingMemoryTools.CORE_MEMORY_READ;
    private static final String OPERATION_FIX = "Use operation 'replace' to overwrite the whole block, or 'append' to add"
            + " the content as a new line at its end.";
    private static final String CONTENT_FIX = "Pass content as a plain string, like {\"block\": \"goal\", \"operation\":"
            + " \"replace\", \"content\": \"Ship v2 by Friday\"}.";
    private static final String OVERFLOW_FIX = "Call " + UPDATE + " again with shorter content, or use operation"
            + " 'replace' with a summary of the whole block.";

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories the tools read and write
     * @throws IllegalArgumentException when {@code provider} was built without core memory
     */
    public CoreMemoryTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, CoreMemoryTools.class);
        Checks.that(provider.coreMemoryConfig().isPresent(), "The WorkingMemoryProvider was built without core memory,"
                + " so there is nothing for these tools to read or write; WorkingMemoryTools.all(provider) leaves them out");
    }

    /**
     * The tool {@code core_memory_update}: replaces or appends to one block of {@code memoryId}'s core memory.
     * Never throws.
     *
     * @return what changed, or {@code "Error: … How to fix: …"} (then nothing changed)
     */
    @Tool(name = WorkingMemoryTools.CORE_MEMORY_UPDATE, value = "Writes one block of your core memory, which is shown in"
            + " <core_memory> of your working memory on every turn and survives when old messages are dropped. The blocks"
            + " are, by default: goal = the one task you are working on; progress = what is done, in progress and"
            + " blocked; context = the files, names and facts you need for the task. Call it when the task changes, a"
            + " step is finished or you learn something you must not lose. Each block has a character limit, shown as"
            + " chars=\"used/limit\"; when a block is nearly full, replace it with a shorter summary. Answers with the"
            + " block's new size, or with what was wrong and how to fix it (then nothing was changed).")
    public String coreMemoryUpdate(
            @ToolMemoryId Object memoryId,
            @P(name = "block", value = "The block to write: goal, progress or context, or another block listed by"
                    + " core_memory_read.") String block,
            @P(name = "operation", value = "'replace' to overwrite the whole block with content, or 'append' to add"
                    + " content as a new line at the end of the block.") String operation,
            @P(name = "content", value = "The text to write, as a plain string.") String content) {
        return ToolRunner.run(UPDATE, provider, memoryId, OVERFLOW_FIX, memory -> {
            CoreMemory core = memory.coreMemory();
            String name = blockName(core, block);
            String op = Arguments.name(operation, "operation", OPERATION_FIX);
            if (content == null) {
                throw new ToolInputException("The parameter 'content' is missing.", CONTENT_FIX);
            }
            String text = Arguments.text(content, "content", CONTENT_FIX);
            switch (op) {
                case "replace" -> {
                    CoreBlock current = core.read(name);
                    rejectOverflow(current, text.length(), "Send content of at most " + current.maxChars()
                            + " chars: a summary of what the block must keep.");
                    CoreBlock written = write(() -> core.replace(name, text));
                    return (text.isEmpty() ? "Emptied block '" + name + "'" : "Replaced block '" + name + "'")
                            + " (" + size(written) + ").";
                }
                case "append" -> {
                    if (text.isEmpty()) {
                        throw new ToolInputException("The content to append is empty, so there is nothing to append.",
                                CONTENT_FIX);
                    }
                    CoreBlock current = core.read(name);
                    int separator = current.chars() == 0 ? 0 : 1;
                    int room = current.maxChars() - current.chars() - separator;
                    rejectOverflow(current, current.chars() + separator + text.length(), room > 0
                            ? "Append at most " + room + " chars, or use operation 'replace' with a shorter summary of the whole block."
                            : "The block is full: use operation 'replace' with a shorter summary of the whole block.");
                    CoreBlock written = write(() -> core.append(name, text));
                    return "Appended to block '" + name + "' (" + size(written) + ").";
                }
                default -> throw new ToolInputException("Unknown operation " + Arguments.excerpt(operation) + ".",
                        OPERATION_FIX);
            }
        });
    }

    /**
     * The tool {@code core_memory_read}: every block of {@code memoryId}'s core memory with its size. Never throws.
     *
     * @return {@code "Core memory blocks:"} and one {@code <name chars="n/limit">…</name>} line per block
     */
    @Tool(name = WorkingMemoryTools.CORE_MEMORY_READ, value = "Reads every block of your core memory with its content and"
            + " its size as chars=\"used/limit\", empty blocks included (those are not shown in <core_memory>). Call it to"
            + " see which blocks exist and how much room each has left before you write with core_memory_update.")
    public String coreMemoryRead(@ToolMemoryId Object memoryId) {
        return ToolRunner.run(READ, provider, memoryId, null, memory -> {
            List<CoreBlock> blocks = memory.coreMemory().blocks();
            StringBuilder out = new StringBuilder("Core memory blocks:");
            for (CoreBlock block : blocks) {
                out.append('\n').append('<').append(block.name()).append(" chars=\"").append(block.chars()).append('/')
                        .append(block.maxChars()).append("\">").append(BlockText.escape(block.content()))
                        .append("</").append(block.name()).append('>');
            }
            return out.toString();
        });
    }

    /** The configured block that {@code block} names (ignoring case and spaces), or a text listing the valid ones. */
    private static String blockName(CoreMemory core, String block) {
        List<String> names = core.blockNames();
        String fix = "Use one of the blocks: " + String.join(", ", names) + ".";
        String wanted = Arguments.name(block, "block", fix);
        if (!names.contains(wanted)) {
            throw new ToolInputException("Unknown core memory block " + Arguments.excerpt(block) + ". Valid blocks: "
                    + String.join(", ", names) + ".", fix);
        }
        return wanted;
    }

    /** Rejects a write that would take {@code block} to {@code size} chars, past its limit. */
    private static void rejectOverflow(CoreBlock block, int size, String fix) {
        if (size > block.maxChars()) {
            throw new ToolInputException("Block '" + block.name() + "' would hold " + size + " chars, over its limit of "
                    + block.maxChars() + " by " + (size - block.maxChars()) + ". Nothing was changed.", fix);
        }
    }

    /**
     * Runs a write; the memory's own rejection (a block over its limit, when another call of the same memory
     * filled it since {@link #rejectOverflow} looked) becomes a text for the model.
     */
    private static CoreBlock write(Supplier<CoreBlock> write) {
        try {
            return write.get();
        } catch (IllegalArgumentException e) {
            throw new ToolInputException(ToolRunner.sentence(e.getMessage()) + " Nothing was changed.", OVERFLOW_FIX);
        }
    }

    private static String size(CoreBlock block) {
        return block.chars() + "/" + block.maxChars() + " chars, " + (block.maxChars() - block.chars()) + " left";
    }
}
