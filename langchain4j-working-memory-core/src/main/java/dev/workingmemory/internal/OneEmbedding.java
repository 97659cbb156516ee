package dev.workingmemory.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;

/**
 * One text's vector, for the crystal stores that try a text alone after a batch failed: a model that answers with
 * no embedding fails the text as a model that throws does.
 *
 * <p>Not API. Thread-safe (stateless; the model is used on the calling thread).
 */
public final class OneEmbedding {

    private OneEmbedding() {
    }

    /**
     * @return {@code model}'s embedding of {@code segment}
     * @throws IllegalStateException when the model returns none; whatever the model throws
     */
    public static Embedding of(EmbeddingModel model, TextSegment segment) {
        Embedding embedding = model.embed(segment).content();
        if (embedding == null) {
            throw new IllegalStateException("The embedding model returned no embedding");
        }
        return embedding;
    }
}
