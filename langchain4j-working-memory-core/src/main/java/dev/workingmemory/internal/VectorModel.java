package dev.workingmemory.internal;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;

/**
 * The name a crystal store records for the embedding model of its vectors, so that it can tell when another model
 * opens it: vectors of two models are not comparable, even of one dimension. The name is the model's
 * {@code modelName()}; LangChain4j's in-process models answer {@code "unknown"}, so for those it is their class, and
 * LangChain4j's all-MiniLM-L6-v2 class is this library's default model (the same weights, the same vectors). A
 * wrapper that does not pass its model's name on counts as a model of its own.
 *
 * <p>Thread-safe (stateless).
 */
public final class VectorModel {

    /** What a store's vectors count as when it never recorded their model: the only default there was. */
    public static final String UNRECORDED = MiniLmWithoutSpinning.NAME;

    private VectorModel() {
    }

    /** @return the name recorded for the vectors {@code model} makes */
    public static String nameOf(EmbeddingModel model) {
        if (model instanceof AllMiniLmL6V2EmbeddingModel) {
            return MiniLmWithoutSpinning.NAME;
        }
        String name = model.modelName();
        return name == null || name.isBlank() || name.equals("unknown") ? model.getClass().getName() : name;
    }
}
