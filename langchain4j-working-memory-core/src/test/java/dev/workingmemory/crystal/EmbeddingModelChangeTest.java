package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.testing.HashingEmbeddingModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A directory store opened with another embedding model than the one that made its vectors: vectors of two models
 * are not comparable (and Lucene refuses a second dimension in one field), so the index is rebuilt from the records
 * with the new model.
 */
class EmbeddingModelChangeTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path directory;

    /**
     * Words hashed into {@code dimensions} dimensions, counting the crystals it embeds (not the queries); named when
     * {@code name} is not null.
     */
    private static class CountingModel implements EmbeddingModel {
        private final int dimensions;
        private final String name;
        private final AtomicInteger embedded = new AtomicInteger();
        private final HashingEmbeddingModel hashing = new HashingEmbeddingModel();

        CountingModel(int dimensions, String name) {
            this.dimensions = dimensions;
            this.name = name;
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            embedded.addAndGet(segments.size());
            return Response.from(words(segments));
        }

        private List<Embedding> words(List<TextSegment> segments) {
            List<Embedding> embeddings = new ArrayList<>();
            for (Embedding hashed : hashing.embedAll(segments).content()) {
                float[] vector = new float[dimensions];
                System.arraycopy(hashed.vector(), 0, vector, 0, Math.min(dimensions, hashed.vector().length));
                vector[0] += 0.01f;
                embeddings.add(Embedding.from(vector));
            }
            return embeddings;
        }

        @Override
        public Response<Embedding> embed(String query) {
            return Response.from(words(List.of(TextSegment.from(query))).get(0));
        }

        @Override
        public int dimension() {
            return dimensions;
        }

        @Override
        public String modelName() {
            return name != null ? name : EmbeddingModel.super.modelName();
        }
    }

    private EmbeddedCrystalStore open(EmbeddingModel model) {
        return EmbeddedCrystalStore.builder().directory(directory).embeddingModel(model).build();
    }

    private static List<Crystal> notes(int from, int count) {
        List<Crystal> notes = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            notes.add(new Crystal("note-" + i, "alice", CrystalKind.NOTE, T0.plusSeconds(i), 0.5, List.of(),
                    "Note " + i + " about the migration of service " + i, null));
        }
        notes.add(new Crystal("deadline-" + from, "alice", CrystalKind.NOTE, T0, 0.5, List.of(),
                "Deadline for the API migration is March 20th", null));
        return notes;
    }

    @Test
    void should_embed_every_crystal_again_when_the_model_changes() {
        CountingModel first = new CountingModel(64, "words-64");
        try (EmbeddedCrystalStore store = open(first)) {
            store.add(notes(0, 20));
            assertThat(store.count("alice")).isEqualTo(21);
        }
        CountingModel second = new CountingModel(32, "words-32");
        try (EmbeddedCrystalStore store = open(second)) {
            store.add(notes(100, 5));

            assertThat(store.count("alice")).isEqualTo(27);
            List<CrystalHit> hits = store.search(new CrystalQuery("alice", "API migration deadline", 3));
            assertThat(hits).extracting(hit -> hit.crystal().id()).contains("deadline-0");
            assertThat(hits.get(0).scores().vector()).isNotNaN(); // found by a vector of the new model
            // the 21 kept embedded again, and the 6 new (those added while the scope is indexed again from the
            // records may be embedded twice, as after any rebuild)
            assertThat(second.embedded.get()).isGreaterThanOrEqualTo(27);
            assertThat(first.embedded.get()).isEqualTo(21);
        }
    }

    /** A plain name, and one the commit data cannot hold as it is (NUL, an unpaired surrogate, 1,000 characters). */
    static Stream<String> modelNames() {
        return Stream.of("words-64", "words\u0000\uD800" + "x".repeat(1_000));
    }

    @ParameterizedTest
    @MethodSource("modelNames")
    void should_keep_the_vectors_when_the_same_model_opens_the_store_again(String name) {
        try (EmbeddedCrystalStore store = open(new CountingModel(64, name))) {
            store.add(notes(0, 20));
            assertThat(store.count("alice")).isEqualTo(21);
        }
        CountingModel again = new CountingModel(64, name);
        try (EmbeddedCrystalStore store = open(again)) {
            assertThat(store.search(new CrystalQuery("alice", "API migration deadline", 3)))
                    .extracting(hit -> hit.crystal().id()).contains("deadline-0");
            assertThat(again.embedded.get()).isZero();
        }
    }

    @Test
    void should_tell_unnamed_models_apart_by_their_class() {
        try (EmbeddedCrystalStore store = open(new CountingModel(64, null))) {
            store.add(notes(0, 3));
            assertThat(store.count("alice")).isEqualTo(4);
        }
        CountingModel same = new CountingModel(64, null);
        try (EmbeddedCrystalStore store = open(same)) {
            assertThat(store.count("alice")).isEqualTo(4);
            assertThat(same.embedded.get()).isZero();
        }
        CountingModel other = new CountingModel(64, null) { // another class of the same dimension
        };
        try (EmbeddedCrystalStore store = open(other)) {
            List<CrystalHit> hits = store.search(new CrystalQuery("alice", "API migration deadline", 2));
            assertThat(hits).extracting(hit -> hit.crystal().id()).contains("deadline-0");
            assertThat(other.embedded.get()).isEqualTo(4);
        }
    }
}
