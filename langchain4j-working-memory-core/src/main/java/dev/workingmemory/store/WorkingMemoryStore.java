package dev.workingmemory.store;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.ProviderCrystals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Where working memories keep their state between uses and restarts.
 *
 * <p>The state under a key is a JSON document with a version. {@link #save} is a compare-and-set:
 * it succeeds only when the stored version is the one the caller read, so two writers never
 * silently overwrite each other.
 *
 * <p>Beside it, each key has an append-only <b>notes log</b>: lines of text (the notes the agent took, one per
 * line, in seed 000's format) that are appended without reading and rewriting anything, so two instances
 * appending at the same moment both keep their lines ({@link #appendNote}, {@link #notes}, {@link #removeNotes},
 * {@link #notesVersion}).
 *
 * <p>Each key also has an append-only <b>message log</b>: the entries ({@link MessageLogEntry}) that built a thread's
 * message window, numbered 1, 2, 3, … in the order they were appended ({@link #appendMessages}, {@link #messages},
 * {@link #messagesVersion}, {@link #trimMessages}). An append names the last entry its caller saw, so two instances
 * adding to one conversation never reorder or drop each other's messages: the second one reads what the first
 * appended, takes it in, and appends after it. The entries that left the window long ago are trimmed, so the log of a
 * long conversation stays bounded.
 *
 * <p>And each key has named <b>documents</b>: texts written whole and atomically, such as the human-readable
 * {@code MEMORY.md} of a resource's state or cached tool outputs ({@link #putDocument}, {@link #getDocument},
 * {@link #documents}, {@link #deleteDocument}). A document name is 1 to 128 letters, digits, {@code .}, {@code -}
 * and {@code _}, starting with a letter or digit; names a store uses itself are refused.
 *
 * <p>Keys are arbitrary strings (any characters, any length); an implementation maps them to its
 * storage safely. Implementations must be thread-safe. Failures are reported as
 * {@link WorkingMemoryStoreException}.
 */
public interface WorkingMemoryStore {

    /**
     * @return the latest snapshot under {@code key}, or empty when nothing was saved (or it was deleted)
     */
    Optional<Snapshot> load(String key);

    /**
     * Saves {@code document} under {@code key} if the stored version equals {@code expectedVersion}.
     *
     * @param expectedVersion the version last loaded or saved, {@code 0} when the key is expected to be absent
     * @return the saved snapshot, whose version is {@code expectedVersion + 1}
     * @throws VersionConflictException when the stored version differs
     */
    Snapshot save(String key, long expectedVersion, String document);

    /**
     * The version of the latest snapshot under {@code key}, {@code 0} when there is none. A cached memory calls it
     * before each use to notice that another application instance saved its state, so implementations should
     * answer it more cheaply than {@link #load} where they can. It may lag behind a save made at the same moment:
     * the compare-and-set of {@link #save}, not this method, is what keeps two writers from losing updates.
     */
    default long version(String key) {
        return load(key).map(Snapshot::version).orElse(0L);
    }

    /**
     * Appends {@code line} to the notes log under {@code key}. When it returns, the line is durable (a crash right
     * after loses nothing) and every later {@link #notes} call, of any instance, returns it.
     *
     * @param line one line of text: not blank, without line breaks
     * @throws IllegalArgumentException for a blank line or one with a line break
     */
    void appendNote(String key, String line);

    /**
     * The lines of the notes log under {@code key}, oldest first; empty when there are none. A line torn by a crash
     * in the middle of an append is skipped (with a warning), never returned.
     */
    List<String> notes(String key);

    /**
     * Removes one stored occurrence of each of {@code lines} from the notes log (a line given twice removes two
     * occurrences). Lines that are not there are ignored; lines appended since the caller read the log stay.
     */
    void removeNotes(String key, Collection<String> lines);

    /**
     * A number that changes whenever the notes log under {@code key} changes, {@code 0} when it is empty or absent;
     * cheap, like {@link #version}, since cached memories call it before each use.
     */
    long notesVersion(String key);

    /**
     * Appends {@code entries} to the message log under {@code key}, numbered on from {@code expectedLastSeq}, if the
     * last entry appended to the log is {@code expectedLastSeq} (a compare-and-set, like {@link #save}). When it
     * returns, the entries are durable (a crash right after loses nothing) and every later {@link #messages} call, of
     * any instance, returns them (unless trimmed).
     *
     * @param expectedLastSeq the seq of the last entry the caller read or appended, {@code 0} for a log it found empty
     * @param entries         one or more entries, appended together or not at all
     * @return the seq of the last entry appended: {@code expectedLastSeq + entries.size()}
     * @throws VersionConflictException when the log's last seq is not {@code expectedLastSeq} (another instance
     *                                  appended); its {@link VersionConflictException#actualVersion()} is that seq
     * @throws IllegalArgumentException for no entries or a negative {@code expectedLastSeq}
     */
    long appendMessages(String key, long expectedLastSeq, List<MessageLogEntry> entries);

    /**
     * The entries of the message log under {@code key} whose seq is above {@code afterSeq}, oldest first, with the seq
     * of the last entry appended; {@link MessageLog#EMPTY} when there is no log. Entries that were
     * {@linkplain #trimMessages trimmed} are not returned: a caller that finds the first entry returned beyond
     * {@code afterSeq + 1} missed entries and reads the log from its start. An entry torn by a crash in the middle of
     * its append is skipped (with a warning), never returned.
     */
    MessageLog messages(String key, long afterSeq);

    /**
     * The seq of the last entry appended to the message log under {@code key} (trimmed or not), {@code 0} when there is
     * none or it was deleted. A cached memory calls it before each use to notice that another instance added to its
     * conversation, so implementations should answer it as cheaply as {@link #version}.
     */
    long messagesVersion(String key);

    /**
     * Removes the entries of the message log under {@code key} whose seq is at most {@code throughSeq}: those that no
     * longer matter to the window. The numbering goes on after the last entry appended even when every entry is
     * trimmed. Does nothing when there are none.
     */
    void trimMessages(String key, long throughSeq);

    /**
     * Writes the document {@code name} of {@code key}, replacing it whole: a reader sees the old text or the new one,
     * never a mix. Durable when it returns.
     *
     * @throws IllegalArgumentException for a malformed or reserved name
     */
    void putDocument(String key, String name, String text);

    /** The text of the document {@code name} of {@code key}, or empty when there is none. */
    Optional<String> getDocument(String key, String name);

    /** The documents of {@code key} with their sizes in bytes (UTF-8), in no particular order. */
    List<StoredDocument> documents(String key);

    /** Removes the document {@code name} of {@code key}; does nothing when there is none. */
    void deleteDocument(String key, String name);

    /**
     * Takes the lease {@code name} of {@code key} (such as {@code "dream"}: one dream of a user at a time, also across
     * application instances) for {@code owner} until {@code ttl} from now, or renews it when {@code owner} holds it.
     * An expired lease is free, so an owner that crashed blocks others for {@code ttl} at most.
     *
     * @param name  a lease name: letters, digits, {@code -} and {@code _}
     * @param owner who takes it: unique per application instance and task
     * @return true when {@code owner} holds the lease now; false when another owner holds an unexpired one
     */
    boolean acquireLease(String key, String name, String owner, Duration ttl);

    /** Releases the lease {@code name} of {@code key} if {@code owner} holds it; does nothing otherwise. */
    void releaseLease(String key, String name, String owner);

    /**
     * Removes everything under {@code key}: the state, the notes log, the message log, the documents and the leases;
     * does nothing when there is none. A message log appended to afterwards starts again at seq 1.
     */
    void delete(String key);

    /**
     * @return every key with a saved state, notes, messages or documents, in no particular order
     */
    List<String> keys();

    /**
     * A directory on the local disk where the long-term memory (the crystals) of this store's memories may be kept
     * beside them, so that it lives as long as they do; empty (the default) when the store keeps nothing on the local
     * disk, and the crystals then live in memory unless the application gives the provider a crystal store. It must
     * not be used by anything else, and no key's data may ever be stored in it.
     */
    default Optional<Path> crystalDirectory() {
        return Optional.empty();
    }

    /**
     * Opens the long-term memory (the crystal store) of a provider on this store that was given no crystal store of
     * its own: the provider closes what this returns when it closes. Empty: the provider keeps its crystals in memory.
     * The default opens them in the {@link #crystalDirectory() crystal directory} when there is one (shared by the
     * providers of one JVM on that directory); a store shared by several application instances returns a store that
     * they share, so that each finds what the others indexed.
     *
     * @param embeddingModel the provider builder's embedding model, or null when it was given none
     * @param embeddingStore the provider builder's embedding store for the vectors, or null when it was given none
     * @param listener       the provider's listeners, to be told of the crystals indexed
     *                       ({@link WorkingMemoryListener#onCrystalsIndexed}); it logs what its listeners throw
     */
    default Optional<CrystalStore> openCrystalStore(EmbeddingModel embeddingModel,
                                                    EmbeddingStore<TextSegment> embeddingStore,
                                                    WorkingMemoryListener listener) {
        return crystalDirectory().map(directory -> ProviderCrystals.open(directory, embeddingModel, embeddingStore,
                listener));
    }
}
