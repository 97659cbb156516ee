package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreMemoryConfig;
import dev.workingmemory.notes.NotesConfig;
import dev.workingmemory.tools.CoreMemoryTools;
import dev.workingmemory.tools.NoteTools;

import javax.sql.DataSource;
import java.time.Duration;

/**
 * An application instance on the test database for the two-JVM test: for i below the count, appends {@code <prefix><i>}
 * to core memory through the {@code core_memory_update} tool and notes {@code <prefix> note <i>} through
 * {@code working_memory_note}, printing {@code ack core <i> <answer>} and {@code ack note <i> <answer>} after each tool
 * returned, then closes the provider.
 *
 * <p>Arguments: JDBC URL, schema, memory id, text prefix, count.
 */
public final class JdbcToolWriterProcess {

    /** A block roomy enough for the 1,000 lines of two writers. */
    static final CoreMemoryConfig ROOMY = CoreMemoryConfig.builder().block("progress", 100_000).build();
    /** Limits high enough that none of the 1,000 notes of two writers is archived. */
    static final NotesConfig ROOMY_NOTES = NotesConfig.builder().softLimit(1_500).hardLimit(3_000).build();

    private JdbcToolWriterProcess() {
    }

    static WorkingMemoryProvider provider(DataSource dataSource) {
        return WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(dataSource))
                .coreMemory(ROOMY).notes(ROOMY_NOTES).build();
    }

    public static void main(String[] args) {
        String memoryId = args[2];
        String prefix = args[3];
        int count = Integer.parseInt(args[4]);
        HikariDataSource pool = TestDatabase.pool(args[0], args[1], Duration.ofSeconds(30));
        WorkingMemoryProvider provider = provider(pool);
        CoreMemoryTools core = new CoreMemoryTools(provider);
        NoteTools notes = new NoteTools(provider);
        for (int i = 0; i < count; i++) {
            System.out.println("ack core " + i + " " + core.coreMemoryUpdate(memoryId, "progress", "append", prefix + i));
            System.out.println("ack note " + i + " " + notes.workingMemoryNote(memoryId, prefix + " note " + i, null, null));
            System.out.flush();
        }
        provider.close();
        pool.close();
    }
}
