package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.internal.ConfinedFiles;
import dev.workingmemory.internal.DirectoryNames;
import dev.workingmemory.internal.DurableFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The crystals' records, the source of truth the index is derived from: one append-only JSON-lines file per scope,
 * {@code root/<scope directory name>/crystals.jsonl} (names by {@link DirectoryNames}).
 *
 * <p>An append first cuts off a torn last line (a crash during an earlier append), so a torn line never merges
 * with the next record; reading skips a torn last line and any line that is not a valid record, with a WARN.
 * Removing crystals rewrites the file without them (temporary file, fsync, atomic move), so their text leaves the
 * disk. Appends are forced to disk by {@link #force()} (before each index commit), not one by one: the index never
 * commits a crystal whose record could still be lost.
 *
 * <p>Nothing is followed through a symbolic link ({@link ConfinedFiles}): a link, or a file, in place of the root
 * or a scope's directory, and a link or a directory in place of a record file, is moved aside
 * ({@code <name>.corrupt-<time>}, WARN) and the store goes on as if it were missing.
 *
 * <p>Not thread-safe: the store calls it under its write lock (and {@link #files} before starting).
 */
final class RecordLog {

    private static final Logger log = LoggerFactory.getLogger(RecordLog.class);

    static final String FILE = "crystals.jsonl";
    private static final String TEMP = "crystals.jsonl.tmp";

    private final Path root;
    private final Set<Path> unforced = new HashSet<>();
    /** What stood at the root when opened, if it was not the records' directory: null (it was), "missing", or …. */
    private final String replaced;
    /** The scope directories whose directory or record file {@link #files} moved aside. */
    private final Set<String> movedAside = new HashSet<>();

    /** @param root a directory in a real path (its parent is not followed through a link either) */
    RecordLog(Path root) throws IOException {
        String found = ConfinedFiles.describe(root);
        Path aside = ConfinedFiles.ensureDirectory(root);
        this.replaced = found == null ? "missing" : aside != null ? found + ", moved aside to " + aside : null;
        this.root = root;
    }

    /**
     * What stood where the records' directory belongs when this log was opened, if it was not that directory:
     * {@code "missing"}, or what it was and where it was moved aside; null when it was there.
     */
    String replaced() {
        return replaced;
    }

    /** The names of the scope directories whose directory or record file {@link #files} moved aside. */
    Set<String> movedAside() {
        return movedAside;
    }

    /** A scope's file as found on disk. */
    record ScopeFile(String directoryName, Path file, long length) {
    }

    /** What a file holds: its valid records in file order, and its length. */
    record Contents(List<Stored> records, long length) {

        /** @return the last record of each id (highest seq), in file order */
        Map<String, Stored> latest() {
            Map<String, Stored> latest = new LinkedHashMap<>();
            for (Stored stored : records) {
                latest.merge(stored.crystal().id(), stored, (a, b) -> a.seq() >= b.seq() ? a : b);
            }
            return latest;
        }

        long maxSeq() {
            return records.stream().mapToLong(Stored::seq).max().orElse(0);
        }
    }

    static String directoryName(String scope) {
        return DirectoryNames.of(scope);
    }

    Path fileOf(String scope) {
        return root.resolve(directoryName(scope)).resolve(FILE);
    }

    /** @return every scope file under the root (links, and files where a directory or a record file belongs, are moved aside) */
    List<ScopeFile> files() throws IOException {
        List<ScopeFile> files = new ArrayList<>();
        try (Stream<Path> directories = Files.list(root)) {
            for (Path directory : (Iterable<Path>) directories::iterator) {
                String name = directory.getFileName().toString();
                if (name.contains(ConfinedFiles.ASIDE_INFIX) || name.equals(TEMP)) {
                    continue; // moved aside before
                }
                if (ConfinedFiles.clearForDirectory(directory) != null) {
                    movedAside.add(name);
                    continue;
                }
                Path file = directory.resolve(FILE);
                if (ConfinedFiles.clearForFile(file) != null) {
                    movedAside.add(name);
                }
                long length = length(file);
                if (length >= 0) {
                    files.add(new ScopeFile(name, file, length));
                }
            }
        }
        files.sort(Comparator.comparing(ScopeFile::directoryName));
        return files;
    }

    /** The length of a record file, -1 when there is none (or something else than a regular file stands there). */
    static long length(Path file) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            return attributes.isRegularFile() ? attributes.size() : -1;
        } catch (NoSuchFileException e) {
            return -1;
        }
    }

    /** @return the file's records (empty when it does not exist; something else than a file there is moved aside) */
    Contents read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = ConfinedFiles.read(file);
        } catch (NoSuchFileException e) {
            return new Contents(List.of(), 0);
        } catch (ConfinedFiles.NotAFileException e) {
            ConfinedFiles.clearForFile(file);
            return new Contents(List.of(), 0);
        }
        List<Stored> records = new ArrayList<>();
        int start = 0;
        int lineNumber = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            lineNumber++;
            if (end == bytes.length) {
                log.warn("Skipping a torn last record of {} ({} bytes; a crash during an append)", file, end - start);
                break;
            }
            if (end > start) {
                try {
                    records.add(CrystalRecords.parse(bytes, start, end - start));
                } catch (IllegalArgumentException e) {
                    log.warn("Skipping line {} of {}: not a crystal record ({})", lineNumber, file, e.getMessage());
                }
            }
            start = end + 1;
        }
        return new Contents(records, bytes.length);
    }

    Contents read(String scope) throws IOException {
        return read(fileOf(scope));
    }

    /**
     * Some records of a file from an offset on.
     *
     * @param records the valid records read, in file order
     * @param end     the offset after the last line read
     * @param all     whether the read reached the end of the file's complete lines
     */
    record Chunk(List<Stored> records, long end, boolean all) {
    }

    /**
     * Reads at most {@code max} records of a scope's file from {@code offset} (the start of a line), skipping lines
     * that are not records (WARN) and stopping before a torn last line; an offset beyond the file's end reads
     * nothing (the file was rewritten shorter: the caller reads it again from the start).
     */
    Chunk readFrom(String scope, long offset, int max) throws IOException {
        Path file = fileOf(scope);
        long size = length(file);
        if (size < 0 || offset >= size) {
            return new Chunk(List.of(), Math.max(offset, 0), true);
        }
        List<Stored> records = new ArrayList<>();
        try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.READ)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            long position = offset;
            long lineStart = offset;
            while (records.size() < max) {
                chunk.clear();
                int read = channel.read(chunk, position);
                if (read <= 0) {
                    return new Chunk(records, lineStart, true); // what follows lineStart is a torn last line
                }
                byte[] bytes = chunk.array();
                int from = 0;
                for (int i = 0; i < read && records.size() < max; i++) {
                    if (bytes[i] == '\n') {
                        line.write(bytes, from, i - from);
                        byte[] complete = line.toByteArray();
                        line.reset();
                        if (complete.length > 0) {
                            try {
                                records.add(CrystalRecords.parse(complete, 0, complete.length));
                            } catch (IllegalArgumentException e) {
                                log.warn("Skipping a line at offset {} of {}: not a crystal record ({})", lineStart,
                                        file, e.getMessage());
                            }
                        }
                        lineStart = position + i + 1;
                        from = i + 1;
                    }
                }
                if (records.size() >= max) {
                    return new Chunk(records, lineStart, lineStart >= size);
                }
                line.write(bytes, from, read - from);
                position += read;
            }
            return new Chunk(records, lineStart, lineStart >= size);
        }
    }

    /**
     * The last valid record of a file, found by reading backwards (an earlier one when the last line is torn or
     * invalid); empty when the file holds none or does not exist.
     */
    Optional<Stored> last(Path file) throws IOException {
        long size = length(file);
        if (size < 0) {
            return Optional.empty();
        }
        try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.READ)) {
            long end = size;
            while (end > 0) {
                long lineEnd = lastIndexOf(channel, end, (byte) '\n'); // the newline ending a complete line
                if (lineEnd < 0) {
                    return Optional.empty();
                }
                long lineStart = lastIndexOf(channel, lineEnd, (byte) '\n') + 1;
                ByteBuffer line = ByteBuffer.allocate((int) (lineEnd - lineStart));
                while (line.hasRemaining() && channel.read(line, lineStart + line.position()) >= 0) {
                    // reads the whole line
                }
                try {
                    return Optional.of(CrystalRecords.parse(line.array(), 0, line.capacity()));
                } catch (IllegalArgumentException e) {
                    end = lineStart; // an invalid (or empty) line: try the one before
                }
            }
            return Optional.empty();
        }
    }

    /** @return the position of the last {@code b} before {@code end}, or -1 */
    private static long lastIndexOf(FileChannel channel, long end, byte b) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(8192);
        while (end > 0) {
            long from = Math.max(0, end - chunk.capacity());
            chunk.clear().limit((int) (end - from));
            while (chunk.hasRemaining() && channel.read(chunk, from + chunk.position()) >= 0) {
                // fills the chunk
            }
            for (int i = chunk.position() - 1; i >= 0; i--) {
                if (chunk.get(i) == b) {
                    return from + i;
                }
            }
            end = from;
        }
        return -1;
    }

    /** Appends the records of one scope; @return the offset in its file where the first of them begins */
    long append(String scope, List<Stored> records) throws IOException {
        Path file = fileOf(scope);
        Path directory = file.getParent();
        if (!ConfinedFiles.isDirectory(directory)) {
            ConfinedFiles.ensureDirectory(root);
            ConfinedFiles.ensureDirectory(directory);
            DurableFiles.forceDirectory(root);
        }
        ConfinedFiles.clearForFile(file);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (Stored stored : records) {
            bytes.writeBytes(CrystalRecords.line(stored));
        }
        try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            long start = cutTornTail(channel, file);
            ByteBuffer buffer = ByteBuffer.wrap(bytes.toByteArray());
            long position = start;
            while (buffer.hasRemaining()) {
                position += channel.write(buffer, position);
            }
            unforced.add(file);
            return start;
        }
    }

    /**
     * Rewrites a scope's file with only the records {@code keep} accepts, the last of each id, when it drops
     * any; removes the file and its directory when none is kept.
     *
     * @return the new length, 0 when removed
     */
    long rewrite(String scope, Predicate<Stored> keep) throws IOException {
        Path file = fileOf(scope);
        Contents contents = read(file);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean dropped = false;
        for (Stored stored : contents.latest().values()) {
            if (keep.test(stored)) {
                bytes.writeBytes(CrystalRecords.line(stored));
            } else {
                dropped = true;
            }
        }
        if (!dropped) {
            return contents.length();
        }
        if (bytes.size() == 0) {
            deleteScope(scope);
            return 0;
        }
        DurableFiles.writeAtomically(file, file.resolveSibling(TEMP), bytes.toByteArray());
        unforced.remove(file);
        return bytes.size();
    }

    /** Removes the scope's file and directory. */
    void deleteScope(String scope) throws IOException {
        Path file = fileOf(scope);
        unforced.remove(file);
        if (!ConfinedFiles.isDirectory(file.getParent())) {
            Files.deleteIfExists(file.getParent()); // a link in its place is deleted itself, never followed
            return;
        }
        ConfinedFiles.deleteTree(file);
        ConfinedFiles.deleteTree(file.resolveSibling(TEMP));
        try (Stream<Path> left = Files.list(file.getParent())) {
            if (left.findAny().isPresent()) {
                log.warn("Left {}: it holds files that are not crystal records", file.getParent());
                return;
            }
        }
        Files.delete(file.getParent());
        DurableFiles.forceDirectory(root);
    }

    /** Forces every file appended to since the last call to disk. */
    void force() throws IOException {
        for (Path file : List.copyOf(unforced)) {
            try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.READ)) {
                channel.force(true);
            } catch (NoSuchFileException | ConfinedFiles.NotAFileException e) {
                // removed meanwhile (or replaced: not ours to force)
            }
            unforced.remove(file);
        }
    }

    /** @return where the valid part of the file ends, after cutting off a torn last line */
    private static long cutTornTail(FileChannel channel, Path file) throws IOException {
        long size = channel.size();
        if (size == 0 || lastByte(channel, size - 1) == '\n') {
            return size;
        }
        long end = lastIndexOf(channel, size, (byte) '\n') + 1;
        log.warn("Cutting off a torn last record ({} bytes) of {} before appending", size - end, file);
        channel.truncate(end);
        return end;
    }

    private static byte lastByte(FileChannel channel, long position) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, position);
        return one.get(0);
    }
}
