package dev.workingmemory.testing;

import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.MessageLog;
import dev.workingmemory.store.MessageLogEntry;
import dev.workingmemory.store.Snapshot;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory {@link WorkingMemoryStore} for tests: records every save with the thread that made it and every
 * document deletion, counts version checks (of the state and of the message log), and can be switched to fail its
 * saves, note appends and document writes, and apart from those its message log. Thread-safe.
 */
public final class TestStore implements WorkingMemoryStore {

    /** One successful save. */
    public record Save(String key, String document, Thread thread) {
    }

    /** A document, by its key and name. */
    public record Document(String key, String name) {
    }

    private final InMemoryWorkingMemoryStore delegate = new InMemoryWorkingMemoryStore();
    public final List<Save> saves = new CopyOnWriteArrayList<>();
    /** Every document deletion, in order, of a document that existed or not (one another writer undid too). */
    public final List<Document> deletedDocuments = new CopyOnWriteArrayList<>();
    /** Saves refused while {@link #failing}. */
    public final AtomicInteger failures = new AtomicInteger();
    public final AtomicInteger versionChecks = new AtomicInteger();
    /** While true, every save, note append and document write throws a {@link WorkingMemoryStoreException}. */
    public volatile boolean failing;
    /** While true, every call on a message log (append, read, version check) throws a {@link WorkingMemoryStoreException}. */
    public volatile boolean failingMessages;

    public List<Save> savesOf(String key) {
        return saves.stream().filter(save -> save.key().equals(key)).toList();
    }

    @Override
    public Optional<Snapshot> load(String key) {
        return delegate.load(key);
    }

    @Override
    public long version(String key) {
        versionChecks.incrementAndGet();
        return delegate.version(key);
    }

    @Override
    public Snapshot save(String key, long expectedVersion, String document) {
        if (failing) {
            failures.incrementAndGet();
            throw new WorkingMemoryStoreException("the store is down (test)");
        }
        Snapshot saved = delegate.save(key, expectedVersion, document);
        saves.add(new Save(key, document, Thread.currentThread()));
        return saved;
    }

    @Override
    public void appendNote(String key, String line) {
        if (failing) {
            failures.incrementAndGet();
            throw new WorkingMemoryStoreException("the store is down (test)");
        }
        delegate.appendNote(key, line);
    }

    @Override
    public List<String> notes(String key) {
        return delegate.notes(key);
    }

    @Override
    public void removeNotes(String key, Collection<String> lines) {
        delegate.removeNotes(key, lines);
    }

    @Override
    public long notesVersion(String key) {
        return delegate.notesVersion(key);
    }

    @Override
    public long appendMessages(String key, long expectedLastSeq, List<MessageLogEntry> entries) {
        failIfMessagesFailing();
        return delegate.appendMessages(key, expectedLastSeq, entries);
    }

    @Override
    public MessageLog messages(String key, long afterSeq) {
        failIfMessagesFailing();
        return delegate.messages(key, afterSeq);
    }

    @Override
    public long messagesVersion(String key) {
        versionChecks.incrementAndGet();
        failIfMessagesFailing();
        return delegate.messagesVersion(key);
    }

    private void failIfMessagesFailing() {
        if (failingMessages) {
            failures.incrementAndGet();
            throw new WorkingMemoryStoreException("the store is down (test)");
        }
    }

    @Override
    public void trimMessages(String key, long throughSeq) {
        delegate.trimMessages(key, throughSeq);
    }

    @Override
    public void putDocument(String key, String name, String text) {
        if (failing) {
            failures.incrementAndGet();
            throw new WorkingMemoryStoreException("the store is down (test)");
        }
        delegate.putDocument(key, name, text);
    }

    @Override
    public Optional<String> getDocument(String key, String name) {
        return delegate.getDocument(key, name);
    }

    @Override
    public List<StoredDocument> documents(String key) {
        return delegate.documents(key);
    }

    @Override
    public void deleteDocument(String key, String name) {
        delegate.deleteDocument(key, name);
        deletedDocuments.add(new Document(key, name));
    }

    @Override
    public boolean acquireLease(String key, String name, String owner, Duration ttl) {
        return delegate.acquireLease(key, name, owner, ttl);
    }

    @Override
    public void releaseLease(String key, String name, String owner) {
        delegate.releaseLease(key, name, owner);
    }

    @Override
    public void delete(String key) {
        delegate.delete(key);
    }

    @Override
    public List<String> keys() {
        return delegate.keys();
    }
}
