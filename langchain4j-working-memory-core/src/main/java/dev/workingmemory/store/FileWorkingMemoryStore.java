package dev.workingmemory.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.internal.ConfinedFiles;
import dev.workingmemory.internal.DirectoryNames;
import dev.workingmemory.internal.DurableFiles;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Wtf8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * A {@link WorkingMemoryStore} that keeps each key's state in a directory under a root directory.
 *
 * <pre>{@code
 * WorkingMemoryStore store = new FileWorkingMemoryStore(Path.of("memory"));
 * Snapshot saved = store.save("user-42", 0, "{\"goal\":\"ship it\"}");
 * }</pre>
 *
 * <h2>Layout</h2>
 * <pre>
 * root/
 *   .locks/00.lock … ff.lock             cross-process lock files, shared by the keys whose hash starts with that byte
 *   .crystals/                           the long-term memory a provider keeps beside the keys ({@link #crystalDirectory()})
 *   user-42-&lt;sha-256 hex&gt;/
 *     state.json                         {"formatVersion":1,"key":"user-42","version":3,"document":{…}}
 *     scratch.md                         the notes log: "# Scratch Buffer (Working Memory WAL)", then one note per line
 *     messages.jsonl                     the message log of a thread's window: {"seq":7,"entry":{…}} per line
 *     key.json                           the key as a JSON string, written with the first note or document (for {@link #keys()})
 *     MEMORY.md, …                       documents, one file each
 * </pre>
 * Free text is kept so that a restart reads back exactly the string that was given, every UTF-16 code unit of it (NUL,
 * unpaired surrogates): documents and the notes log are {@link Wtf8 WTF-8}, which is UTF-8 for every well-formed string
 * (so files written as UTF-8 read the same, also by other tools) and writes an unpaired surrogate as the three bytes of
 * its own code point where UTF-8 would write {@code ?}; the JSON files ({@code state.json}, {@code messages.jsonl},
 * {@code key.json}, leases) write every surrogate as a {@code \\uXXXX} escape.
 * A key's directory is named by a readable prefix of the key (lower-case {@code a-z0-9-_}, other
 * characters replaced by {@code _}, at most 40 characters) followed by the SHA-256 hex of the key's
 * UTF-16 code units, so any string (empty, {@code ../../x}, NUL bytes, 5,000 characters) maps to one
 * directory inside the root. The original key is stored in {@code state.json}. A memory's directories are
 * {@link #resourceDirectory(MemoryKey)} ({@code resource_maya-…} for the resource {@code maya}: its {@code MEMORY.md}
 * and {@code scratch.md}) and {@link #threadDirectory(MemoryKey)}; {@link #directoryOf(String)} for any store key.
 * The hash stays even for ids that would be safe names by themselves: a name that depended on whether an older
 * directory exists would let two processes (or two library versions) sharing a root write one key to two places.
 *
 * <h2>The document</h2>
 * {@link #load} returns exactly the text given to {@link #save}. A document that is JSON in Jackson's
 * compact form (what {@code ObjectMapper.writeValueAsString} produces) is embedded as a JSON value
 * under {@code "document"}, so the file is readable; any other text (not JSON, pretty-printed,
 * nested deeper than 500 levels, ...) is stored verbatim as a string under {@code "documentText"}.
 *
 * <h2>Durability and recovery</h2>
 * {@code state.json} is written to a temporary file in the same directory, forced to disk, moved
 * over the old file atomically, and the directory is forced where the OS allows it. A
 * {@code state.json} that cannot be read (not JSON, missing or invalid fields, another key's state)
 * is moved aside to {@code state.json.corrupt-<timestamp>}, never deleted, with a WARN log; the key
 * then reads as absent. A file written by a newer format version is refused with a
 * {@link WorkingMemoryStoreException} rather than moved aside.
 *
 * <h2>Hostile files</h2>
 * Nothing is read or written through a symbolic link: every entry under the root is reached through
 * {@link ConfinedFiles}, which looks at it without following links and opens files with {@code NOFOLLOW_LINKS}. What
 * stands where the store expects a directory or a file and is not one (a key's directory, {@code scratch.md},
 * {@code .locks} or {@code .crystals} linked elsewhere; a directory where {@code state.json} belongs; a file where a
 * key's directory belongs) is moved aside to {@code <name>.corrupt-<timestamp>} (the link itself, never its
 * target) with a WARN naming both, and the store goes on as if it were missing. A document that is not valid UTF-8
 * (a {@code MEMORY.md} saved in another encoding; a surrogate's own three bytes are read as that surrogate) is moved
 * aside the same way and reads as absent; a {@code scratch.md} with lines that are not is moved aside and written anew
 * with its valid lines. A
 * {@code .crystals} that is not a directory is moved aside with an ERROR: the long-term memory kept there is lost
 * and starts empty. So a user whose files were tampered with keeps working; nothing of another user is read or
 * written. Only the root itself may be a link.
 *
 * <h2>The notes log</h2>
 * {@link #appendNote} appends one line to {@code scratch.md} and forces it to disk before returning; a crash in the
 * middle of an append leaves a last line without its line break, which {@link #notes} skips with a warning and the
 * next append cuts off. {@link #removeNotes} rewrites the file like {@code state.json} (temp file, fsync, move).
 * Blank lines and lines starting with {@code #} are not notes; a note that starts with {@code #} or {@code \\} is
 * written behind a {@code \\}, which reading takes off. Lines are WTF-8, as documents.
 *
 * <h2>The message log</h2>
 * {@link #appendMessages} appends one line per entry to {@code messages.jsonl} and forces it to disk before returning,
 * after checking its last seq (the compare-and-set), under the key's lock; a torn last line is skipped and cut off as
 * in the notes log. {@link #trimMessages} rewrites the file like {@code state.json}, its first line recording the seq
 * trimmed through ({@code {"trimmedThrough":40}}). Anything but a regular file in its place is moved aside as above;
 * a log with complete lines that cannot be read is kept aside whole ({@code messages.jsonl.corrupt-<time>}) and written
 * anew with its readable lines, so that the conversation goes on with every message that can be read.
 *
 * <p>Thread-safe, and safe across processes and store instances sharing the root: {@link #save},
 * {@link #appendNote}, {@link #removeNotes}, {@link #appendMessages}, {@link #trimMessages} and {@link #delete} hold a
 * JVM-wide lock and an OS file lock for the key; {@link #load}, {@link #notes}, {@link #messages} and {@link #keys}
 * read without locking, which the atomic moves and
 * line-at-a-time appends make safe (a read that finds something to move aside takes the lock for that). {@link #delete}
 * removes the key's directory with everything in it, files moved aside after corruption included.
 */
public final class FileWorkingMemoryStore implements WorkingMemoryStore {

    private static final Logger log = LoggerFactory.getLogger(FileWorkingMemoryStore.class);

    static final String STATE_FILE = "state.json";
    static final String NOTES_FILE = "scratch.md";
    static final String MESSAGES_FILE = "messages.jsonl";
    private static final String MESSAGES_TEMP_FILE = "messages.jsonl.tmp";
    static final String KEY_FILE = "key.json";
    private static final String LEASE_PREFIX = ".lease-";
    private static final String TEMP_FILE = "state.json.tmp";
    private static final String NOTES_TEMP_FILE = "scratch.md.tmp";
    /** The first line of a notes file (seed 000). */
    static final String NOTES_HEADER = "# Scratch Buffer (Working Memory WAL)";
    /** Put before a note that starts with {@code #} or with itself ({@link #fileLine}). */
    private static final String NOTE_ESCAPE = "\\";
    private static final String LOCKS_DIRECTORY = ".locks";
    /** Starts with a dot, which no key's directory name does. */
    private static final String CRYSTALS_DIRECTORY = ".crystals";
    private static final int FORMAT_VERSION = 1;
    private static final int MAX_EMBEDDED_NESTING = 500;

    /** Parses and writes documents; a document deeper than this mapper reads is stored as text. */
    private static final ObjectMapper DOCUMENT_MAPPER = mapper(MAX_EMBEDDED_NESTING);
    /** Reads and writes state.json, which nests the document one level deeper. */
    private static final ObjectMapper STATE_MAPPER = mapper(MAX_EMBEDDED_NESTING + 10);

    /**
     * JVM-wide, keyed by lock file: two channels of one JVM locking the same file would throw
     * {@link java.nio.channels.OverlappingFileLockException}, so threads (and store instances) of one
     * JVM queue here before taking the OS lock.
     */
    private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private final Path root;
    /** The state file last read for a key by {@link #version}, and the version it held. */
    private final Cache<String, FileStamp> seen = Caffeine.newBuilder().maximumSize(10_000).build();
    /** The message log last read or written for a key, and the seq of its last entry. */
    private final Cache<String, FileStamp> seenMessages = Caffeine.newBuilder().maximumSize(10_000).build();
    /** The message log as this store last appended to it (so ending in a whole line), and the seq of its last entry. */
    private final Cache<String, FileStamp> writtenMessages = Caffeine.newBuilder().maximumSize(10_000).build();

    /**
     * @param root the directory holding the keys' directories; created when missing
     * @throws WorkingMemoryStoreException when the directory cannot be created
     */
    public FileWorkingMemoryStore(Path root) {
        Ensure.notNull(root, "root");
        try {
            Files.createDirectories(root);
            this.root = root.toRealPath();
            ConfinedFiles.ensureDirectory(this.root.resolve(LOCKS_DIRECTORY));
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot create the store directory " + root + ": " + e, e);
        }
    }

    @Override
    public Optional<Snapshot> load(String key) {
        Location location = locate(key);
        try {
            return read(location);
        } catch (CorruptStateException e) {
            // Re-read under the lock so that a state saved in between is not moved aside.
            return withLock(location, "load", () -> readOrMoveAside(location));
        } catch (IOException e) {
            throw failure("load", location, e);
        }
    }

    /**
     * The stored version, read from {@code state.json} only when the file is not the one last seen for this key:
     * every save replaces the file by an atomic move, so its identity (file key, modification time, size) changes,
     * and an unchanged file costs one {@code stat}.
     */
    @Override
    public long version(String key) {
        Location location = locate(key);
        VersionRead loaded = () -> load(key).map(Snapshot::version).orElse(0L); // moves what is not a file aside
        return versionOf(location, location.stateFile(), seen, "check the version of", loaded, loaded);
    }

    private interface VersionRead {
        long read() throws IOException;
    }

    /**
     * The version {@code read} gives of {@code file}, read again only when the file is not the one {@code cache}
     * last saw for the key (its identity: file key, modification time, size); 0 when there is no file or no key
     * directory. When something other than a regular file stands there, {@code moveAside} reads it the way that
     * moves it aside.
     */
    private long versionOf(Location location, Path file, Cache<String, FileStamp> cache, String operation,
                           VersionRead read, VersionRead moveAside) {
        try {
            FileStamp stamp;
            try {
                if (!directoryExists(location)) {
                    cache.invalidate(location.key());
                    return 0;
                }
                stamp = stamp(file);
            } catch (NoSuchFileException e) {
                cache.invalidate(location.key());
                return 0;
            }
            if (stamp == null) {
                return moveAside.read();
            }
            FileStamp known = cache.getIfPresent(location.key());
            if (known != null && known.sameFile(stamp)) {
                return known.version();
            }
            long version = read.read();
            cache.put(location.key(), stamp.withVersion(version));
            return version;
        } catch (ConfinedFiles.NotAFileException e) {
            try {
                return moveAside.read(); // swapped meanwhile
            } catch (IOException again) {
                throw failure(operation, location, again);
            }
        } catch (IOException e) {
            throw failure(operation, location, e);
        }
    }

    @Override
    public Snapshot save(String key, long expectedVersion, String document) {
        Location location = locate(key);
        Ensure.that(expectedVersion >= 0, "expectedVersion must not be negative, was " + expectedVersion);
        Ensure.notNull(document, "document");
        return withLock(location, "save", () -> {
            long actualVersion = readOrMoveAside(location).map(Snapshot::version).orElse(0L);
            if (actualVersion != expectedVersion) {
                throw new VersionConflictException(key, expectedVersion, actualVersion);
            }
            Snapshot snapshot = new Snapshot(key, expectedVersion + 1, document);
            write(location, snapshot);
            return snapshot;
        });
    }

    /**
     * Removes the key's directory with everything in it (state, notes, documents, files moved aside after corruption)
     * and whatever stood in its place and was moved aside (a link is deleted itself, never followed).
     */
    @Override
    public void delete(String key) {
        Location location = locate(key);
        withLock(location, "delete", () -> {
            deleteDirectory(location);
            return null;
        });
    }

    /** Called holding the key's lock. */
    private void deleteDirectory(Location location) throws IOException {
        // the directory, and what stood in its place and was moved aside (a link: deleted itself, never followed)
        String name = location.directory().getFileName().toString();
        try (Stream<Path> entries = Files.list(root)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String entryName = entry.getFileName().toString();
                if (entryName.equals(name) || entryName.startsWith(name + ConfinedFiles.ASIDE_INFIX)) {
                    ConfinedFiles.deleteTree(entry);
                }
            }
        }
        DurableFiles.forceDirectory(root);
        seen.invalidate(location.key());
        seenMessages.invalidate(location.key());
        writtenMessages.invalidate(location.key());
    }

    // ---- the notes log ----------------------------------------------------------------------------

    /**
     * Appends {@code line} to the key's {@code scratch.md} and forces it to disk, under the key's lock. A last line
     * left without its line break by a crash during an earlier append is cut off first (with a warning), so the new
     * line never joins it.
     */
    @Override
    public void appendNote(String key, String line) {
        Location location = locate(key);
        NoteLines.check(line);
        withLock(location, "append a note to", () -> {
            ensureKeyFile(location);
            Path file = location.notesFile();
            ConfinedFiles.clearForFile(file);
            boolean created = !ConfinedFiles.isFile(file);
            try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                long size = channel.size();
                if (size == 0) {
                    writeFully(channel, (NOTES_HEADER + "\n\n").getBytes(StandardCharsets.UTF_8), 0);
                } else {
                    long end = endOfLastCompleteLine(channel, size);
                    if (end < size) {
                        log.warn("Cutting off a torn last line ({} bytes) of {} before appending", size - end, file);
                        channel.truncate(end);
                    }
                }
                writeFully(channel, Wtf8.encode(fileLine(line) + "\n"), channel.size());
                channel.force(true);
            }
            if (created) {
                DurableFiles.forceDirectory(location.directory());
            }
            return null;
        });
    }

    /**
     * The notes in {@code scratch.md}. A file that is not valid UTF-8 is moved aside to
     * {@code scratch.md.corrupt-<time>} (WARN) and its valid lines are written anew, so the notes the user took stay
     * and only the unreadable lines are left in the copy; anything but a regular file there is moved aside too.
     */
    @Override
    public List<String> notes(String key) {
        Location location = locate(key);
        try {
            return noteLines(location);
        } catch (IOException e) {
            throw failure("read the notes of", location, e);
        }
    }

    /** Rewrites {@code scratch.md} without the removed lines (temp file, fsync, atomic move); deletes it when empty. */
    @Override
    public void removeNotes(String key, Collection<String> lines) {
        Location location = locate(key);
        Ensure.notNull(lines, "lines");
        if (lines.isEmpty()) {
            return;
        }
        withLock(location, "remove notes of", () -> {
            List<String> current = noteLines(location);
            List<String> kept = NoteLines.without(current, lines);
            if (kept.size() == current.size()) {
                return null;
            }
            if (kept.isEmpty()) {
                Files.deleteIfExists(location.notesFile());
            } else {
                writeNotes(location, kept);
            }
            DurableFiles.forceDirectory(location.directory());
            return null;
        });
    }

    /** Derived from the identity of {@code scratch.md}: an append changes its size, a removal replaces the file. */
    @Override
    public long notesVersion(String key) {
        Location location = locate(key);
        try {
            if (!directoryExists(location)) {
                return 0;
            }
            BasicFileAttributes attributes = Files.readAttributes(location.notesFile(), BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            long stamp = attributes.size() * 1_000_003L + attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
            stamp = 31 * stamp + (attributes.fileKey() == null ? 0 : attributes.fileKey().hashCode());
            return stamp == 0 ? 1 : stamp;
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw failure("check the notes of", location, e);
        }
    }

    // ---- the message log --------------------------------------------------------------------------

    /**
     * Appends the entries to the key's {@code messages.jsonl}, one line each ({@code {"seq":7,"entry":{…}}}), and
     * forces them to disk ({@code fdatasync}: the data and the file's new size), under the key's lock, after checking
     * that its last entry is {@code expectedLastSeq}: from this store's last append when the file is still the one it
     * left (an unchanged {@code stat}), else from the file's last line. A last line left without its line break by a
     * crash during an earlier append is cut off first (with a warning).
     */
    @Override
    public long appendMessages(String key, long expectedLastSeq, List<MessageLogEntry> entries) {
        Location location = locate(key);
        MessageLog.checkAppend(expectedLastSeq, entries);
        StringBuilder lines = new StringBuilder();
        long seq = expectedLastSeq;
        for (MessageLogEntry entry : entries) {
            lines.append(MessageLines.line(++seq, entry)).append('\n');
        }
        long lastSeq = seq;
        byte[] bytes = lines.toString().getBytes(StandardCharsets.UTF_8);
        return withLock(location, "append messages to", () -> {
            ensureKeyFile(location);
            Path file = location.messagesFile();
            ConfinedFiles.clearForFile(file);
            boolean created = !ConfinedFiles.isFile(file);
            FileStamp known = writtenMessages.getIfPresent(key);
            FileStamp now = known == null || created ? null : stamp(file);
            try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                long size = channel.size();
                long found;
                long end;
                if (now != null && known.sameFile(now) && now.size() == size) {
                    found = known.version(); // the file as this store's last append left it
                    end = size;
                } else {
                    end = endOfLastCompleteLine(channel, size);
                    if (end < size) {
                        log.warn("Cutting off a torn last line ({} bytes) of {} before appending", size - end, file);
                        channel.truncate(end);
                    }
                    found = MessageLines.lastSeq(channel, end, file);
                }
                if (found != expectedLastSeq) {
                    throw new VersionConflictException(key, expectedLastSeq, found);
                }
                writeFully(channel, bytes, end);
                channel.force(false);
            }
            if (created) {
                DurableFiles.forceDirectory(location.directory());
            }
            rememberMessages(location, lastSeq);
            return lastSeq;
        });
    }

    /**
     * Reads {@code messages.jsonl} without locking (appends add whole lines, trims replace the file atomically); what
     * stands in its place and is not a regular file is moved aside under the lock, and the log reads as empty. A file
     * with lines that cannot be read is copied aside and written anew with the readable ones, under the lock.
     */
    @Override
    public MessageLog messages(String key, long afterSeq) {
        Location location = locate(key);
        try {
            if (!directoryExists(location)) {
                return MessageLog.EMPTY;
            }
            MessageLines.Read read = MessageLines.read(location.messagesFile(), afterSeq);
            return read.damaged() ? withLock(location, "read the messages of", () -> keepReadableMessages(location,
                    afterSeq)) : read.log();
        } catch (ConfinedFiles.NotAFileException e) {
            return withLock(location, "read the messages of", () -> {
                ConfinedFiles.clearForFile(location.messagesFile());
                return keepReadableMessages(location, afterSeq);
            });
        } catch (IOException e) {
            throw failure("read the messages of", location, e);
        }
    }

    /**
     * Must hold the key's lock. A message log with lines that cannot be read is copied aside whole (a hard link: the
     * file never goes missing for readers) and written anew with its readable lines, its numbering unchanged.
     */
    private MessageLog keepReadableMessages(Location location, long afterSeq) throws IOException {
        Path file = location.messagesFile();
        byte[] bytes;
        try {
            bytes = ConfinedFiles.read(file);
        } catch (NoSuchFileException e) {
            return MessageLog.EMPTY;
        }
        byte[] readable = MessageLines.readable(bytes, file);
        if (readable != null) {
            Path aside = ConfinedFiles.asidePath(file);
            try {
                Files.createLink(aside, file);
            } catch (IOException | UnsupportedOperationException e) {
                DurableFiles.writeAtomically(aside, location.file(MESSAGES_TEMP_FILE), bytes); // no hard links here
            }
            DurableFiles.writeAtomically(file, location.file(MESSAGES_TEMP_FILE), readable);
            seenMessages.invalidate(location.key());
            writtenMessages.invalidate(location.key());
            log.warn("{} has lines that cannot be read: kept in {}, the file written anew with its readable entries",
                    file, aside);
        }
        return MessageLines.read(file, afterSeq).log();
    }

    /**
     * The seq of the last entry, read from the last line of {@code messages.jsonl} only when the file is not the one
     * last seen for this key (an append changes its size, a trim replaces it): an unchanged log costs one {@code stat}.
     */
    @Override
    public long messagesVersion(String key) {
        Location location = locate(key);
        return versionOf(location, location.messagesFile(), seenMessages, "check the messages of",
                () -> MessageLines.lastSeq(location.messagesFile()),
                () -> messages(key, Long.MAX_VALUE).lastSeq()); // moves what is not a file aside
    }

    /**
     * Rewrites {@code messages.jsonl} without the trimmed entries (temp file, fsync, atomic move), the lines kept as
     * they were, its first line recording how far it was trimmed so that the numbering goes on.
     */
    @Override
    public void trimMessages(String key, long throughSeq) {
        Location location = locate(key);
        withLock(location, "trim the messages of", () -> {
            if (!ConfinedFiles.isDirectory(location.directory())) {
                return null;
            }
            Path file = location.messagesFile();
            ConfinedFiles.clearForFile(file);
            byte[] kept = MessageLines.trimmed(file, throughSeq);
            if (kept != null) {
                DurableFiles.writeAtomically(file, location.file(MESSAGES_TEMP_FILE), kept);
                seenMessages.invalidate(key); // the next check reads the last line once
                writtenMessages.invalidate(key);
            }
            return null;
        });
    }

    /** Notes the message log as just appended to: this store's next version check and append cost a {@code stat}. */
    private void rememberMessages(Location location, long lastSeq) {
        try {
            FileStamp stamp = stamp(location.messagesFile());
            if (stamp == null) {
                throw new IOException("not a regular file");
            }
            FileStamp written = stamp.withVersion(lastSeq);
            seenMessages.put(location.key(), written);
            writtenMessages.put(location.key(), written);
        } catch (IOException e) {
            seenMessages.invalidate(location.key()); // read again on the next check
            writtenMessages.invalidate(location.key());
        }
    }

    /**
     * The identity (file key, modification time, size) of the regular file at {@code file}, read without following a
     * link; null when something else stands there.
     *
     * @throws NoSuchFileException when nothing does
     */
    private static FileStamp stamp(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return attributes.isRegularFile()
                ? new FileStamp(attributes.fileKey(), attributes.lastModifiedTime().toMillis(), attributes.size(), 0)
                : null;
    }

    // ---- documents ----------------------------------------------------------------------------

    /**
     * Writes {@code <name>} in the key's directory like {@code state.json}: temp file, fsync, atomic move; in WTF-8, so
     * that every string comes back exactly.
     */
    @Override
    public void putDocument(String key, String name, String text) {
        Location location = locate(key);
        StoredDocument.checkName(name);
        Ensure.notNull(text, "text");
        withLock(location, "write document '" + name + "' of", () -> {
            ensureKeyFile(location);
            DurableFiles.writeAtomically(location.file(name), location.file(name + ".tmp"), Wtf8.encode(text));
            return null;
        });
    }

    /**
     * Reads the document as WTF-8 (UTF-8, and a surrogate's own three bytes). One that is not valid UTF-8 (a
     * {@code MEMORY.md} edited by hand in another encoding) or not a regular file is moved aside to
     * {@code <name>.corrupt-<time>} with a WARN, and reads as absent: the memory goes on without it.
     */
    @Override
    public Optional<String> getDocument(String key, String name) {
        Location location = locate(key);
        StoredDocument.checkName(name);
        try {
            if (!directoryExists(location)) {
                return Optional.empty();
            }
            return Optional.of(Wtf8.decode(ConfinedFiles.read(location.file(name))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (CharacterCodingException | ConfinedFiles.NotAFileException e) {
            // re-read under the lock, so that a document written in between is not moved aside
            return withLock(location, "read document '" + name + "' of", () -> readDocumentOrMoveAside(location, name));
        } catch (IOException e) {
            throw failure("read document '" + name + "' of", location, e);
        }
    }

    /** Must hold the key's lock. */
    private Optional<String> readDocumentOrMoveAside(Location location, String name) throws IOException {
        Path file = location.file(name);
        try {
            return Optional.of(Wtf8.decode(ConfinedFiles.read(file)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (CharacterCodingException e) {
            Path aside = ConfinedFiles.moveAside(file);
            log.warn("Document {} of key '{}' is not valid UTF-8 ({}): moved aside to {}; the memory goes on without"
                    + " it", name, abbreviate(location.key()), e.toString(), aside);
            return Optional.empty();
        } catch (ConfinedFiles.NotAFileException e) {
            ConfinedFiles.clearForFile(file); // says what it was and where it went
            return Optional.empty();
        }
    }

    @Override
    public List<StoredDocument> documents(String key) {
        Location location = locate(key);
        List<StoredDocument> documents = new ArrayList<>();
        List<String> misplaced = new ArrayList<>();
        try {
            if (!directoryExists(location)) {
                return List.of();
            }
            try (Stream<Path> files = Files.list(location.directory())) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    String name = file.getFileName().toString();
                    if (isDocumentName(name)) {
                        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                                LinkOption.NOFOLLOW_LINKS);
                        if (attributes.isRegularFile()) {
                            documents.add(new StoredDocument(name, attributes.size()));
                        } else {
                            misplaced.add(name);
                        }
                    }
                }
            }
        } catch (NoSuchFileException e) {
            return documents;
        } catch (IOException e) {
            throw failure("list the documents of", location, e);
        }
        if (!misplaced.isEmpty()) {
            withLock(location, "list the documents of", () -> {
                for (String name : misplaced) {
                    ConfinedFiles.clearForFile(location.file(name));
                }
                return null;
            });
        }
        return documents;
    }

    @Override
    public void deleteDocument(String key, String name) {
        Location location = locate(key);
        StoredDocument.checkName(name);
        withLock(location, "delete document '" + name + "' of", () -> {
            if (Files.exists(location.file(name), LinkOption.NOFOLLOW_LINKS)) {
                ConfinedFiles.deleteTree(location.file(name));
                if (holdsOnlyItsKey(location.directory())) {
                    deleteDirectory(location); // nothing is kept under the key any more: it is gone, as in memory
                } else {
                    DurableFiles.forceDirectory(location.directory());
                }
            }
            return null;
        });
    }

    private static boolean holdsOnlyItsKey(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.allMatch(entry -> entry.getFileName().toString().equals(KEY_FILE));
        }
    }

    // ---- leases -------------------------------------------------------------------------------

    /** A lease is the file {@code .lease-<name>} holding its owner and expiry, read and written under the key's lock. */
    @Override
    public boolean acquireLease(String key, String name, String owner, Duration ttl) {
        Location location = locate(key);
        Lease.checkName(name);
        Lease.checkRequest(owner, ttl);
        return withLock(location, "take lease '" + name + "' of", () -> {
            Path file = location.directory().resolve(LEASE_PREFIX + name);
            Instant now = Instant.now();
            Lease held = readLease(file);
            if (held != null && !held.availableTo(owner, now)) {
                return false;
            }
            ensureKeyFile(location);
            ObjectNode lease = STATE_MAPPER.createObjectNode().put("owner", owner)
                    .put("expires", now.plus(ttl).toString());
            DurableFiles.writeAtomically(file, location.file(LEASE_PREFIX + name + ".tmp"),
                    STATE_MAPPER.writeValueAsBytes(lease));
            return true;
        });
    }

    @Override
    public void releaseLease(String key, String name, String owner) {
        Location location = locate(key);
        Lease.checkName(name);
        Ensure.notNull(owner, "owner");
        withLock(location, "release lease '" + name + "' of", () -> {
            Path file = location.directory().resolve(LEASE_PREFIX + name);
            Lease held = readLease(file);
            if (held != null && held.owner().equals(owner)) {
                ConfinedFiles.deleteTree(file);
            }
            return null;
        });
    }

    /** The lease in {@code file}; {@code null} when there is none or it is unreadable (then it is free). */
    private static Lease readLease(Path file) throws IOException {
        try {
            JsonNode lease = STATE_MAPPER.readTree(ConfinedFiles.read(file));
            return new Lease(lease.get("owner").textValue(), Instant.parse(lease.get("expires").textValue()));
        } catch (NoSuchFileException e) {
            return null;
        } catch (JsonProcessingException | ConfinedFiles.NotAFileException | RuntimeException e) {
            log.warn("Ignoring the unreadable lease {}: {}", file, e.toString());
            return null;
        }
    }

    private static boolean isDocumentName(String name) {
        try {
            StoredDocument.checkName(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The entries of {@code scratch.md}: not blank, not a heading, not a torn last line. */
    private List<String> noteLines(Location location) throws IOException {
        byte[] bytes;
        try {
            if (!directoryExists(location)) {
                return List.of();
            }
            bytes = ConfinedFiles.read(location.notesFile());
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (ConfinedFiles.NotAFileException e) {
            return withLock(location, "read the notes of", () -> {
                ConfinedFiles.clearForFile(location.notesFile());
                return noteLines(location);
            });
        }
        int end = complete(bytes);
        if (end < bytes.length) {
            log.warn("Skipping a torn last line of {} (a crash during an append): {}", location.notesFile(),
                    abbreviate(new String(bytes, end, bytes.length - end, StandardCharsets.UTF_8)));
        }
        String text;
        try {
            text = Wtf8.decode(Arrays.copyOf(bytes, end));
        } catch (CharacterCodingException e) {
            return withLock(location, "read the notes of", () -> keepValidNotes(location));
        }
        return entries(text);
    }

    private static int complete(byte[] bytes) {
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        return end;
    }

    private static List<String> entries(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                lines.add(line.startsWith(NOTE_ESCAPE) ? line.substring(1) : line);
            }
        }
        return lines;
    }

    /**
     * A note as {@code scratch.md} holds it: a note that would read as a heading ({@code #…}) or as escaped is
     * written behind a {@code \}, which {@link #entries} takes off, so every line {@link #appendNote} accepts
     * comes back.
     */
    private static String fileLine(String note) {
        return note.startsWith("#") || note.startsWith(NOTE_ESCAPE) ? NOTE_ESCAPE + note : note;
    }

    /**
     * Must hold the key's lock. A notes file with lines that are not valid UTF-8 is moved aside whole and written
     * anew with its valid lines: the notes stay, the unreadable lines are kept in the copy only.
     */
    private List<String> keepValidNotes(Location location) throws IOException {
        byte[] bytes;
        try {
            bytes = ConfinedFiles.read(location.notesFile());
        } catch (NoSuchFileException e) {
            return List.of();
        }
        int end = complete(bytes);
        try {
            return entries(Wtf8.decode(Arrays.copyOf(bytes, end))); // rewritten meanwhile
        } catch (CharacterCodingException e) {
            // one line at a time below
        }
        List<String> kept = new ArrayList<>();
        List<Integer> unreadable = new ArrayList<>();
        int lineNumber = 0;
        for (int start = 0; start < end; ) {
            int stop = start;
            while (bytes[stop] != '\n') {
                stop++;
            }
            lineNumber++;
            try {
                kept.addAll(entries(Wtf8.decode(Arrays.copyOfRange(bytes, start, stop))));
            } catch (CharacterCodingException e) {
                unreadable.add(lineNumber);
            }
            start = stop + 1;
        }
        Path aside = ConfinedFiles.moveAside(location.notesFile());
        if (!kept.isEmpty()) {
            writeNotes(location, kept);
        }
        log.warn("The notes of key '{}' had {} line(s) that are not valid UTF-8 (line {}): {} moved aside to {};"
                        + " its {} valid note(s) are kept in a new {}", abbreviate(location.key()), unreadable.size(),
                unreadable.size() == 1 ? unreadable.get(0) : unreadable.subList(0, Math.min(10, unreadable.size())),
                location.notesFile(), aside, kept.size(), NOTES_FILE);
        return kept;
    }

    /** Must hold the key's lock. Writes the notes file with these lines (temp file, fsync, atomic move). */
    private static void writeNotes(Location location, List<String> lines) throws IOException {
        StringBuilder text = new StringBuilder(NOTES_HEADER).append("\n\n");
        lines.forEach(line -> text.append(fileLine(line)).append('\n'));
        DurableFiles.writeAtomically(location.notesFile(), location.file(NOTES_TEMP_FILE), Wtf8.encode(text.toString()));
    }

    /** The size of the file up to and including its last line break, or 0. */
    static long endOfLastCompleteLine(FileChannel channel, long size) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        long position = size;
        while (position > 0) {
            int length = (int) Math.min(buffer.capacity(), position);
            position -= length;
            buffer.clear().limit(length);
            while (buffer.hasRemaining() && channel.read(buffer, position + buffer.position()) >= 0) {
                // read the whole chunk
            }
            for (int i = length - 1; i >= 0; i--) {
                if (buffer.get(i) == '\n') {
                    return position + i + 1;
                }
            }
        }
        return 0;
    }

    private static void writeFully(FileChannel channel, byte[] bytes, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
        }
    }

    @Override
    public List<String> keys() {
        List<String> keys = new ArrayList<>();
        try (Stream<Path> directories = Files.list(root)) {
            for (Path directory : (Iterable<Path>) directories::iterator) {
                String name = directory.getFileName().toString();
                if (name.startsWith(".") || !ConfinedFiles.isDirectory(directory)) {
                    continue; // the store's own directories, files, links (never followed) and entries moved aside
                }
                try {
                    String key = keyOf(directory);
                    if (key == null) {
                        continue; // no state and no notes (deleted meanwhile, or only files moved aside)
                    }
                    if (directoryName(key).equals(name)) {
                        keys.add(key);
                    } else {
                        log.debug("Ignoring {}: it holds the state of another key", directory);
                    }
                } catch (CorruptStateException e) {
                    log.debug("Ignoring {}: {}", directory, e.getMessage());
                } catch (WorkingMemoryStoreException | IOException e) {
                    log.warn("Ignoring {}: {}", directory, e.toString());
                }
            }
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot list the keys in " + root + ": " + e, e);
        }
        return keys;
    }

    /**
     * {@code <root>/.crystals}: key directories are named by lower-case letters, digits, {@code -}, {@code _} and a
     * hash, never starting with a dot, so no key can collide with it.
     */
    @Override
    public Optional<Path> crystalDirectory() {
        Path directory = root.resolve(CRYSTALS_DIRECTORY);
        synchronized (FileWorkingMemoryStore.class) {
            try {
                String found = ConfinedFiles.describe(directory);
                if (found != null && !found.equals("a directory")) {
                    Path aside = ConfinedFiles.moveAside(directory);
                    log.error("{} is {}, not the directory of the long-term memory: not followed, moved aside to {}."
                            + " The crystals it should hold (every user's notes, past turns and tool outputs that"
                            + " memory_search finds) are lost to this store: the long-term memory starts empty",
                            directory, found, aside);
                }
            } catch (IOException e) {
                throw new WorkingMemoryStoreException("Cannot check the crystal directory " + directory + ": " + e, e);
            }
        }
        return Optional.of(directory);
    }

    /**
     * The directory that holds {@code key}'s files ({@code state.json}, {@code scratch.md}, {@code MEMORY.md}, …):
     * {@code <root>/<readable prefix>-<sha-256 hex>}, see the class comment. It exists once something was stored
     * under the key; the name does not change between versions, so existing stores open as they are.
     *
     * @param key a store key, such as {@link MemoryKey#resourceStoreKey()}
     */
    public Path directoryOf(String key) {
        return locate(key).directory();
    }

    /**
     * The directory of {@code key}'s resource-scoped state: the one with the state document {@code MEMORY.md}, the
     * notes log {@code scratch.md} and the dream records, shared by every thread of the resource. Get the key of a
     * memory id with {@code WorkingMemoryProvider.keyOf(memoryId)}.
     */
    public Path resourceDirectory(MemoryKey key) {
        return directoryOf(Ensure.notNull(key, "key").resourceStoreKey());
    }

    /** The directory of {@code key}'s thread-scoped state (entities, core memory, …): one per conversation. */
    public Path threadDirectory(MemoryKey key) {
        return directoryOf(Ensure.notNull(key, "key").threadStoreKey());
    }

    /** The key whose state, notes or documents {@code directory} holds, or {@code null} when it holds none. */
    private static String keyOf(Path directory) throws IOException, CorruptStateException {
        try {
            return parse(ConfinedFiles.read(directory.resolve(STATE_FILE))).key();
        } catch (NoSuchFileException e) {
            if (!holdsNotesOrDocuments(directory)) {
                return null;
            }
        } catch (ConfinedFiles.NotAFileException e) {
            throw new CorruptStateException(e.getMessage());
        }
        try {
            JsonNode key = STATE_MAPPER.readTree(ConfinedFiles.read(directory.resolve(KEY_FILE)));
            if (key == null || !key.isTextual()) {
                throw new CorruptStateException(KEY_FILE + " does not hold a JSON string");
            }
            return key.textValue();
        } catch (NoSuchFileException e) {
            throw new CorruptStateException("notes without " + KEY_FILE);
        } catch (ConfinedFiles.NotAFileException e) {
            throw new CorruptStateException(e.getMessage());
        } catch (JsonProcessingException e) {
            throw new CorruptStateException(KEY_FILE + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** Whether {@code directory} holds notes, messages or a document (a file that is none of the store's own). */
    private static boolean holdsNotesOrDocuments(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString())
                    .anyMatch(name -> name.equals(NOTES_FILE) || name.equals(MESSAGES_FILE) || isDocumentName(name));
        }
    }

    /**
     * Creates the key's directory with its {@code key.json} if it is missing: the key of notes and documents, for
     * {@link #keys} ({@code state.json} holds its key itself).
     */
    private void ensureKeyFile(Location location) throws IOException {
        createDirectory(location);
        if (ConfinedFiles.isFile(location.file(KEY_FILE))) {
            return;
        }
        DurableFiles.writeAtomically(location.file(KEY_FILE), location.file(KEY_FILE + ".tmp"),
                STATE_MAPPER.writeValueAsBytes(location.key()));
        DurableFiles.forceDirectory(root);
    }

    /**
     * Whether the key's directory exists. Anything else standing in its place (a symbolic link, a file) is moved
     * aside first, under the key's lock, with a WARN: the key then reads as absent.
     */
    private boolean directoryExists(Location location) throws IOException {
        if (ConfinedFiles.isDirectory(location.directory())) {
            return true;
        }
        if (!Files.exists(location.directory(), LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        withLock(location, "check the directory of", () -> null); // moves it aside
        return ConfinedFiles.isDirectory(location.directory());
    }

    /** Must hold the key's lock. Creates the key's directory, moving aside whatever stands in its place. */
    private void createDirectory(Location location) throws IOException {
        if (!ConfinedFiles.isDirectory(location.directory())) {
            ConfinedFiles.ensureDirectory(location.directory());
            DurableFiles.forceDirectory(root);
        }
    }

    // ---- reading and writing ----------------------------------------------------------------

    private Optional<Snapshot> read(Location location) throws IOException, CorruptStateException {
        byte[] bytes;
        try {
            if (!directoryExists(location)) {
                return Optional.empty();
            }
            bytes = ConfinedFiles.read(location.stateFile());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (ConfinedFiles.NotAFileException e) {
            throw new CorruptStateException(e.getMessage());
        }
        Snapshot snapshot = parse(bytes);
        if (!snapshot.key().equals(location.key())) {
            throw new CorruptStateException("it holds the state of key '" + abbreviate(snapshot.key()) + "'");
        }
        return Optional.of(snapshot);
    }

    /** Must hold the key's lock. */
    private Optional<Snapshot> readOrMoveAside(Location location) throws IOException {
        try {
            return read(location);
        } catch (CorruptStateException e) {
            Path aside = ConfinedFiles.moveAside(location.stateFile());
            log.warn("Corrupted state of key '{}' ({}) moved aside to {}; the memory starts from empty",
                    abbreviate(location.key()), e.getMessage(), aside);
            return Optional.empty();
        }
    }

    private static Snapshot parse(byte[] bytes) throws CorruptStateException {
        JsonNode state;
        try {
            state = STATE_MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new CorruptStateException("not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CorruptStateException("not valid JSON: " + e.getMessage());
        }
        if (state == null || !state.isObject()) {
            throw new CorruptStateException("not a JSON object");
        }
        JsonNode format = state.get("formatVersion");
        if (format == null || !format.isIntegralNumber()) {
            throw new CorruptStateException("no formatVersion");
        }
        if (format.asLong() > FORMAT_VERSION) {
            throw new WorkingMemoryStoreException("state.json has format version " + format.asLong()
                    + ", written by a newer version of this library; this one reads version " + FORMAT_VERSION);
        }
        if (format.asLong() != FORMAT_VERSION) {
            throw new CorruptStateException("unknown formatVersion " + format);
        }
        JsonNode key = state.get("key");
        if (key == null || !key.isTextual()) {
            throw new CorruptStateException("no key");
        }
        JsonNode version = state.get("version");
        if (version == null || !version.isIntegralNumber() || !version.canConvertToLong() || version.asLong() <= 0) {
            throw new CorruptStateException("no positive version");
        }
        JsonNode embedded = state.get("document");
        JsonNode text = state.get("documentText");
        String document;
        if (embedded != null && text == null) {
            try {
                document = DOCUMENT_MAPPER.writeValueAsString(embedded);
            } catch (JsonProcessingException e) {
                throw new CorruptStateException("unreadable document: " + e.getMessage());
            }
        } else if (embedded == null && text != null && text.isTextual()) {
            document = text.textValue();
        } else {
            throw new CorruptStateException("needs exactly one of document and documentText (a string)");
        }
        return new Snapshot(key.textValue(), version.asLong(), document);
    }

    /** Must hold the key's lock. */
    private void write(Location location, Snapshot snapshot) throws IOException {
        ObjectNode state = STATE_MAPPER.createObjectNode()
                .put("formatVersion", FORMAT_VERSION)
                .put("key", snapshot.key())
                .put("version", snapshot.version());
        embeddable(snapshot.document()).ifPresentOrElse(
                json -> state.set("document", json),
                () -> state.put("documentText", snapshot.document()));
        // UTF-8 output escapes surrogates, so keys and documents with unpaired surrogates survive.
        byte[] bytes = STATE_MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(state);

        createDirectory(location);
        DurableFiles.writeAtomically(location.stateFile(), location.file(TEMP_FILE), bytes);
    }

    /** The document as a JSON tree when writing that tree back gives exactly the same text. */
    private static Optional<JsonNode> embeddable(String document) {
        try {
            JsonNode json = DOCUMENT_MAPPER.readTree(document);
            if (json != null && !json.isMissingNode() && DOCUMENT_MAPPER.writeValueAsString(json).equals(document)) {
                return Optional.of(json);
            }
        } catch (JsonProcessingException e) {
            // not JSON (or beyond the limits): stored as text
        }
        return Optional.empty();
    }

    /** What identifies one state file written by one save, and the version it holds. */
    private record FileStamp(Object fileKey, long modifiedMillis, long size, long version) {

        boolean sameFile(FileStamp other) {
            return fileKey != null && fileKey.equals(other.fileKey) && modifiedMillis == other.modifiedMillis
                    && size == other.size;
        }

        FileStamp withVersion(long version) {
            return new FileStamp(fileKey, modifiedMillis, size, version);
        }
    }

    // ---- keys, paths and locks ----------------------------------------------------------------

    private record Location(String key, Path directory, Path lockFile) {

        Path stateFile() {
            return directory.resolve(STATE_FILE);
        }

        Path notesFile() {
            return directory.resolve(NOTES_FILE);
        }

        Path messagesFile() {
            return file(MESSAGES_FILE);
        }

        /**
         * A file of the key's directory: every file the store uses is named through here and reached with
         * {@link ConfinedFiles} (never through a symbolic link), its directory checked by {@link #directoryExists} or
         * made by {@link #createDirectory}.
         */
        Path file(String name) {
            return directory.resolve(name);
        }
    }

    private Location locate(String key) {
        Ensure.notNull(key, "key");
        String name = directoryName(key);
        Path directory = root.resolve(name).normalize();
        if (!directory.startsWith(root) || !root.equals(directory.getParent())) {
            throw new WorkingMemoryStoreException("Key '" + abbreviate(key) + "' resolves outside " + root);
        }
        String stripe = name.substring(name.length() - 64, name.length() - 62); // first hash byte
        return new Location(key, directory, root.resolve(LOCKS_DIRECTORY).resolve(stripe + ".lock"));
    }

    /** Readable prefix + "-" + SHA-256 hex of the key's UTF-16 code units ({@link DirectoryNames}). */
    static String directoryName(String key) {
        return DirectoryNames.of(key);
    }

    private interface LockedAction<T> {
        T run() throws IOException;
    }

    private <T> T withLock(Location location, String operation, LockedAction<T> action) {
        ReentrantLock jvmLock = JVM_LOCKS.computeIfAbsent(location.lockFile(), file -> new ReentrantLock());
        if (jvmLock.isHeldByCurrentThread()) { // the OS lock too: taken once per thread
            try {
                return action.run();
            } catch (IOException e) {
                throw failure(operation, location, e);
            }
        }
        jvmLock.lock();
        try {
            ConfinedFiles.ensureDirectory(location.lockFile().getParent());
            ConfinedFiles.clearForFile(location.lockFile());
            try (FileChannel channel = ConfinedFiles.open(location.lockFile(),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                // whatever stands in place of the key's directory and is not one is moved aside before any use
                ConfinedFiles.clearForDirectory(location.directory());
                return action.run();
            }
        } catch (IOException e) {
            throw failure(operation, location, e);
        } finally {
            jvmLock.unlock();
        }
    }

    private static WorkingMemoryStoreException failure(String operation, Location location, IOException e) {
        return new WorkingMemoryStoreException("Cannot " + operation + " key '" + abbreviate(location.key())
                + "' at " + location.directory() + ": " + e, e);
    }

    /** The key for messages and logs: control characters replaced, long keys cut. */
    private static String abbreviate(String key) {
        String shown = key.length() > 100 ? key.substring(0, 100) + "…(" + key.length() + " chars)" : key;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }

    private static ObjectMapper mapper(int maxNesting) {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(maxNesting)
                        .maxStringLength(Integer.MAX_VALUE)
                        .build())
                .build();
        return JsonMapper.builder(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    }

    /** Why a state file cannot be used; never leaves this class. */
    private static final class CorruptStateException extends Exception {

        private static final long serialVersionUID = 1L;

        CorruptStateException(String reason) {
            super(reason, null, false, false);
        }
    }
}
