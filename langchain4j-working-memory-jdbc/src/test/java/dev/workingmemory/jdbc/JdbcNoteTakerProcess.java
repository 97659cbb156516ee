package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.internal.DefaultEmbeddingModel;
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
 * {@code working_memory_note}, waits until the vectors of all eleven are stored, prints {@code embedded 11} and how
 * many of the notes its own model embedded ({@code notes embedded here <n>}: an instance embeds what it claims
 * first), and closes the provider.
 *
 * <p>Arguments: JDBC URL, schema, memory id.
 */
public final class JdbcNoteTakerProcess {

    static final String DEADLINE = "Deadline for the API migration is March 20th";

    private JdbcNoteTakerProcess() {
    }

    public static void main(String[] args) throws Exception {
        // the provider's default model, counted (under its own name: to the store, the same model)
        CountingEmbeddingModel model = new CountingEmbeddingModel(DefaultEmbeddingModel.INSTANCE);
        try (HikariDataSource pool = TestDatabase.pool(args[0], args[1], Duration.ofSeconds(30));
             WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(pool)).embeddingModel(model).build()) {
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
            System.out.println("notes embedded here " + model.texts().stream().filter(texts::contains).count());
        }
    }
}
