package dev.workingmemory.crystal;

import java.util.Locale;

/**
 * What a {@link Crystal} was made from. Each kind has a stable lower-case {@link #textName() text name}, used in
 * stored records, index fields and what the model reads; it never changes once released.
 *
 * <p>Immutable and thread-safe.
 */
public enum CrystalKind {

    /** A note the agent took ({@code working_memory_note}). */
    NOTE("note"),
    /** A message of a turn that left the message window. */
    TURN("turn"),
    /** A note archived out of the notes log by the budget. */
    ARCHIVED_NOTE("archived_note"),
    /** A chunk of a hand-written MEMORY.md migrated when the memory was first used. */
    MIGRATED("migrated"),
    /** An excerpt of a tool result that was pruned from the window. */
    TOOL_OUTPUT("tool_output"),
    /** A topic a dream consolidated and moved out of the state document. */
    TOPIC("topic");

    private final String textName;

    CrystalKind(String textName) {
        this.textName = textName;
    }

    /** @return the stable lower-case name, e.g. {@code archived_note} */
    public String textName() {
        return textName;
    }

    /**
     * @param textName a name returned by {@link #textName()} (case is ignored)
     * @return the kind of that name
     * @throws IllegalArgumentException when no kind has that name
     */
    public static CrystalKind fromTextName(String textName) {
        if (textName != null) {
            String lower = textName.toLowerCase(Locale.ROOT);
            for (CrystalKind kind : values()) {
                if (kind.textName.equals(lower)) {
                    return kind;
                }
            }
        }
        throw new IllegalArgumentException("Unknown crystal kind '" + textName + "'; known: note, turn, "
                + "archived_note, migrated, tool_output, topic");
    }
}
