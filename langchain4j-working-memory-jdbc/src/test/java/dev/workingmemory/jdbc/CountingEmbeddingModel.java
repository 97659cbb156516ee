package dev.workingmemory.jdbc;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.internal.VectorModel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An embedding model that remembers every text it embedded, or fails while told to. Thread-safe. */
final class CountingEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel model;
    private final String name;
    private final List<String> texts = new CopyOnWriteArrayList<>();
    private volatile boolean failing;

    CountingEmbeddingModel(EmbeddingModel model) {
        this(model, VectorModel.nameOf(model));
    }

    /** Counts for {@code model} under another name: to a store, another model. */
    CountingEmbeddingModel(EmbeddingModel model, String name) {
        this.model = model;
        this.name = name;
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        if (failing) {
            throw new IllegalStateException("The embedding service is down");
        }
        segments.forEach(segment -> texts.add(segment.text()));
        return model.embedAll(segments);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    /** The model it counts for (the same vectors, so the same model to a store), unless named otherwise. */
    @Override
    public String modelName() {
        return name;
    }

    /** Every text embedded so far. */
    List<String> texts() {
        return List.copyOf(texts);
    }

    void failing(boolean failing) {
        this.failing = failing;
    }
}
