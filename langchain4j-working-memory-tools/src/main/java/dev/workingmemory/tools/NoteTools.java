package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.notes.NoteReceipt;
import dev.workingmemory.notes.NotesConfig;

import java.util.List;

/**
 * The tool {@code working_memory_note(note, importance, tags)} (seed 000): the model writes down what must survive
 * the conversation — a name, a deadline, a preference, a decision. The note is in the notes log when the tool returns
 * (a crash right after loses nothing), every conversation of the user sees it in {@code <unsynthesized_notes>} until a
 * dream consumes it, and {@code memory_search} finds it at once.
 *
 * <p>Answers with the note's timestamp, that it is searchable (naming {@code memory_search} only when a bean of it was
 * made for the provider: a model that calls a tool it was not given makes {@code AiServices} abort the call), how many
 * notes are pending and what the budget
 * archived or deleted to make room. Every problem is answered with a text and changes nothing: an empty note, a note
 * over the size limit (the answer says by how much), an importance outside 0–1, a malformed tag.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class NoteTools {

    private static final String FIX = "Call " + WorkingMemoryTools.WORKING_MEMORY_NOTE + " again with one short fact as"
            + " note, like {\"note\": \"Deadline for the API migration is March 20th\", \"importance\": 0.8}.";

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories the notes go to
     * @throws IllegalArgumentException when {@code provider} was built without notes
     */
    public NoteTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, NoteTools.class);
        Checks.that(provider.notesConfig().isPresent(), "The WorkingMemoryProvider was built without notes, so there is"
                + " nowhere to write them; WorkingMemoryTools.all(provider) leaves this tool out");
    }

    /**
     * The tool {@code working_memory_note}. Never throws.
     *
     * @return the stored note's timestamp and status, or {@code "Error: … How to fix: …"} (then nothing was stored)
     */
    @Tool(name = WorkingMemoryTools.WORKING_MEMORY_NOTE, value = "Writes a note into your long-term memory. Use it when"
            + " the user shares something about themselves, a preference or a correction, a name, a deadline or another"
            + " specific fact, when a decision is made that must survive this conversation, after a significant emotional"
            + " moment, or when the user asks you to remember something. The note is saved at once, shown in"
            + " <unsynthesized_notes> in every later conversation, and kept searchable. One fact per note.")
    public String workingMemoryNote(
            @ToolMemoryId Object memoryId,
            @P(name = "note", value = "The fact to remember, in one or two sentences, understandable without this"
                    + " conversation (say who and what).") String note,
            @P(name = "importance", value = "How important the note is, from 0 to 1; 0.7 when unsure, 0.9 for what must"
                    + " never be forgotten.", required = false) Double importance,
            @P(name = "tags", value = "Optional tags; insight, permanent, personal, decision, architecture and important"
                    + " keep a note from being archived when notes pile up.", required = false) List<String> tags) {
        return ToolRunner.run(WorkingMemoryTools.WORKING_MEMORY_NOTE, provider, memoryId, FIX, memory -> {
            if (note == null) {
                throw new ToolInputException("The parameter 'note' is missing.", FIX);
            }
            NoteReceipt receipt = memory.notes().note(Arguments.text(note, "note", FIX), importance, tags);
            return answer(receipt, memory.notes().config(), provider.crystalStore().isPresent(),
                    provider.memoryToolNames().contains(WorkingMemoryTools.MEMORY_SEARCH));
        });
    }

    private static String answer(NoteReceipt receipt, NotesConfig config, boolean searchable, boolean searchTool) {
        Note note = receipt.note();
        String finder = searchTool ? WorkingMemoryTools.MEMORY_SEARCH : "a search of the memory";
        StringBuilder out = new StringBuilder("Noted at ").append(note.time()).append(" (importance ")
                .append(note.importanceText()).append(note.tags().isEmpty() ? "" : ", tags " + String.join(", ", note.tags()))
                .append(searchable ? "). It is saved and " + finder + " finds it now; "
                        : "). It is saved (this memory keeps no long-term search, so only this block shows it); ").append(receipt.pending())
                .append(receipt.pending() == 1 ? " note is" : " notes are").append(" waiting for the next dream (archiving starts at ")
                .append(config.softLimit()).append(").");
        if (!receipt.archived().isEmpty()) {
            out.append(" To make room, the ").append(receipt.archived().size())
                    .append(searchable ? " oldest notes without a protected tag were archived: " + finder + " still finds them."
                            : " oldest notes without a protected tag were archived: they are no longer shown.");
        }
        if (!receipt.deleted().isEmpty()) {
            out.append(" The notes were at their hard limit of ").append(config.hardLimit()).append(": the ")
                    .append(receipt.deleted().size()).append(" oldest were deleted.");
        }
        return out.toString();
    }
}
