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
    /** The longest name recorded as it is. */
    static final int MAX_NAME_LENGTH = 200;

    private VectorModel() {
    }

    /**
     * @return the name recorded for the vectors {@code model} makes; {@code sha256:} and the hex SHA-256 of the name
     *         when it is longer than {@value #MAX_NAME_LENGTH} characters or holds what a database's text or an
     *         index's commit data would not keep as it is (a control character, an unpaired surrogate)
     */
    public static String nameOf(EmbeddingModel model) {
        if (model instanceof AllMiniLmL6V2EmbeddingModel) {
            return MiniLmWithoutSpinning.NAME;
        }
        String name = model.modelName();
        if (name == null || name.isBlank() || name.equals("unknown")) {
            name = model.getClass().getName();
        }
        boolean keptAsItIs = name.length() <= MAX_NAME_LENGTH && name.chars().noneMatch(Character::isISOControl)
                && !Utf16.hasUnpairedSurrogate(name);
        return keptAsItIs ? name : "sha256:" + DirectoryNames.sha256Hex(name);
    }
}
