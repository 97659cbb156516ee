package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Wtf8;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link WorkingMemoryStore} that keeps snapshots in a map; nothing survives the JVM.
 *
 * <p>The default store when none is configured, and the reference implementation of the store
 * contract. Documents are returned exactly as they were saved.
 *
 * <p>Thread-safe: {@link #save} and {@link #appendMessages} are atomic compare-and-sets per key, and each change of a
 * notes or message log an atomic replacement of an immutable list ({@link ConcurrentHashMap#compute}). Messages are
 * kept as the objects given, not copies.
 */
public final class InMemoryWorkingMemoryStore implements WorkingMemoryStore {

    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final Map<String, NotesLog> notes = new ConcurrentHashMap<>();
    /** Each change replaces the key's log atomically; see {@link MessageEntries}. */
    private final Map<String, MessageEntries> messageLogs = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> documents = new ConcurrentHashMap<>();
    /** By key, then lease name. */
    private final Map<String, Map<String, Lease>> leases = new ConcurrentHashMap<>();
    /** Every change of any notes log takes a new number, so a version never comes back after a delete. */
    private final AtomicLong notesChanges = new AtomicLong();

    /** An empty store; what it holds is lost with it. */
    public InMemoryWorkingMemoryStore() {
    }

    @Override
    public Optional<Snapshot> load(String key) {
        Ensure.notNull(key, "key");
        return Optional.ofNullable(snapshots.get(key));
    }

    @Override
    public Snapshot save(String key, long expectedVersion, String document) {
        Ensure.notNull(key, "key");
        Ensure.that(expectedVersion >= 0, "expectedVersion must not be negative, was " + expectedVersion);
        Ensure.notNull(document, "document");
        // The exception thrown inside compute leaves the mapping unchanged.
        return snapshots.compute(key, (k, current) -> {
            long actualVersion = current == null ? 0 : current.version();
            if (actualVersion != expectedVersion) {
                throw new VersionConflictException(k, expectedVersion, actualVersion);
            }
            return new Snapshot(k, expectedVersion + 1, document);
        });
    }

    @Override
    public long version(String key) {
        Ensure.notNull(key, "key");
        Snapshot snapshot = snapshots.get(key);
        return snapshot == null ? 0 : snapshot.version();
    }

    @Override
    public void appendNote(String key, String line) {
        Ensure.notNull(key, "key");
        NoteLines.check(line);
        notes.compute(key, (k, log) -> (log == null ? NotesLog.EMPTY : log).plus(line, notesChanges.incrementAndGet()));
    }

    @Override
    public List<String> notes(String key) {
        Ensure.notNull(key, "key");
        NotesLog log = notes.get(key);
        return log == null ? List.of() : log.lines();
    }

    @Override
    public void removeNotes(String key, Collection<String> lines) {
        Ensure.notNull(key, "key");
        Ensure.notNull(lines, "lines");
        notes.computeIfPresent(key, (k, log) -> {
            List<String> kept = NoteLines.without(log.lines(), lines);
            if (kept.size() == log.lines().size()) {
                return log;
            }
            return kept.isEmpty() ? null : new NotesLog(List.copyOf(kept), notesChanges.incrementAndGet());
        });
    }

    @Override
    public long notesVersion(String key) {
        Ensure.notNull(key, "key");
        NotesLog log = notes.get(key);
        return log == null ? 0 : log.version();
    }

    @Override
    public long appendMessages(String key, long expectedLastSeq, List<MessageLogEntry> entries) {
        Ensure.notNull(key, "key");
        MessageLog.checkAppend(expectedLastSeq, entries);
        // The exception thrown inside compute leaves the mapping unchanged.
        return messageLogs.compute(key, (k, log) -> {
            long lastSeq = log == null ? 0 : log.lastSeq();
            if (lastSeq != expectedLastSeq) {
                throw new VersionConflictException(k, expectedLastSeq, lastSeq);
            }
            return (log == null ? MessageEntries.EMPTY : log).plus(entries);
        }).lastSeq();
    }

    @Override
    public MessageLog messages(String key, long afterSeq) {
        Ensure.notNull(key, "key");
        MessageEntries log = messageLogs.get(key);
        return log == null ? MessageLog.EMPTY : log.after(afterSeq);
    }

    @Override
    public long messagesVersion(String key) {
        Ensure.notNull(key, "key");
        MessageEntries log = messageLogs.get(key);
        return log == null ? 0 : log.lastSeq();
    }

    @Override
    public void trimMessages(String key, long throughSeq) {
        Ensure.notNull(key, "key");
        messageLogs.computeIfPresent(key, (k, log) -> log.trimmed(throughSeq)); // the last seq stays, also with no entry
    }

    @Override
    public void putDocument(String key, String name, String text) {
        Ensure.notNull(key, "key");
        StoredDocument.checkName(name);
        Ensure.notNull(text, "text");
        // put under the key's lock, as deleteDocument removes: else a delete emptying the key's documents could drop
        // their map with this one just put in
        documents.compute(key, (k, ofKey) -> {
            Map<String, String> kept = ofKey == null ? new ConcurrentHashMap<>() : ofKey;
            kept.put(name, text);
            return kept;
        });
    }

    @Override
    public Optional<String> getDocument(String key, String name) {
        Ensure.notNull(key, "key");
        StoredDocument.checkName(name);
        Map<String, String> ofKey = documents.get(key);
        return ofKey == null ? Optional.empty() : Optional.ofNullable(ofKey.get(name));
    }

    @Override
    public List<StoredDocument> documents(String key) {
        Ensure.notNull(key, "key");
        Map<String, String> ofKey = documents.getOrDefault(key, Map.of());
        List<StoredDocument> listed = new ArrayList<>(ofKey.size());
        ofKey.forEach((name, text) -> listed.add(new StoredDocument(name, Wtf8.encode(text).length)));
        return listed;
    }

    @Override
    public void deleteDocument(String key, String name) {
        Ensure.notNull(key, "key");
        StoredDocument.checkName(name);
        documents.computeIfPresent(key, (k, ofKey) -> {
            ofKey.remove(name);
            return ofKey.isEmpty() ? null : ofKey;
        });
    }

    @Override
    public boolean acquireLease(String key, String name, String owner, Duration ttl) {
        Ensure.notNull(key, "key");
        Lease.checkName(name);
        Lease.checkRequest(owner, ttl);
        Instant now = Instant.now();
        Map<String, Lease> ofKey = leases.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        Lease held = ofKey.compute(name, (n, lease) ->
                lease == null || lease.availableTo(owner, now) ? new Lease(owner, now.plus(ttl)) : lease);
        return held.owner().equals(owner);
    }

    @Override
    public void releaseLease(String key, String name, String owner) {
        Ensure.notNull(key, "key");
        Lease.checkName(name);
        Ensure.notNull(owner, "owner");
        Map<String, Lease> ofKey = leases.get(key);
        if (ofKey != null) {
            ofKey.computeIfPresent(name, (n, lease) -> lease.owner().equals(owner) ? null : lease);
        }
    }

    @Override
    public void delete(String key) {
        Ensure.notNull(key, "key");
        snapshots.remove(key);
        notes.remove(key);
        messageLogs.remove(key);
        documents.remove(key);
        leases.remove(key);
    }

    @Override
    public List<String> keys() {
        Set<String> keys = new HashSet<>(snapshots.keySet());
        keys.addAll(notes.keySet());
        keys.addAll(messageLogs.keySet());
        keys.addAll(documents.keySet());
        return List.copyOf(keys);
    }

    /**
     * A message log: the entries {@code [start, end)} of an array that versions of the log share and only ever append
     * to (a version reads no index at or beyond its {@code end}, and a later version only writes there), so an append
     * costs an entry, not a copy of the log; a trim or a full array copies. Immutable as seen by readers.
     */
    private record MessageEntries(MessageLog.Entry[] array, int start, int end, long lastSeq) {

        static final MessageEntries EMPTY = new MessageEntries(new MessageLog.Entry[0], 0, 0, 0);

        /** Called inside the key's {@code compute}: no other append writes to the shared array meanwhile. */
        MessageEntries plus(List<MessageLogEntry> entries) {
            MessageLog.Entry[] target = array;
            int from = start;
            int to = end;
            if (to + entries.size() > target.length) {
                int size = to - from;
                target = Arrays.copyOfRange(array, from, from + Math.max(16, 2 * (size + entries.size())));
                from = 0;
                to = size;
            }
            long seq = lastSeq;
            for (MessageLogEntry entry : entries) {
                target[to++] = new MessageLog.Entry(++seq, entry);
            }
            return new MessageEntries(target, from, to, seq);
        }

        MessageEntries trimmed(long throughSeq) {
            int first = firstAfter(throughSeq);
            return first == start ? this
                    : new MessageEntries(Arrays.copyOfRange(array, first, Math.max(end, first + 16)), 0, end - first, lastSeq);
        }

        MessageLog after(long afterSeq) {
            return new MessageLog(lastSeq, List.of(Arrays.copyOfRange(array, firstAfter(afterSeq), end)));
        }

        private int firstAfter(long seq) {
            int first = start;
            while (first < end && array[first].seq() <= seq) {
                first++;
            }
            return first;
        }
    }

    /** An immutable notes log: each change makes a new one, so readers get a consistent list without copying. */
    private record NotesLog(List<String> lines, long version) {

        static final NotesLog EMPTY = new NotesLog(List.of(), 0);

        NotesLog plus(String line, long newVersion) {
            List<String> more = new ArrayList<>(lines.size() + 1);
            more.addAll(lines);
            more.add(line);
            return new NotesLog(Collections.unmodifiableList(more), newVersion);
        }
    }
}
