package dev.workingmemory.jdbc;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.testing.ChildJvm;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22's "Done when" 3: a crystal indexed by one application instance (a child JVM) is found by meaning by
 * another (this JVM), which shares nothing with it but the database.
 */
class TwoJvmCrystalsTest extends DatabaseTest {

    @Test
    void should_find_by_meaning_a_note_another_jvm_took_and_embedded() throws Exception {
        CountingEmbeddingModel model = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        try (WorkingMemoryProvider reader = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(database.dataSource())).embeddingModel(model).build()) {
            assertThat(reader.memory("alice").search("anything at all", 3)).isEmpty(); // its index of alice, empty

            long embeddedThere;
            try (ChildJvm writer = ChildJvm.start(JdbcNoteTakerProcess.class, database.url(), database.schema(),
                    "alice")) {
                assertThat(writer.awaitExit(Duration.ofMinutes(4))).isZero();
                assertThat(writer.printed()).filteredOn(line -> line.startsWith("ack ")).hasSize(11)
                        .allMatch(line -> line.startsWith("ack Noted at"));
                assertThat(writer.printed()).contains("embedded 11");
                embeddedThere = writer.printed().stream().filter(line -> line.startsWith("notes embedded here "))
                        .mapToLong(line -> Long.parseLong(line.substring("notes embedded here ".length())))
                        .findFirst().orElseThrow();
            }

            // no word in common with the note ("moving" shares its stem with "moved" of another note)
            assertThat(reader.memory("alice").search("what is the cut-off date for moving our interface", 3))
                    .extracting(MemoryHit::text).anyMatch(text -> text.contains(JdbcNoteTakerProcess.DEADLINE));
            // whichever instance claims a note first embeds it (this one sweeps the table once a minute), once
            List<String> notes = new ArrayList<>(CrystalStoreContract.background("x").stream().map(Crystal::text)
                    .toList());
            notes.add(JdbcNoteTakerProcess.DEADLINE);
            long embeddedHere = model.texts().stream().filter(notes::contains).count();
            assertThat(embeddedThere + embeddedHere).as("each note embedded once, by either JVM").isEqualTo(11);
        }
    }
}
