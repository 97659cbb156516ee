package dev.workingmemory.jdbc;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.workingmemory.crystal.CrystalStoreContract.background;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instances that embed with another model than the one that made the stored vectors: vectors of two models are not
 * comparable even of one dimension, so the first such instance marks them stale and they are embedded again.
 */
class JdbcVectorModelTest extends DatabaseTest {

    private static final CrystalRanking VECTOR_ONLY = new CrystalRanking(0, 1, 0.5, 30);

    private JdbcCrystalStore instance(EmbeddingModel model) {
        return JdbcCrystalStore.builder().dataSource(database.dataSource()).embeddingModel(model).ranking(VECTOR_ONLY)
                .build();
    }

    private static CountingEmbeddingModel words(String name) {
        return new CountingEmbeddingModel(TestEmbeddingModels.hashing(), name);
    }

    private static List<Crystal> withDeadline() {
        List<Crystal> crystals = new ArrayList<>(background("alice"));
        crystals.add(note("deadline", "alice", "Deadline for the API migration is March 20th"));
        return crystals;
    }

    private static long crystalsEmbedded(CountingEmbeddingModel model) {
        return model.texts().stream().filter(text -> withDeadline().stream()
                .anyMatch(crystal -> crystal.text().equals(text))).distinct().count();
    }

    private String storedModel() throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT name FROM wm_vector_model WHERE id = 1")) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    @Test
    void should_embed_every_crystal_again_when_another_model_opens_the_database() throws Exception {
        CountingEmbeddingModel first = words("words-a");
        try (JdbcCrystalStore store = instance(first)) {
            store.add(withDeadline());
            database.awaitVectors(11);
        }
        assertThat(storedModel()).isEqualTo("words-a");

        CountingEmbeddingModel second = words("words-b");
        try (JdbcCrystalStore store = instance(second)) {
            assertThat(storedModel()).isEqualTo("words-b");
            // the search embeds its scope's stale vectors first (read-your-writes), or the background did already
            assertThat(store.search(new CrystalQuery("alice", "API migration deadline", 3)))
                    .extracting(hit -> hit.crystal().id()).contains("deadline");
            database.awaitVectors(11);
            assertThat(crystalsEmbedded(second)).isEqualTo(11);
        }
    }

    @Test
    void should_keep_the_vectors_when_the_same_model_opens_the_database_again() throws Exception {
        try (JdbcCrystalStore store = instance(words("words-a"))) {
            store.add(withDeadline());
            database.awaitVectors(11);
        }
        CountingEmbeddingModel again = words("words-a");
        try (JdbcCrystalStore store = instance(again)) {
            assertThat(store.search(new CrystalQuery("alice", "API migration deadline", 3)))
                    .extracting(hit -> hit.crystal().id()).contains("deadline");
            assertThat(database.vectorsStored()).isEqualTo(11);
            assertThat(again.texts()).as("the query only").hasSize(1);
        }
    }

    @Test
    void should_keep_the_vectors_of_a_model_whose_name_a_text_column_cannot_hold() throws Exception {
        String name = "words\u0000\uD800" + "x".repeat(1_000);
        try (JdbcCrystalStore store = instance(words(name))) {
            store.add(withDeadline());
            database.awaitVectors(11);
        }
        CountingEmbeddingModel again = words(name);
        try (JdbcCrystalStore store = instance(again)) {
            assertThat(store.search(new CrystalQuery("alice", "API migration deadline", 3)))
                    .extracting(hit -> hit.crystal().id()).contains("deadline");
            assertThat(again.texts()).as("the query only").hasSize(1);
            assertThat(storedModel()).startsWith("sha256:");
        }
    }

    @Test
    void should_take_vectors_that_never_recorded_their_model_for_the_default_models() throws Exception {
        try (JdbcCrystalStore store = instance(new CountingEmbeddingModel(TestEmbeddingModels.miniLm()))) {
            store.add(withDeadline());
            database.awaitVectors(11);
        }
        database.execute("DELETE FROM wm_vector_model"); // as a database of schema 4 holds them

        CountingEmbeddingModel miniLm = new CountingEmbeddingModel(TestEmbeddingModels.miniLm());
        try (JdbcCrystalStore store = instance(miniLm)) {
            assertThat(store.search(new CrystalQuery("alice", "what is the cut-off date for moving our interface", 3)))
                    .extracting(hit -> hit.crystal().id()).contains("deadline");
            assertThat(miniLm.texts()).as("the query only").hasSize(1);
            assertThat(storedModel()).isEqualTo("all-minilm-l6-v2");
        }
        database.execute("DELETE FROM wm_vector_model");

        CountingEmbeddingModel other = words("words-b");
        try (JdbcCrystalStore store = instance(other)) {
            store.search(new CrystalQuery("alice", "API migration deadline", 3));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (crystalsEmbedded(other) < 11 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(crystalsEmbedded(other)).isEqualTo(11);
        }
    }
}
