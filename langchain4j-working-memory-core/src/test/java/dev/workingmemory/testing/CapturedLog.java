package dev.workingmemory.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the library logs while it is open: slf4j-simple (the tests' binding) writes to {@code System.err} as it is at
 * each call, so this replaces it with a stream that keeps a copy and passes everything on. Lines of every thread are
 * captured. Thread-safe; one at a time per JVM (close it in the test that opened it).
 */
public final class CapturedLog implements AutoCloseable {

    private final PrintStream original;
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

    private CapturedLog() {
        this.original = System.err;
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (copy) {
                    copy.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                synchronized (copy) {
                    copy.write(bytes, offset, length);
                }
                original.write(bytes, offset, length);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    public static CapturedLog start() {
        return new CapturedLog();
    }

    /** Everything logged so far. */
    public String text() {
        synchronized (copy) {
            return copy.toString(StandardCharsets.UTF_8);
        }
    }

    /** The lines logged so far at {@code level} ({@code "WARN"}, {@code "ERROR"}, …). */
    public List<String> lines(String level) {
        return text().lines().filter(line -> line.contains("] " + level + " ")).toList();
    }

    @Override
    public void close() {
        System.err.flush();
        System.setErr(original);
    }
}
