package dev.workingmemory.crystal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The crystal example of the core module's README, as written there (with a temporary directory). */
class CrystalReadmeExampleTest {

    @TempDir
    Path memory;

    @Test
    void should_run_the_readme_example() {
        try (CrystalStore crystals = EmbeddedCrystalStore.builder()
                .directory(memory.resolve("crystals"))
                .embeddingModel(TestEmbeddingModels.miniLm()) // the default model, shared between tests
                .build()) {
            crystals.add(List.of(new Crystal("note-1", "alice", CrystalKind.NOTE, Instant.now(), 0.8,
                    List.of("decision"), "Deadline for the API migration is March 20th", "scratch.md")));
            List<CrystalHit> hits = crystals.search(new CrystalQuery("alice", "when is the migration due", 5));
            List<String> keywords = crystals.keywords("note-1", 3);

            assertThat(hits).extracting(hit -> hit.crystal().id()).containsExactly("note-1");
            assertThat(keywords).containsExactly("Deadline", "API", "migration");
        }
    }
}
