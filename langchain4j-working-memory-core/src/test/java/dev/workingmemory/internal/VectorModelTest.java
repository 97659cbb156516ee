package dev.workingmemory.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.testing.HashingEmbeddingModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VectorModelTest {

    @Test
    void should_name_the_default_model_alike_whichever_class_runs_it() {
        assertThat(VectorModel.nameOf(DefaultEmbeddingModel.INSTANCE)).isEqualTo(VectorModel.UNRECORDED)
                .isEqualTo("all-minilm-l6-v2");
        assertThat(VectorModel.nameOf(new AllMiniLmL6V2EmbeddingModel())).isEqualTo(VectorModel.UNRECORDED);
    }

    @Test
    void should_name_a_model_by_its_name_else_by_its_class() {
        assertThat(VectorModel.nameOf(named("text-embedding-3-small"))).isEqualTo("text-embedding-3-small");
        assertThat(VectorModel.nameOf(named("#x"))).isEqualTo("#x");
        EmbeddingModel blank = named(" ");
        assertThat(VectorModel.nameOf(blank)).isEqualTo(blank.getClass().getName());
        assertThat(VectorModel.nameOf(new HashingEmbeddingModel())).isEqualTo(HashingEmbeddingModel.class.getName());
    }

    @Test
    void should_name_a_model_by_a_hash_when_its_name_could_not_be_stored_as_it_is() {
        String nul = VectorModel.nameOf(named("model\u0000v2"));
        String newline = VectorModel.nameOf(named("model\nv2"));
        String surrogate = VectorModel.nameOf(named("model\uD800v2"));
        String longName = VectorModel.nameOf(named("m".repeat(1_000)));

        // what a database text column or an index's commit data keeps exactly: printable, at most 200 characters
        assertThat(List.of(nul, newline, surrogate, longName)).allSatisfy(name -> assertThat(name)
                .startsWith("sha256:").hasSize(71).doesNotContainPattern("\\p{Cntrl}"))
                .doesNotHaveDuplicates();
        assertThat(VectorModel.nameOf(named("m".repeat(1_000)))).isEqualTo(longName);
        assertThat(VectorModel.nameOf(named("m".repeat(200)))).isEqualTo("m".repeat(200));
    }

    /** A model of another class for each call, named {@code name}. */
    private static EmbeddingModel named(String name) {
        return new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String modelName() {
                return name;
            }
        };
    }
}
