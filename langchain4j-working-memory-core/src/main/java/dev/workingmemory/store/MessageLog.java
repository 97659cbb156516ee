package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;

import java.util.List;

/**
 * What {@link WorkingMemoryStore#messages} read of a message log: the entries after a position, oldest first, and the
 * position of the last entry ever appended (trimmed or not).
 *
 * <p>Immutable and thread-safe.
 *
 * @param lastSeq the seq of the last entry appended to the log, {@code 0} when there is none (or it was deleted)
 * @param entries the entries read, in increasing seq order, none beyond {@code lastSeq}
 */
public record MessageLog(long lastSeq, List<Entry> entries) {

    /** An empty log. */
    public static final MessageLog EMPTY = new MessageLog(0, List.of());

    /**
     * Copies {@code entries}; a negative {@code lastSeq}, a null list, or entries not in increasing seq order or beyond
     * {@code lastSeq} is an {@link IllegalArgumentException}.
     */
    public MessageLog {
        // messages built on failure only: an in-memory store makes a log per append
        Ensure.that(lastSeq >= 0, () -> "lastSeq must not be negative, was " + lastSeq);
        entries = List.copyOf(Ensure.notNull(entries, "entries")); // no copy of a list made by List.of or copyOf
        long previous = 0;
        for (int i = 0; i < entries.size(); i++) {
            long seq = entries.get(i).seq();
            if (seq <= previous || seq > lastSeq) {
                throw new IllegalArgumentException("entries must be in increasing seq order, none beyond lastSeq "
                        + lastSeq);
            }
            previous = seq;
        }
    }

    /**
     * Rejects what {@link WorkingMemoryStore#appendMessages} must refuse: a negative expected seq, no entries, a null
     * entry. For store implementations.
     *
     * @return {@code entries}
     */
    public static List<MessageLogEntry> checkAppend(long expectedLastSeq, List<MessageLogEntry> entries) {
        Ensure.that(expectedLastSeq >= 0, () -> "expectedLastSeq must not be negative, was " + expectedLastSeq);
        Ensure.notNull(entries, "entries");
        Ensure.that(!entries.isEmpty(), "Append at least one entry");
        for (int i = 0; i < entries.size(); i++) {
            Ensure.notNull(entries.get(i), "entry");
        }
        return entries;
    }

    /**
     * One stored entry and its position in the log.
     *
     * @param seq   1 for the first entry of a log, each append numbering on from the last entry appended
     * @param entry what the entry says
     */
    public record Entry(long seq, MessageLogEntry entry) {

        /** Rejects a {@code seq} below 1 or a null {@code entry} with an {@link IllegalArgumentException}. */
        public Entry {
            Ensure.that(seq > 0, () -> "seq must be positive, was " + seq);
            Ensure.notNull(entry, "entry");
        }
    }
}
