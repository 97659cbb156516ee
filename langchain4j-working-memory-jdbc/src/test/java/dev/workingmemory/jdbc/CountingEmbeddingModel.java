package dev.workingmemory.jdbc;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.internal.VectorModel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedding model that remembers every text it embedded, or fails while told to: every call (it is down), after a
 * number of texts, or a call with a text holding a marker (it refuses that text, as a remote model refuses one too long
 * or a content filter one it flags). Thread-safe.
 */
final class CountingEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel model;
    private final String name;
    private final List<String> texts = new CopyOnWriteArrayList<>();
    private final AtomicInteger refusals = new AtomicInteger();
    private final AtomicInteger downCalls = new AtomicInteger();
    private volatile boolean failing;
    private volatile String refused;
    /** Texts it embeds before it goes down; negative: no limit. */
    private final AtomicInteger textsBeforeDown = new AtomicInteger(-1);

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
        if (failing || textsBeforeDown.get() == 0) {
            downCalls.incrementAndGet();
            throw new IllegalStateException("The embedding service is down");
        }
        String marker = refused;
        if (marker != null && segments.stream().anyMatch(segment -> segment.text().contains(marker))) {
            refusals.incrementAndGet();
            throw new IllegalArgumentException("400 Bad Request: the input was refused");
        }
        if (textsBeforeDown.get() > 0 && textsBeforeDown.addAndGet(-segments.size()) < 0) {
            textsBeforeDown.set(0);
            downCalls.incrementAndGet();
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

    /** Down (every call fails) or up again. */
    void failing(boolean failing) {
        this.failing = failing;
        if (!failing) {
            textsBeforeDown.set(-1);
        }
    }

    /** Refuses every call with a text holding {@code marker} (null: none). */
    void refusing(String marker) {
        this.refused = marker;
    }

    /** Goes down after embedding {@code texts} more texts (a call that would go past fails), until told otherwise. */
    void downAfter(int texts) {
        textsBeforeDown.set(texts);
    }

    /** Calls it refused for a marked text. */
    int refusals() {
        return refusals.get();
    }

    /** Calls that failed because it was down. */
    int downCalls() {
        return downCalls.get();
    }
}
