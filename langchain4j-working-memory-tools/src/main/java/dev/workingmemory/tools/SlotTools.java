package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.slots.SessionItem;
import dev.workingmemory.slots.SessionSlots;

import java.util.ArrayList;
import java.util.List;

/**
 * The tools {@code working_memory_add}, {@code working_memory_clear}, {@code working_memory_clear_slot} and
 * {@code working_memory_remove} (seed 003, tier 2): the model keeps the {@code <session>} part of its working memory
 * — the slots {@code error}, {@code decision}, {@code todo}, {@code dependency} and the decaying {@code pool} —
 * beside what the memory extracts by itself.
 *
 * <p>Slot names are matched ignoring case and surrounding spaces, and the plural the block shows ({@code errors})
 * is accepted. Every problem is answered with a text and changes nothing: a missing or unknown slot (the answer
 * lists the valid ones), empty content, content over the item limit, content that arrived as a JSON object, a
 * memory without session slots, text to remove that matches no item or is part of several.
 * {@code working_memory_remove} removes the items equal to the text (ignoring case, spacing and trailing
 * punctuation), else the one item containing it. Writes are saved before the tool answers.
 *
 * <p>Thread-safe: one instance serves every memory id; it holds nothing but the provider.
 */
public final class SlotTools implements LayerTools {

    /** The tool that adds one item to a slot or the pool. */
    public static final String WORKING_MEMORY_ADD = "working_memory_add";
    /** The tool that empties every slot and the pool. */
    public static final String WORKING_MEMORY_CLEAR = "working_memory_clear";
    /** The tool that empties one slot (or the pool). */
    public static final String WORKING_MEMORY_CLEAR_SLOT = MemoryToolNames.WORKING_MEMORY_CLEAR_SLOT;
    /** The tool that removes one item by its text. */
    public static final String WORKING_MEMORY_REMOVE = MemoryToolNames.WORKING_MEMORY_REMOVE;

    private static final String CONTENT_FIX = "Pass content as a plain string of one short line, like {\"slot\": \"decision\","
            + " \"content\": \"Use PostgreSQL for orders\"}.";
    private static final String REMOVE_FIX = "Pass the text of one item as <session> shows it, or a part of it that only"
            + " that item contains.";
    private static final int ECHO_CHARS = 80;

    private final WorkingMemoryProvider provider;

    /**
     * @param provider the memories the tools read and write; a memory without the {@link SessionSlots} layer answers
     *                 every call with an error text
     */
    public SlotTools(WorkingMemoryProvider provider) {
        this.provider = OwnTools.register(provider, SlotTools.class);
    }

    /** The session slots: offered by {@link WorkingMemoryTools#toolProvider} once the session acts. */
    @Override
    public Class<? extends MemoryLayer> layer() {
        return SessionSlots.class;
    }

    /**
     * The tool {@code working_memory_add}: adds an item to a slot or the pool of {@code memoryId}. Never throws.
     *
     * @return what changed, or {@code "Error: … How to fix: …"} (then nothing changed)
     */
    @Tool(name = WORKING_MEMORY_ADD, value = "Adds one short item to the <session> part of your working memory, shown on"
            + " every turn. Slots: error = an error still to fix; decision = something decided (by the user or you) that"
            + " later steps must respect; todo = work still to do; dependency = a package or file the work depends on;"
            + " pool = anything else worth keeping for a while (it fades unless it is mentioned again). Each slot keeps"
            + " its newest items up to its limit, shown as (used/limit); a full slot drops its oldest item. Errors,"
            + " decisions, todos and files are also picked up by themselves, so add what was missed or said differently.")
    public String workingMemoryAdd(
            @ToolMemoryId Object memoryId,
            @P(name = "slot", value = "error, decision, todo, dependency or pool") String slot,
            @P(name = "content", value = "The item, one short line of plain text.") String content) {
        return ToolRunner.run(WORKING_MEMORY_ADD, provider, memoryId, CONTENT_FIX, memory -> {
            SessionSlots session = session(memory);
            String name = slotName(session, slot);
            if (content == null) {
                throw new ToolInputException("The parameter 'content' is missing.", CONTENT_FIX);
            }
            String text = Arguments.text(content, "content", CONTENT_FIX).strip();
            if (text.isEmpty()) {
                throw new ToolInputException("The content is empty, so there is nothing to add.", CONTENT_FIX);
            }
            int limit = session.config().maxItemChars();
            if (text.length() > limit) {
                throw new ToolInputException("The content has " + text.length() + " chars, over the item limit of " + limit
                        + ". Nothing was changed.", "Shorten it to at most " + limit + " chars: one line that says what to keep.");
            }
            SessionSlots.Added added = session.add(name, text);
            return describe(name, added);
        });
    }

