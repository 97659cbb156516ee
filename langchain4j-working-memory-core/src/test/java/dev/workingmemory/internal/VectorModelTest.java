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
        EmbeddingModel named = new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String modelName() {
                return "text-embedding-3-small";
            }
        };
        assertThat(VectorModel.nameOf(named)).isEqualTo("text-embedding-3-small");
        assertThat(VectorModel.nameOf(new HashingEmbeddingModel())).isEqualTo(HashingEmbeddingModel.class.getName());
    }
}
