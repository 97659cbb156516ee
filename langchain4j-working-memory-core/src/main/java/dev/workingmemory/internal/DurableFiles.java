package dev.workingmemory.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writing files so that a crash leaves either the old or the new content, never a mix.
 *
 * <p>Thread-safe (stateless); callers serialize writes to one file.
 */
public final class DurableFiles {

    private static final Logger log = LoggerFactory.getLogger(DurableFiles.class);

    private DurableFiles() {
    }

    /**
     * Replaces {@code target} with {@code bytes}: writes them to {@code temp} (in the same directory), forces it to
     * disk, moves it over {@code target} atomically and forces the directory. {@code temp} is removed on failure.
     * Neither is followed if it is a symbolic link: a {@code temp} left behind is deleted and created anew, a link or
     * a directory at {@code target} is moved aside first ({@link ConfinedFiles#clearForFile}).
     */
    public static void writeAtomically(Path target, Path temp, byte[] bytes) throws IOException {
        ConfinedFiles.clearForFile(target);
        ConfinedFiles.deleteTree(temp);
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        forceDirectory(target.getParent());
    }

    /** Makes a directory's entries durable where the OS allows opening a directory (not on Windows). */
    public static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            log.trace("Cannot force directory {} to disk: {}", directory, e.toString());
        }
    }
}
