package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.tools.NoteTools;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An application instance for the two-JVM crystal test, with nothing but a {@link JdbcWorkingMemoryStore}: takes the
 * ten background notes of the crystal store contract and the note {@value #DEADLINE} through
 * {@code working_memory_note}, waits until its embedder has stored the vectors of all eleven, prints
 * {@code embedded 11} and closes the provider.
 *
 * <p>Arguments: JDBC URL, schema, memory id.
 */
public final class JdbcNoteTakerProcess {

    static final String DEADLINE = "Deadline for the API migration is March 20th";

    private JdbcNoteTakerProcess() {
    }

    public static void main(String[] args) throws Exception {
        try (HikariDataSource pool = TestDatabase.pool(args[0], args[1], Duration.ofSeconds(30));
             WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(pool)).build()) {
            NoteTools notes = new NoteTools(provider);
            List<String> texts = new ArrayList<>(CrystalStoreContract.background("x").stream().map(Crystal::text).toList());
            texts.add(DEADLINE);
            for (String text : texts) {
                System.out.println("ack " + notes.workingMemoryNote(args[2], text, null, null));
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            int embedded = 0;
            while (embedded < texts.size() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                     ResultSet rows = statement.executeQuery("SELECT count(*) FROM wm_crystal WHERE vector IS NOT NULL"
                             + " AND embedded_revision = revision")) {
                    rows.next();
                    embedded = rows.getInt(1);
                }
            }
            System.out.println("embedded " + embedded);
        }
    }
}
