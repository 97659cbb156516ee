package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.event.SaveFailed;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.store.MessageLog;
import dev.workingmemory.store.MessageLogEntry;
import dev.workingmemory.store.MessageLogEntry.Added;
import dev.workingmemory.store.MessageLogEntry.Cleared;
import dev.workingmemory.store.MessageLogEntry.Evicted;
import dev.workingmemory.store.VersionConflictException;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * A conversation kept in the {@link WorkingMemoryStore}'s message log of the memory's thread key: the window is what
 * replaying the log's entries ({@link MessageLogEntry}) builds, so every application instance, and every restart,
 * holds the same window and evicts the same messages in the same order.
 *
 * <p><b>Several instances.</b> Each change is an append that names the last entry this instance took in
 * ({@link WorkingMemoryStore#appendMessages}, a compare-and-set): when another instance appended meanwhile, this one
 * takes in its entries first and appends after them, so no message is lost or reordered. Before each use, as often as
 * the provider's store check allows, {@link #refresh()} compares the log's last seq with the one held here (one cheap
 * call) and takes in what is new. Messages taken in from the log are not observed by the layers (the instance that added
 * them did), but the messages they push out of the window are evicted here too: every instance that holds the
 * conversation makes the same past turns, with the same crystal ids, so the crystal store keeps each once. A log found
 * deleted since (its last seq below the one held here: the resource was forgotten, or the thread deleted) is not taken
 * in: {@link MemoryForgottenException}, so that nothing derived from the deleted turns is written again.
 *
 * <p><b>Bounded.</b> The log keeps the window and at least the last {@value #RETAINED} messages that left it; once
 * {@value #TRIM_AT} have, the older ones are trimmed, cut before a user message so that the log starts with a whole
 * exchange. The retained ones are a margin for the crystal store: a memory loaded from the log evicts them again, so a
 * past turn that a crash kept from being recorded is made again (same id: replaced, not doubled). One turn longer than
 * {@value #MAX_EVICTED} evicted messages is cut inside (its retained part may then become a past turn of its own when
 * loaded again). Entries before a clear are trimmed at once.
 *
 * <p>Not thread-safe: guarded by the memory's thread lock.
 */
public final class LoggedConversation implements Conversation {

    private static final Logger log = LoggerFactory.getLogger(LoggedConversation.class);

    /** Messages that left the window kept in the log, so that a memory loaded after a crash makes their past turns. */
    static final int RETAINED = 16;
    /** Messages that left the window at which the log is trimmed down to {@link #RETAINED}. */
    static final int TRIM_AT = 2 * RETAINED;
    /** Evicted messages of one turn at which the log is trimmed inside that turn. */
    static final int MAX_EVICTED = 256;
    /** Appends in a row that met another instance's append before one gives up. */
    private static final int MAX_CONFLICTS = 64;

    private final WorkingMemoryStore store;
    private final String key;
    private final MessageWindow window;
    private final Clock clock;
    private final StoreCheck storeCheck;
    private final WorkingMemoryListener listener;
    /** The message entries in the log since its start or its last clear: the window holds the last of them. */
    private final Entries entries = new Entries();
    /** The seq of the last entry taken in or appended. */
    private long seen;
    /** When the log was last checked ({@link StoreCheck#now()}). */
    private long checkedAt;
    /** The entry that set the system message; 0 when there is none. */
    private long systemSeq;
    /** The last entry that no longer matters to the window (before a clear); 0 for none. */
    private long deadThrough;
    /** Entries up to this seq are known to be trimmed. */
    private long trimmedThrough;

    private LoggedConversation(WorkingMemoryStore store, String key, MessageWindow window, Clock clock,
                               StoreCheck storeCheck, WorkingMemoryListener listener) {
        this.store = store;
        this.key = key;
        this.window = window;
        this.clock = clock;
        this.storeCheck = storeCheck;
        this.listener = listener;
    }

    /**
     * The conversations of a provider on {@code store}, each under its thread key ({@link MemoryKey#threadStoreKey()}).
     *
     * @param listener told of an append the store refused ({@link WorkingMemoryListener#onSaveFailed}); it must not
     *                 throw (the provider's {@link Listeners} log what theirs throw)
     */
    public static Conversation.Store in(WorkingMemoryStore store, Clock clock, StoreCheck storeCheck,
                                        WorkingMemoryListener listener) {
        Ensure.notNull(store, "store");
        Ensure.notNull(clock, "clock");
        Ensure.notNull(storeCheck, "storeCheck");
        Ensure.notNull(listener, "listener");
        return new Conversation.Store() {
            @Override
            public Conversation open(Object memoryId, MemoryKey key, MessageWindow window) {
                return new LoggedConversation(store, key.threadStoreKey(), window, clock, storeCheck, listener);
            }

            @Override
            public void delete(Object memoryId) {
                // the log is the thread key's: deleting the key deleted it
            }
        };
    }

    @Override
    public MessageWindow window() {
        return window;
    }

    @Override
    public void load() {
        MessageLog read;
        try {
            read = store.messages(key, 0);
        } catch (WorkingMemoryStoreException e) {
            throw new WorkingMemoryStoreException("Cannot load the messages of '" + key + "'", e);
        }
        replay(read);
        checkedAt = storeCheck.now();
    }

    @Override
    public void refresh() {
        if (!storeCheck.due(checkedAt)) {
            return;
        }
        try {
            long lastSeq = store.messagesVersion(key);
            checkedAt = storeCheck.now();
            if (lastSeq != seen) {
                takeIn();
            }
        } catch (WorkingMemoryStoreException e) {
            // A read must not fail a model call: the window held here is served, and appends check the log anyway.
            log.warn("Cannot check whether messages were added to '{}' elsewhere; using the window held here", key, e);
        }
    }

    @Override
    public boolean add(ChatMessage message) {
        refresh();
        if (message instanceof SystemMessage system) {
            return append(() -> sameSystem(system) ? null : List.of(new Added(system, now())));
        }
        MessageLogEntry added = new Added(message, now());
        append(() -> List.of(added));
        return true;
    }

    @Override
    public void replace(List<ChatMessage> messages) {
        refresh();
        Instant now = now();
        List<MessageLogEntry> entries = new ArrayList<>(messages.size() + 1);
        entries.add(new Cleared());
        messages.forEach(message -> entries.add(new Added(message, now)));
        append(() -> entries);
    }

    @Override
    public void clear() {
        refresh();
        append(() -> window.size() == 0 && window.system() == null ? null : List.of(new Cleared()));
    }

    @Override
    public boolean evictOldestTurn() {
        return append(() -> {
            int count = window.oldestTurnSize();
            return count == 0 ? null : List.of(new Evicted(window.seq(count - 1)));
        });
    }

    private boolean sameSystem(SystemMessage system) {
        return window.system() != null && window.system().text().equals(system.text());
    }

    private Instant now() {
        return Instant.ofEpochMilli(clock.millis());
    }

    // ---- appending and taking in -----------------------------------------------------------------------------

    /**
     * Appends what {@code next} makes of the window as it stands, and applies it; when another instance appended
     * first, takes its entries in and asks {@code next} again. Then trims the log if it is due.
     *
     * @param next the entries to append, or null when there is nothing to append (any more)
     * @return false when {@code next} found nothing to append
     */
    private boolean append(Supplier<List<MessageLogEntry>> next) {
        for (int conflicts = 0; ; conflicts++) {
            List<MessageLogEntry> appended = next.get();
            if (appended == null) {
                return false;
            }
            try {
                long lastSeq = store.appendMessages(key, seen, appended);
                long seq = lastSeq - appended.size();
                for (MessageLogEntry entry : appended) {
                    apply(++seq, entry);
                }
                seen = lastSeq;
                checkedAt = storeCheck.now();
            } catch (VersionConflictException e) {
                if (conflicts + 1 >= MAX_CONFLICTS) {
                    throw failed(new WorkingMemoryStoreException("Could not add to the messages of '" + key + "': "
                            + MAX_CONFLICTS + " conflicts in a row with other instances adding to them", e));
                }
                ScopeState.backOff(conflicts);
                try {
                    takeIn();
                } catch (WorkingMemoryStoreException readFailure) {
                    throw failed(readFailure);
                }
                continue;
            } catch (WorkingMemoryStoreException e) {
                throw failed(e); // nothing was applied: the window is as the store holds it
            }
            trimIfDue();
            return true;
        }
    }

    private WorkingMemoryStoreException failed(WorkingMemoryStoreException e) {
        listener.onSaveFailed(new SaveFailed(key, LayerScope.THREAD, e));
        return e;
    }

    /**
     * Applies what other instances appended since {@link #seen}; reads the whole log when some of it was trimmed.
     *
     * @throws MemoryForgottenException when the log was deleted since (its numbering started again): the window, and
     *                                  what the memory derived from it, hold what was said before the delete
     */
    private void takeIn() {
        MessageLog read = store.messages(key, seen);
        List<MessageLog.Entry> found = read.entries();
        if (read.lastSeq() < seen) {
            // Clearing the window here is not enough: the layers (past turns, entities, ...) and the crystals still
            // to be made hold the deleted turns too. The provider drops the whole memory instead.
            throw new MemoryForgottenException(key);
        }
        boolean missed = found.isEmpty() ? read.lastSeq() > seen : found.get(0).seq() > seen + 1;
        if (missed) {
            log.debug("Messages of '{}' were trimmed or deleted elsewhere beyond entry {}; reading them again", key, seen);
            window.clear();
            entries.clear();
            systemSeq = 0;
            deadThrough = 0;
            replay(store.messages(key, 0));
            return;
        }
        for (MessageLog.Entry entry : found) {
            apply(entry.seq(), entry.entry());
        }
        seen = read.lastSeq();
    }

    private void replay(MessageLog read) {
        for (MessageLog.Entry entry : read.entries()) {
            apply(entry.seq(), entry.entry());
        }
        seen = read.lastSeq();
        trimmedThrough = read.entries().isEmpty() ? read.lastSeq() : read.entries().get(0).seq() - 1;
    }

    /** What an entry does to the window: the same here as in every instance that reads it. */
    private void apply(long seq, MessageLogEntry entry) {
        if (entry instanceof Added added) {
            if (added.message() instanceof SystemMessage system) {
                window.setSystem(system);
                systemSeq = seq;
            } else {
                window.add(added.message(), added.added().toEpochMilli(), seq);
                entries.add(seq, added.message() instanceof UserMessage);
            }
        } else if (entry instanceof Cleared) {
            window.clear();
            entries.clear();
            systemSeq = 0;
            deadThrough = seq;
        } else if (entry instanceof Evicted evicted) {
            // Through the message of that entry: the window's order is not the log's when a tool result moved its
            // request to the end (MessageWindow). A log whose entry is gone from the window evicts by seq, as before.
            int count = 0;
            while (count < window.size() && window.seq(count) != evicted.throughSeq()) {
                count++;
            }
            if (count < window.size()) {
                count++;
            } else {
                count = 0;
                while (count < window.size() && window.seq(count) <= evicted.throughSeq()) {
                    count++;
                }
            }
            window.evictFirst(count);
        }
    }

    // ---- trimming ----------------------------------------------------------------------------------------------

    /** The lowest log entry of a message in the window ({@link Long#MAX_VALUE} when it is empty). */
    private long oldestSeq() {
        long oldest = Long.MAX_VALUE;
        for (int i = 0; i < window.size(); i++) {
            oldest = Math.min(oldest, window.seq(i));
        }
        return oldest;
    }

    /** Trims what no longer matters to the window, keeping the retained margin; a failure only postpones it. */
    private void trimIfDue() {
        long through = deadThrough;
        // the entries before the window's oldest one have all left it (the window's order need not be the log's);
        // they are at most the entries the window does not hold, so most appends need not look for them
        int evicted = entries.size() - window.size() < TRIM_AT ? 0 : entries.countBelow(oldestSeq());
        if (evicted >= TRIM_AT) {
            int keep = evicted - RETAINED;
            while (keep > 0 && !entries.user(keep)) {
                keep--;
            }
            if (keep == 0 && evicted >= MAX_EVICTED) {
                keep = evicted - RETAINED; // one turn too long to keep whole
            }
            if (keep > 0) {
                through = Math.max(through, entries.seq(keep) - 1);
            }
        }
        if (through <= trimmedThrough) {
            return;
        }
        try {
            if (systemSeq != 0 && systemSeq <= through) {
                // the system message goes on after the trim: appended again (the same text changes nothing)
                Added again = new Added(window.system(), now());
                long lastSeq = store.appendMessages(key, seen, List.of(again));
                apply(lastSeq, again);
                seen = lastSeq;
            }
            store.trimMessages(key, through);
            trimmedThrough = through;
            entries.dropThrough(through);
        } catch (VersionConflictException e) {
            // another instance appended meanwhile: trimmed after a later append, from the log as it is then
        } catch (WorkingMemoryStoreException e) {
            log.warn("Could not trim the messages of '{}' through entry {}; trying again after a later append", key,
                    through, e);
        }
    }

    /** The seqs of message entries, oldest first, and whether each is a user message. */
    private static final class Entries {
        private long[] seqs = new long[16];
        private boolean[] users = new boolean[16];
        private int start;
        private int end;

        int size() {
            return end - start;
        }

        long seq(int index) {
            return seqs[start + index];
        }

        boolean user(int index) {
            return users[start + index];
        }

        void add(long seq, boolean user) {
            if (end == seqs.length) {
                int size = size();
                int capacity = Math.max(16, size * 2);
                seqs = Arrays.copyOfRange(seqs, start, start + capacity);
                users = Arrays.copyOfRange(users, start, start + capacity);
                start = 0;
                end = size;
            }
            seqs[end] = seq;
            users[end] = user;
            end++;
        }

        /** How many entries have a seq below {@code seq}. */
        int countBelow(long seq) {
            int i = start;
            while (i < end && seqs[i] < seq) {
                i++;
            }
            return i - start;
        }

        void dropThrough(long seq) {
            while (start < end && seqs[start] <= seq) {
                start++;
            }
        }

        void clear() {
            start = 0;
            end = 0;
        }
    }
}
