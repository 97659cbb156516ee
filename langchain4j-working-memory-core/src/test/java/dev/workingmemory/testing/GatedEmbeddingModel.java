package dev.workingmemory.testing;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * An embedding model behind a gate: every call waits until the test opens it, then embeds with the model given (by
 * default {@link HashingEmbeddingModel}). Holds a crystal store's indexer (or embedder) back. Thread-safe.
 */
public final class GatedEmbeddingModel implements EmbeddingModel {

    private final CountDownLatch gate = new CountDownLatch(1);
    private final EmbeddingModel model;

    public GatedEmbeddingModel() {
        this(new HashingEmbeddingModel());
    }

    public GatedEmbeddingModel(EmbeddingModel model) {
        this.model = model;
    }

    /** Lets every call through from now on. */
    public void open() {
        gate.countDown();
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return model.embedAll(segments);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }
}
