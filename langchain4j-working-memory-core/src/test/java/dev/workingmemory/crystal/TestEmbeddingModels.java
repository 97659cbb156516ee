package dev.workingmemory.crystal;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;

/**
 * The real all-MiniLM-L6-v2 model (in-process, offline), loaded once for every test of the JVM.
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
}
