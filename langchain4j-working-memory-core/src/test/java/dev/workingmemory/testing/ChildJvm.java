package dev.workingmemory.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A second JVM running a {@code main} class of the test classpath, for crash tests (killed with
 * {@link Process#destroyForcibly()}, not a thread) and for two application instances on one store. Its standard
 * output is read line by line; its error output goes to this JVM's; {@link #send} writes to its standard input. Not
 * thread-safe: one test drives it.
 */
public final class ChildJvm implements AutoCloseable {

    private static final String END = "\u0000end";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private boolean ended; // END taken from lines

    private ChildJvm(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process died: what it printed before is kept
            } finally {
                lines.add(END);
            }
        }, "child-jvm-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code main} with {@code args} on this JVM's classpath. */
    public static ChildJvm start(Class<?> main, String... args) throws IOException {
        return start(System.getProperty("java.class.path"), main, args);
    }

    /**
     * Starts {@code main} with {@code args} on {@code classpath} (entries joined by the path separator), such as this
     * JVM's without the jars an application would not have.
     */
    public static ChildJvm start(String classpath, Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(classpath);
        command.add("-Xshare:auto");
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    /**
     * Reads output lines until one matches {@code expected} and returns it.
     *
     * @throws AssertionError when the child exits or {@code timeout} passes first
     */
    public String awaitLine(Predicate<String> expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            ended |= END.equals(line);
            if (line == null || END.equals(line)) {
                throw new AssertionError((line == null ? "Timed out" : "The child JVM exited") + " before printing the"
                        + " expected line; it printed: " + seen);
            }
            seen.add(line);
            if (expected.test(line)) {
                return line;
            }
        }
    }

    /** Writes {@code line} to the child's standard input. */
    public void send(String line) throws IOException {
        java.io.OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Waits for the child to exit by itself and returns its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("The child JVM did not exit within " + timeout + "; it printed: " + seen);
        }
        return process.exitValue();
    }

    /**
     * Every line the child printed, once it is gone ({@link #awaitExit}, {@link #kill}): waits for the reader to reach
     * the end of its output, which a pipe may still hold after the process exited.
     *
     * @throws IllegalStateException when the child still runs
     * @throws AssertionError when the output does not end within a minute of the exit
     */
    public List<String> printed() throws InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException("The child JVM still runs: its output is read once it is gone");
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!ended) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("The child JVM's output did not end after it exited; it printed: " + seen);
            }
            if (END.equals(line)) {
                ended = true;
            } else {
                seen.add(line);
            }
        }
        return List.copyOf(seen);
    }

    /** Kills the child at once, as a crash would ({@code SIGKILL}), and waits until it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
