package dev.workingmemory.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The one way the file store and the embedded crystal store reach their files: under a root directory they own, never
 * through a symbolic link. Each entry a store uses (a key's directory, a file in it, the crystal records) is looked at
 * without following links ({@link LinkOption#NOFOLLOW_LINKS}) before it is used, and files are opened with
 * {@code NOFOLLOW_LINKS}, so neither a link in place of a directory nor one in place of a file makes a store read or
 * write outside its root. What stands where a directory or a file is expected and is not one (a symbolic link, a
 * file where a directory belongs, a directory where a file belongs) is moved aside to
 * {@code <name>.corrupt-<time>} beside it (the link itself, never what it points to), with a WARN naming both, and
 * the store goes on as if the entry were missing.
 *
 * <p>The root itself may be a link (it is the operator's choice and resolved once); the entries below it may not.
 * What is left: a directory swapped for a link between the check and the use of a file in it (a race an attacker
 * with write access to the root could try, not to its files alone) is still followed once.
 *
 * <p>Thread-safe (stateless); callers serialize changes to one entry.
 */
public final class ConfinedFiles {

    private static final Logger log = LoggerFactory.getLogger(ConfinedFiles.class);

    /** What names an entry moved aside: {@code <name>.corrupt-<time>}. */
    public static final String ASIDE_INFIX = ".corrupt-";
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private ConfinedFiles() {
    }

    /** Something other than a regular file stands where one is expected. */
    public static final class NotAFileException extends IOException {

        private static final long serialVersionUID = 1L;

        NotAFileException(Path path, String found) {
            super(path + " is " + found + ", not a regular file");
        }
    }

    /**
     * What stands at {@code path}, links not followed: {@code "a regular file"}, {@code "a directory"},
     * {@code "a symbolic link to <target>"} or {@code "a special file"}; null when nothing does.
     */
    public static String describe(Path path) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, NO_FOLLOW);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (attributes.isSymbolicLink()) {
            String target;
            try {
                target = Files.readSymbolicLink(path).toString();
            } catch (IOException | UnsupportedOperationException e) {
                target = "?";
            }
            return "a symbolic link to " + target;
        }
        return attributes.isRegularFile() ? "a regular file" : attributes.isDirectory() ? "a directory" : "a special file";
    }

    /** Whether a directory (not a link to one) stands at {@code path}. */
    public static boolean isDirectory(Path path) {
        return Files.isDirectory(path, NO_FOLLOW);
    }

    /** Whether a regular file (not a link to one) stands at {@code path}. */
    public static boolean isFile(Path path) {
        return Files.isRegularFile(path, NO_FOLLOW);
    }

    /**
     * Makes {@code path} a directory: creates it (and its parents) when missing, moves a link, a file or anything
     * else in its place aside first (WARN).
     *
     * @return where what stood there was moved, or null when nothing was
     */
    public static Path ensureDirectory(Path path) throws IOException {
        Path aside = clearForDirectory(path);
        if (!isDirectory(path)) {
            Files.createDirectories(path);
        }
        return aside;
    }

    /**
     * Moves a link, a file or anything else that is not a directory at {@code path} aside (WARN).
     *
     * @return where it was moved, or null when nothing was (the path is free or a directory)
     */
    public static Path clearForDirectory(Path path) throws IOException {
        String found = describe(path);
        if (found == null || found.equals("a directory")) {
            return null;
        }
        return moveAside(path, found, "a directory");
    }

    /**
     * Moves a link, a directory or anything else that is not a regular file at {@code path} aside (WARN), so that a
     * regular file can be written there.
     *
     * @return where it was moved, or null when nothing was (the path is free or a regular file)
     */
    public static Path clearForFile(Path path) throws IOException {
        String found = describe(path);
        if (found == null || found.equals("a regular file")) {
            return null;
        }
        return moveAside(path, found, "a regular file");
    }

    private static Path moveAside(Path path, String found, String expected) throws IOException {
        Path aside = moveAside(path);
        log.warn("{} is {} where {} belongs; not followed nor used: moved aside to {}", path, found, expected, aside);
        return aside;
    }

    /**
     * Moves the entry at {@code path} (a link itself, never what it points to) to {@code <name>.corrupt-<time>} in the
     * same directory, atomically; the caller logs why.
     *
     * @return where it is now
     */
    public static Path moveAside(Path path) throws IOException {
        Path aside = asidePath(path);
        Files.move(path, aside, StandardCopyOption.ATOMIC_MOVE);
        DurableFiles.forceDirectory(path.getParent());
        return aside;
    }

    /** A free {@code <name>.corrupt-<time>} beside {@code path}: where {@link #moveAside} moves it. */
    public static Path asidePath(Path path) {
        String stamp = TIMESTAMP.format(Instant.now());
        String name = path.getFileName().toString();
        Path aside = path.resolveSibling(name + ASIDE_INFIX + stamp);
        for (int i = 1; Files.exists(aside, NO_FOLLOW); i++) {
            aside = path.resolveSibling(name + ASIDE_INFIX + stamp + "-" + i);
        }
        return aside;
    }

    /**
     * The bytes of a regular file, read without following a link.
     *
     * @throws NoSuchFileException when nothing stands there
     * @throws NotAFileException   when a link, a directory or a special file does
     */
    public static byte[] read(Path file) throws IOException {
        try (FileChannel channel = open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size > Integer.MAX_VALUE - 16) {
                throw new IOException(file + " is too large to read (" + size + " bytes)");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // reads to the end (a file growing meanwhile is read to the size it had)
            }
            return buffer.position() == buffer.capacity() ? buffer.array()
                    : Arrays.copyOf(buffer.array(), buffer.position());
        }
    }

    /**
     * Opens a regular file without following a link ({@link LinkOption#NOFOLLOW_LINKS} is added to the options).
     *
     * @throws NotAFileException when a link, a directory or a special file stands there
     */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        String found = describe(file);
        if (found != null && !found.equals("a regular file")) {
            throw new NotAFileException(file, found);
        }
        Set<OpenOption> noFollow = new HashSet<>(Arrays.asList(options));
        noFollow.add(LinkOption.NOFOLLOW_LINKS);
        try {
            return FileChannel.open(file, noFollow);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            String now = describe(file); // swapped for a link or a directory since the check: refused all the same
            if (now != null && !now.equals("a regular file")) {
                throw new NotAFileException(file, now);
            }
            throw e;
        }
    }

    /** Deletes the entry, and for a directory everything in it, never following a link (a link is deleted itself). */
    public static void deleteTree(Path path) throws IOException {
        if (!isDirectory(path)) {
            Files.deleteIfExists(path);
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() { // does not follow links by default
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
