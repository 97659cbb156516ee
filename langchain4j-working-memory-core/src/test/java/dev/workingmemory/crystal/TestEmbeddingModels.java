package dev.workingmemory.crystal;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.workingmemory.testing.HashingEmbeddingModel;

/**
 * Embedding models for tests: the real all-MiniLM-L6-v2 (in-process, offline), loaded once for every test of the JVM,
 * and a fast one for tests whose subject is not the quality of the vectors.
 */
public final class TestEmbeddingModels {

    private static volatile EmbeddingModel miniLm;

    private TestEmbeddingModels() {
    }

    public static EmbeddingModel miniLm() {
        if (miniLm == null) {
            synchronized (TestEmbeddingModels.class) {
                if (miniLm == null) {
                    miniLm = new AllMiniLmL6V2EmbeddingModel();
                }
            }
        }
        return miniLm;
    }

    /** Words hashed into 64 dimensions: fast, so that thousands of crystals embed in no time. */
    public static EmbeddingModel hashing() {
        return new HashingEmbeddingModel();
    }
}
