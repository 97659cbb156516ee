package dev.workingmemory.internal;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;

/**
 * The child JVM of {@link DefaultEmbeddingModelTest}: loads all-MiniLM-L6-v2 ({@code default}: as the library does,
 * {@code plain}: LangChain4j's class directly), embeds a word and prints {@code embedded <dimension>}. SLF4J's simple
 * logger writes to standard output here, so that the test reads the log lines.
 */
public final class EmbeddingModelLoad {

    private EmbeddingModelLoad() {
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.out");
        int dimension = args[0].equals("plain")
                ? new AllMiniLmL6V2EmbeddingModel().embed("locker").content().dimension()
                : DefaultEmbeddingModel.INSTANCE.embed("locker").content().dimension();
        System.out.println("embedded " + dimension);
    }
}
