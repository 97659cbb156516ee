package dev.workingmemory.jdbc;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.testing.ChildJvm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Two application instances, in two JVMs, writing one user's memory on one PostgreSQL database. */
class TwoInstancesTest extends DatabaseTest {

    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(8);

    @BeforeEach
    void createTables() {
        new JdbcWorkingMemoryStore(database.dataSource()); // the tables, before the two race to create them
    }

    @Test
    void should_keep_all_1000_core_memory_writes_and_1000_notes_of_two_jvms_writing_at_the_same_time() throws Exception {
        try (ChildJvm a = ChildJvm.start(JdbcToolWriterProcess.class, database.url(), database.schema(), "alice", "a", "500");
             ChildJvm b = ChildJvm.start(JdbcToolWriterProcess.class, database.url(), database.schema(), "alice", "b", "500")) {
            assertThat(a.awaitExit(CHILD_TIMEOUT)).isZero();
            assertThat(b.awaitExit(CHILD_TIMEOUT)).isZero();
            // every tool call answered success to the model: no error, no write given up after conflicts
            for (ChildJvm child : List.of(a, b)) {
                assertThat(child.printed()).filteredOn(line -> line.startsWith("ack core "))
                        .hasSize(500).allMatch(line -> line.contains(" Appended"));
                assertThat(child.printed()).filteredOn(line -> line.startsWith("ack note "))
                        .hasSize(500).allMatch(line -> line.contains(" Noted at"));
            }
        }

        WorkingMemoryProvider reader = JdbcToolWriterProcess.provider(database.dataSource());
        List<String> lines = List.of(reader.memory("alice").coreMemory().read("progress").content().split("\n"));
        List<String> notes = reader.memory("alice").notes().notes().stream().map(Note::text).toList();
        reader.close();

        assertThat(lines).hasSize(1_000);
        assertThat(notes).hasSize(1_000);
        for (String prefix : List.of("a", "b")) {
            assertThat(lines.stream().filter(line -> line.startsWith(prefix)))
                    .containsExactlyElementsOf(IntStream.range(0, 500).mapToObj(i -> prefix + i).toList());
            assertThat(notes.stream().filter(note -> note.startsWith(prefix)))
                    .containsExactlyElementsOf(IntStream.range(0, 500).mapToObj(i -> prefix + " note " + i).toList());
        }
    }
}
