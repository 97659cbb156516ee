package dev.workingmemory.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.request.EmbeddingRequest;
import dev.langchain4j.model.embedding.response.EmbeddingResponse;
import dev.langchain4j.model.output.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.util.List;
import java.util.function.Supplier;

/**
 * The provider's default embedding model, in-process all-MiniLM-L6-v2, loaded when first used rather than when the
 * provider is built: loading it takes a second or two and some 100 MB, which a provider that never embeds (no notes
 * taken, no turn evicted yet) should not pay. Every crystal store of the library that is given no model embeds with it.
 * Its ONNX threads sleep rather than spin between operations ({@link MiniLmWithoutSpinning}): the same vectors as
 * {@link AllMiniLmL6V2EmbeddingModel}'s for about half the CPU on a busy machine.
 *
 * <p>Thread-safe.
 */
public final class DefaultEmbeddingModel implements EmbeddingModel {

    private static final Logger log = LoggerFactory.getLogger(DefaultEmbeddingModel.class);

    /** One for the JVM: the model's weights are static in LangChain4j anyway. */
    public static final DefaultEmbeddingModel INSTANCE = new DefaultEmbeddingModel();

    private DefaultEmbeddingModel() {
    }

    /** Loads the model on first use (class initialization is lazy and thread-safe). */
    private static final class Holder {
        static final EmbeddingModel MODEL = withoutCudaWarning(() -> {
            EmbeddingModel model = MiniLmWithoutSpinning.load();
            if (model == null) {
                log.debug("all-MiniLM-L6-v2's files are not where this version expects them: loaded as LangChain4j"
                        + " loads it, its ONNX threads spinning between operations");
                return new AllMiniLmL6V2EmbeddingModel();
            }
            return model;
        });
    }

    /**
     * Runs {@code load} with DJL's CUDA logging off. Loading the model loads the tokenizer's native library through DJL,
     * which first asks the CUDA runtime how many GPUs there are to pick a build; where a CUDA runtime is installed
     * without a (matching) driver it logs {@code WARN ai.djl.util.cuda.CudaUtils - Failed to detect GPU count: CUDA
     * driver version is insufficient for CUDA runtime version (35)} on every start, although this model runs on the CPU
     * either way. DJL has no setting for that line but a logging switch of its own in {@code CudaUtils}, turned off here
     * for as long as the model loads and restored after. Where a DJL version lacks the switch, the line shows as before
     * (said at DEBUG).
     */
    static <T> T withoutCudaWarning(Supplier<T> load) {
        Field logging = null;
        boolean was = true;
        try {
            logging = Class.forName("ai.djl.util.cuda.CudaUtils").getDeclaredField("logging");
            logging.setAccessible(true);
            was = logging.getBoolean(null);
            logging.setBoolean(null, false);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.debug("Cannot turn DJL's CUDA logging off while the embedding model loads: {}", e.toString());
            logging = null;
        }
        try {
            return load.get();
        } finally {
            if (logging != null) {
                try {
                    logging.setBoolean(null, was);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    log.debug("Cannot turn DJL's CUDA logging on again: {}", e.toString());
                }
            }
        }
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
        return MiniLmWithoutSpinning.DIMENSION;
    }

    @Override
    public String modelName() {
        return MiniLmWithoutSpinning.NAME;
    }
}
