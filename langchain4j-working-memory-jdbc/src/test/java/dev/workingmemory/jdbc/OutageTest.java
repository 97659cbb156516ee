package dev.workingmemory.jdbc;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.store.Snapshot;
import dev.workingmemory.store.VersionConflictException;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.tools.CoreMemoryTools;
import dev.workingmemory.tools.NoteTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The database server stopped and started again while the memory is in use (really: {@code pg_ctl stop} and
 * {@code start} through the script {@code .ci/run} gives in {@value TestDatabase#SERVER_VARIABLE}).
 */
class OutageTest extends DatabaseTest {

    private boolean stopped;

    @BeforeEach
    void needServerControl() {
        assumeThat(System.getenv(TestDatabase.SERVER_VARIABLE)).as("No way to stop and start the test server: set "
                + TestDatabase.SERVER_VARIABLE + " to a script taking stop|start, or run 'bash .ci/run'").isNotBlank();
    }

    @AfterEach
    void restartServer() throws Exception {
        if (stopped) {
            server("start");
        }
    }

    private void server(String action) throws Exception {
        Process process = new ProcessBuilder("bash", System.getenv(TestDatabase.SERVER_VARIABLE), action)
                .inheritIO().start();
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("server " + action + " finished").isTrue();
        assertThat(process.exitValue()).as("server " + action + " exit code").isZero();
        stopped = action.equals("stop");
    }

    @Test
    void should_tell_the_model_a_write_failed_while_the_server_is_down_and_write_again_once_it_is_back() throws Exception {
        // no pool: each store call asks the server for a new connection
        WorkingMemoryProvider provider = JdbcToolWriterProcess.provider(database.unpooledDataSource());
        CoreMemoryTools core = new CoreMemoryTools(provider);
        NoteTools notes = new NoteTools(provider);
        assertThat(core.coreMemoryUpdate("alice", "progress", "append", "before")).startsWith("Appended");
        assertThat(notes.workingMemoryNote("alice", "noted before", null, null)).startsWith("Noted at");

        server("stop");
        String coreAnswer = core.coreMemoryUpdate("alice", "progress", "append", "during");
        String noteAnswer = notes.workingMemoryNote("alice", "noted during", null, null);
        server("start");

        assertThat(coreAnswer).startsWith("Error: The memory's store could not be used").contains("Nothing was changed");
        assertThat(noteAnswer).startsWith("Error:").contains("store could not be used");
        // the same provider, not restarted
        assertThat(core.coreMemoryUpdate("alice", "progress", "append", "after")).startsWith("Appended");
        assertThat(notes.workingMemoryNote("alice", "noted after", null, null)).startsWith("Noted at");
        assertThat(provider.memory("alice").render()).doesNotContain("during");
        provider.close();

        WorkingMemoryProvider reader = JdbcToolWriterProcess.provider(database.dataSource());
        assertThat(reader.memory("alice").coreMemory().read("progress").content()).isEqualTo("before\nafter");
        assertThat(reader.memory("alice").notes().notes()).extracting(Note::text).containsExactly("noted before", "noted after");
        reader.close();
    }

    @Test
    void should_leave_only_whole_writes_when_the_server_stops_under_a_busy_writer() throws Exception {
        JdbcWorkingMemoryStore store = new JdbcWorkingMemoryStore(database.dataSource(Duration.ofSeconds(2)));
        List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        List<String> failed = Collections.synchronizedList(new ArrayList<>());
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        int[] saves = new int[2]; // acknowledged, failed
        AtomicBoolean finish = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            for (int i = 0; !finish.get(); i++) {
                String line = "- note " + i + " " + "x".repeat(200) + " end";
                try {
                    store.appendNote("k", line);
                    acknowledged.add(line);
                } catch (WorkingMemoryStoreException e) {
                    failed.add(line);
                    errors.add(e.getMessage());
                }
                try {
                    // the document names its own version: a save that landed half would break that
                    long version = store.load("k").map(Snapshot::version).orElse(0L);
                    store.save("k", version, "{\"count\":" + (version + 1) + "}");
                    saves[0]++;
                } catch (VersionConflictException e) {
                    throw e; // a single writer cannot conflict
                } catch (WorkingMemoryStoreException e) {
                    saves[1]++;
                    errors.add(e.getMessage());
                }
            }
        }, "busy-writer");
        writer.start();
        waitFor(() -> acknowledged.size() >= 30);
        server("stop");
        waitFor(() -> failed.size() >= 3);
        server("start");
        int afterRestart = acknowledged.size();
        waitFor(() -> acknowledged.size() >= afterRestart + 30);
        finish.set(true);
        writer.join(60_000);

        List<String> stored = store.notes("k");
        assertThat(stored).containsAll(acknowledged).doesNotHaveDuplicates();
        List<String> attempted = new ArrayList<>(acknowledged);
        attempted.addAll(failed);
        assertThat(attempted).containsAll(stored); // every stored line is one whole line written, nothing torn
        assertThat(errors).isNotEmpty().allMatch(message -> message.startsWith("Cannot "));
        Snapshot last = store.load("k").orElseThrow();
        assertThat(last.document()).isEqualTo("{\"count\":" + last.version() + "}");
        assertThat(last.version()).isBetween((long) saves[0], (long) saves[0] + saves[1]);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 90 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
