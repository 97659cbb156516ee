package dev.workingmemory.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.request.EmbeddingRequest;
import dev.langchain4j.model.embedding.response.EmbeddingResponse;
import dev.langchain4j.model.output.Response;

import java.util.List;

/**
 * The provider's default embedding model, in-process all-MiniLM-L6-v2, loaded when first used rather than when the
 * provider is built: loading it takes a second or two and some 100 MB, which a provider that never embeds (no notes
 * taken, no turn evicted yet) should not pay.
 *
 * <p>Thread-safe.
 */
public final class DefaultEmbeddingModel implements EmbeddingModel {

    /** One for the JVM: the model's weights are static in LangChain4j anyway. */
    public static final DefaultEmbeddingModel INSTANCE = new DefaultEmbeddingModel();

    private DefaultEmbeddingModel() {
    }

    /** Loads the model on first use (class initialization is lazy and thread-safe). */
    private static final class Holder {
        static final EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        return Holder.MODEL.embedAll(segments);
    }

    @Override
    public Response<Embedding> embed(String text) {
        return Holder.MODEL.embed(text);
    }

    @Override
    public Response<Embedding> embed(TextSegment segment) {
        return Holder.MODEL.embed(segment);
    }

    @Override
    public EmbeddingResponse embed(EmbeddingRequest request) {
        return Holder.MODEL.embed(request);
    }

    /** 384, known without loading the model. */
    @Override
    public int dimension() {
        return 384;
    }

    @Override
    public String modelName() {
        return "all-minilm-l6-v2";
    }
}
