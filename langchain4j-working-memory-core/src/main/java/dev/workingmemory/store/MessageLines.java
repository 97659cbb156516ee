package dev.workingmemory.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.workingmemory.internal.ConfinedFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The format of {@link FileWorkingMemoryStore}'s {@code messages.jsonl}: one JSON object per line, an entry
 * {@code {"seq":7,"entry":{…}}} (the entry as {@link MessageLogEntry#toJson()} writes it), and after a trim a first line
 * {@code {"trimmedThrough":6}}, so that the numbering goes on when no entry is left. A line's seq is read from its
 * fixed start without parsing the rest, so finding the last seq, skipping entries already read and trimming parse no
 * message. A last line without its line break is an append under way or torn by a crash: it is not read. A line that
 * cannot be read is skipped with a warning (and the store writes the file anew without it, a copy kept aside). The
 * file is read through {@link ConfinedFiles}, never through a link.
 *
 * <p>Thread-safe (stateless).
 */
final class MessageLines {

    private static final Logger log = LoggerFactory.getLogger(MessageLines.class);
    private static final byte[] ENTRY_START = "{\"seq\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEADER_START = "{\"trimmedThrough\":".getBytes(StandardCharsets.US_ASCII);

    private MessageLines() {
    }

    /** The line of an entry, without its line break. */
    static String line(long seq, MessageLogEntry entry) {
        return "{\"seq\":" + seq + ",\"entry\":" + entry.toJson() + "}";
    }

    /**
     * What {@link #read} found.
     *
     * @param log     the entries after the position asked for, and the last seq
     * @param damaged whether a complete line could not be read (skipped, warned about)
     */
    record Read(MessageLog log, boolean damaged) {
    }

    /** The entries of {@code file} after {@code afterSeq}, and its last seq; empty when there is no file. */
    static Read read(Path file, long afterSeq) throws IOException {
        byte[] bytes = readAll(file);
        return bytes == null ? new Read(MessageLog.EMPTY, false) : read(bytes, afterSeq, file, null);
    }

    /**
     * The file's complete lines that can be read, the trim header first (when there is one), or null when every one
     * can: what the file is written anew with when some cannot.
     */
    static byte[] readable(byte[] bytes, Path file) {
        ByteArrayOutputStream kept = new ByteArrayOutputStream(bytes.length);
        return read(bytes, 0, file, kept).damaged() ? kept.toByteArray() : null;
    }

    /** Reads {@code bytes}; copies each complete line that can be read to {@code kept} when it is given. */
    private static Read read(byte[] bytes, long afterSeq, Path file, ByteArrayOutputStream kept) {
        boolean damaged = false;
        long lastSeq = 0;
        List<MessageLog.Entry> entries = new ArrayList<>();
        int start = 0;
        for (int end = indexOf(bytes, start); end >= 0; start = end + 1, end = indexOf(bytes, start)) {
            long seq = seq(bytes, start, end);
            boolean readable = true;
            if (seq == 0) {
                readable = isBlank(bytes, start, end); // else unreadable: warned about
            } else if (seq < 0) {
                lastSeq = Math.max(lastSeq, -seq); // the trim header
            } else if (seq <= lastSeq) {
                log.warn("Skipping an entry of {} numbered {} after entry {}", file, seq, lastSeq);
                readable = false;
            } else if (seq <= afterSeq) {
                lastSeq = seq; // read before: not parsed again
            } else {
                MessageLogEntry entry = entry(new String(bytes, start, end - start, StandardCharsets.UTF_8), file);
                if (entry != null) {
                    lastSeq = seq;
                    entries.add(new MessageLog.Entry(seq, entry));
                } else {
                    readable = false;
                }
            }
            damaged |= !readable;
            if (kept != null && readable && seq != 0) {
                kept.write(bytes, start, end + 1 - start);
            }
        }
        if (start < bytes.length) {
            log.debug("Not reading the unfinished last line of {} ({} bytes): an append under way, or torn by a crash",
                    file, bytes.length - start);
        }
        return new Read(new MessageLog(lastSeq, entries), damaged);
    }

    private static boolean isBlank(byte[] bytes, int start, int end) {
        for (int i = start; i < end; i++) {
            if (!Character.isWhitespace(bytes[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The whole file without the entries through {@code throughSeq}: a first line saying how far it was trimmed, then
     * the other complete lines as they are; null when there is nothing to trim.
     */
    static byte[] trimmed(Path file, long throughSeq) throws IOException {
        byte[] bytes = readAll(file);
        if (bytes == null) {
            return null;
        }
        ByteArrayOutputStream kept = new ByteArrayOutputStream(bytes.length);
        long lastSeq = 0;
        boolean trimmedAny = false;
        int start = 0;
        for (int end = indexOf(bytes, start); end >= 0; start = end + 1, end = indexOf(bytes, start)) {
            long seq = seq(bytes, start, end);
            if (seq < 0) {
                lastSeq = Math.max(lastSeq, -seq);
            } else if (seq > 0) {
                lastSeq = Math.max(lastSeq, seq);
                if (seq <= throughSeq) {
                    trimmedAny = true;
                } else {
                    kept.write(bytes, start, end + 1 - start);
                }
            }
        }
        if (!trimmedAny) {
            return null;
        }
        byte[] header = ("{\"trimmedThrough\":" + Math.min(throughSeq, lastSeq) + "}\n").getBytes(StandardCharsets.UTF_8);
        byte[] text = new byte[header.length + kept.size()];
        System.arraycopy(header, 0, text, 0, header.length);
        System.arraycopy(kept.toByteArray(), 0, text, header.length, kept.size());
        return text;
    }

    /** The last seq of {@code file}, from its last complete line; 0 when there is no file. */
    static long lastSeq(Path file) throws IOException {
        try (FileChannel channel = ConfinedFiles.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            return lastSeq(channel, FileWorkingMemoryStore.endOfLastCompleteLine(channel, size), file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    /**
     * The last seq of a file whose complete lines end at {@code end}: read from its last line, or from every line's
     * start when that one cannot be read.
     */
    static long lastSeq(FileChannel channel, long end, Path file) throws IOException {
        if (end == 0) {
            return 0;
        }
        long start = FileWorkingMemoryStore.endOfLastCompleteLine(channel, end - 1); // the start of the last line
        ByteBuffer line = ByteBuffer.allocate((int) (end - start));
        while (line.hasRemaining() && channel.read(line, start + line.position()) >= 0) {
            // read the whole line
        }
        long seq = seq(line.array(), 0, line.capacity() - 1);
        return seq != 0 ? Math.abs(seq) : read(file, Long.MAX_VALUE).log().lastSeq();
    }

    /**
     * The seq at the start of the line {@code bytes[start, end)}: positive for an entry, negative for the trim
     * header's, 0 for a blank or unreadable line (warned about).
     */
    private static long seq(byte[] bytes, int start, int end) {
        boolean entry = startsWith(bytes, start, end, ENTRY_START);
        boolean header = !entry && startsWith(bytes, start, end, HEADER_START);
        if (entry || header) {
            long seq = 0;
            int i = start + (entry ? ENTRY_START.length : HEADER_START.length);
            int digits = 0;
            for (; i < end && bytes[i] >= '0' && bytes[i] <= '9' && digits < 18; i++, digits++) {
                seq = seq * 10 + (bytes[i] - '0');
            }
            if (digits > 0 && i < end && bytes[i] == (entry ? ',' : '}') && (seq > 0 || header)) {
                return entry ? seq : -seq;
            }
        }
        String text = new String(bytes, start, end - start, StandardCharsets.UTF_8);
        if (!text.isBlank()) {
            log.warn("Skipping an unreadable line of the message log: {}", text.length() > 200 ? text.substring(0, 200)
                    + "…" : text);
        }
        return 0;
    }

    /** The entry of an entry line, or null (warned about) when it cannot be read. */
    private static MessageLogEntry entry(String line, Path file) {
        try {
            JsonNode entry = MessageLogJson.MAPPER.readTree(line).get("entry");
            if (entry == null) {
                throw new IllegalArgumentException("no entry");
            }
            return MessageLogEntry.fromJson(entry.toString());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            log.warn("Skipping an unreadable line of {}: {}", file, e.getMessage());
            return null;
        }
    }

    private static boolean startsWith(byte[] bytes, int start, int end, byte[] prefix) {
        if (end - start < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[start + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The bytes of the regular file {@code file} (never through a link), or null when there is none. */
    private static byte[] readAll(Path file) throws IOException {
        try {
            return ConfinedFiles.read(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }
}