    /**
     * The tool {@code working_memory_clear}: empties every slot and the pool of {@code memoryId}. Never throws.
     */
    @Tool(name = WORKING_MEMORY_CLEAR, value = "Empties the whole <session> part of your working memory: every slot and"
            + " the pool. Call it when the user starts a different task and nothing in it applies any more.")
    public String workingMemoryClear(@ToolMemoryId Object memoryId) {
        return ToolRunner.run(WORKING_MEMORY_CLEAR, provider, memoryId, null, memory -> {
            int removed = session(memory).clear();
            return removed == 0 ? "The session was already empty." : "Removed " + items(removed) + "; every slot and the pool are empty.";
        });
    }

    /**
     * The tool {@code working_memory_clear_slot}: empties one slot (or the pool) of {@code memoryId}. Never throws.
     */
    @Tool(name = WORKING_MEMORY_CLEAR_SLOT, value = "Empties one slot of the <session> part of your working memory, for"
            + " example error once every error in it is fixed, or todo once the work is done.")
    public String workingMemoryClearSlot(
            @ToolMemoryId Object memoryId,
            @P(name = "slot", value = "error, decision, todo, dependency or pool") String slot) {
        return ToolRunner.run(WORKING_MEMORY_CLEAR_SLOT, provider, memoryId, null, memory -> {
            SessionSlots session = session(memory);
            String name = slotName(session, slot);
            int removed = session.clearSlot(name);
            return removed == 0 ? "The slot '" + name + "' was already empty." : "Removed " + items(removed) + " from '" + name + "'.";
        });
    }

    /**
     * The tool {@code working_memory_remove}: removes items of {@code memoryId}'s session by their text. Never throws.
     */
    @Tool(name = WORKING_MEMORY_REMOVE, value = "Removes one item from the <session> part of your working memory by its"
            + " text, for example an error you fixed or a todo you finished. Pass the item's text as shown, or a part of it"
            + " that only that item contains.")
    public String workingMemoryRemove(
            @ToolMemoryId Object memoryId,
            @P(name = "content", value = "The item's text, or a part of it that only that item contains.") String content) {
        return ToolRunner.run(WORKING_MEMORY_REMOVE, provider, memoryId, REMOVE_FIX, memory -> {
            SessionSlots session = session(memory);
            String text = Arguments.required(Arguments.text(content, "content", REMOVE_FIX), "content", REMOVE_FIX);
            List<SessionItem> removed = session.remove(text);
            if (removed.isEmpty()) {
                throw new ToolInputException("No item matches " + Arguments.excerpt(text, ECHO_CHARS)
                        + ", so nothing was removed.", REMOVE_FIX);
            }
            List<String> shown = new ArrayList<>(removed.size());
            for (SessionItem item : removed) {
                shown.add(item.slot() + ": " + Arguments.excerpt(item.content(), ECHO_CHARS));
            }
            return "Removed " + String.join("; ", shown) + ".";
        });
    }

    private static SessionSlots session(WorkingMemory memory) {
        return memory.layer(SessionSlots.class).orElseThrow(() -> new ToolInputException(
                "This working memory has no session slots: the application did not enable them.",
                "Continue without the working_memory_add, working_memory_clear, working_memory_clear_slot and"
                        + " working_memory_remove tools."));
    }

    private static String slotName(SessionSlots session, String slot) {
        String fix = "Use one of the slots: " + session.validSlots() + ".";
        Arguments.required(slot, "slot", fix);
        return session.slotFor(slot).orElseThrow(() -> new ToolInputException(
                "Unknown slot " + Arguments.excerpt(slot) + ". Valid slots: " + session.validSlots() + ".", fix));
    }

    private static String describe(String slot, SessionSlots.Added added) {
        String echo = Arguments.excerpt(added.item().content(), ECHO_CHARS);
        if (SessionSlots.POOL.equals(slot)) {
            return added.repeated()
                    ? "Already kept: " + echo + " counts as new again."
                    : "Added to the pool (" + items(added.size()) + "): " + echo + ". It fades unless it is mentioned again."
                    + dropped(added.dropped(), "the pool was full, so its least relevant item went");
        }
        String count = " (" + added.size() + "/" + added.limit() + ")";
        return (added.repeated() ? "Already in '" + slot + "'; moved it to the top" + count + ": " + echo + "."
                : "Added to '" + slot + "'" + count + ": " + echo + ".")
                + dropped(added.dropped(), "the slot was full, so its oldest item went");
    }

    private static String dropped(List<String> dropped, String why) {
        if (dropped.isEmpty()) {
            return "";
        }
        List<String> shown = dropped.stream().map(item -> Arguments.excerpt(item, ECHO_CHARS)).toList();
        return " Note: " + why + ": " + String.join(", ", shown) + ".";
    }

    private static String items(int count) {
        return count == 1 ? "1 item" : count + " items";
    }
}
