package dev.workingmemory.testing;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedding model (words hashed, {@link HashingEmbeddingModel}) as a remote one behaves: down for a while (every
 * call fails, as a connection refused), refusing chosen texts (a call with a text holding a marker fails, as a provider's
 * 400 for a text too long or flagged), or going down after a number of texts. Counts its calls. Thread-safe.
 */
public final class ScriptedEmbeddingModel implements EmbeddingModel {

    public static final String DOWN = "Connection refused: the embedding service is down";
    public static final String REFUSAL = "400 Bad Request: the input was refused";

    private final EmbeddingModel model = new HashingEmbeddingModel();
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger downCalls = new AtomicInteger();
    /** Texts it embeds before it goes down; negative: no limit. */
    private final AtomicInteger textsBeforeDown = new AtomicInteger(-1);
    private volatile boolean down;
    private volatile String refused;

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        calls.incrementAndGet();
        if (down || textsBeforeDown.get() == 0) {
            downCalls.incrementAndGet();
            throw new IllegalStateException(DOWN);
        }
        String marker = refused;
        if (marker != null && segments.stream().anyMatch(segment -> segment.text().contains(marker))) {
            throw new IllegalArgumentException(REFUSAL);
        }
        if (textsBeforeDown.get() > 0 && textsBeforeDown.addAndGet(-segments.size()) < 0) {
            textsBeforeDown.set(0);
            downCalls.incrementAndGet();
            throw new IllegalStateException(DOWN);
        }
        return model.embedAll(segments);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    /** Down (every call fails) or up again (also after {@link #downAfter}). */
    public void down(boolean down) {
        this.down = down;
        if (!down) {
            textsBeforeDown.set(-1);
        }
    }

    /** Refuses every call with a text holding {@code marker} (null: none). */
    public void refusing(String marker) {
        this.refused = marker;
    }

    /** Goes down after embedding {@code texts} more texts (a call that would go past fails), until up again. */
    public void downAfter(int texts) {
        textsBeforeDown.set(texts);
    }

    /** Every call so far ({@code embedAll}, which {@code embed} calls). */
    public int calls() {
        return calls.get();
    }

    /** The calls that failed because it was down. */
    public int downCalls() {
        return downCalls.get();
    }
}
