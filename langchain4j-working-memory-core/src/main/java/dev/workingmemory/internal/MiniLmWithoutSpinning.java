package dev.workingmemory.internal;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;

import java.io.IOException;
import java.io.InputStream;

/**
 * all-MiniLM-L6-v2 as {@link AllMiniLmL6V2EmbeddingModel} runs it (the same weights and tokenizer, read from that
 * model's jar, mean pooling, the same vectors), in an ONNX Runtime session whose threads sleep between operations
 * instead of spinning. ONNX Runtime's default lets each of its threads spin for a while after every operation, and
 * LangChain4j embeds a batch on as many threads as there are cores, each with as many ONNX threads: on a machine whose
 * cores are busy with anything else (two cores, a test run, another engineer's build) the spinning threads take the
 * cores from the ones with work. Measured here on two shared cores: 200 passages of 320 characters took 11.6 s of CPU
 * with spinning and 6.4 s without (wall 11.8 s and 6.6 s), with the same number of threads.
 */
final class MiniLmWithoutSpinning extends AbstractInProcessEmbeddingModel {

    static final String NAME = "all-minilm-l6-v2";
    static final int DIMENSION = 384;
    private static final String WEIGHTS = "all-minilm-l6-v2.onnx";
    private static final String TOKENIZER = "all-minilm-l6-v2-tokenizer.json";

    private final OnnxBertBiEncoder encoder;

    private MiniLmWithoutSpinning(OnnxBertBiEncoder encoder) {
        super(null); // LangChain4j's executor: one thread per core
        this.encoder = encoder;
    }

    /**
     * @return the model, or null when its resources are not where {@link AllMiniLmL6V2EmbeddingModel} keeps them (a
     *         LangChain4j version that moved them): the caller then uses that class as it is
     * @throws IllegalStateException when the resources are there and the session cannot be made
     */
    static MiniLmWithoutSpinning load() {
        ClassLoader loader = AllMiniLmL6V2EmbeddingModel.class.getClassLoader();
        try (InputStream weights = loader.getResourceAsStream(WEIGHTS);
             InputStream tokenizer = loader.getResourceAsStream(TOKENIZER)) {
            if (weights == null || tokenizer == null) {
                return null;
            }
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
                options.addConfigEntry("session.inter_op.allow_spinning", "0");
                OrtSession session = environment.createSession(weights.readAllBytes(), options);
                return new MiniLmWithoutSpinning(new OnnxBertBiEncoder(environment, session, tokenizer,
                        PoolingMode.MEAN));
            }
        } catch (IOException | OrtException e) {
            throw new IllegalStateException("Cannot load all-MiniLM-L6-v2 from " + WEIGHTS + ": " + e, e);
        }
    }

    @Override
    protected OnnxBertBiEncoder model() {
        return encoder;
    }

    @Override
    protected Integer knownDimension() {
        return DIMENSION;
    }

    @Override
    public String modelName() {
        return NAME;
    }
}
