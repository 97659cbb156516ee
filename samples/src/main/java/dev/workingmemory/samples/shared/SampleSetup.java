package dev.workingmemory.samples.shared;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What every sample's {@code main} needs: the live model from the environment, a check of a memory directory. */
public final class SampleSetup {

    /** The model used in live mode when {@code OPENAI_MODEL} is not set. */
    public static final String DEFAULT_MODEL = "gpt-4o-mini";

    private SampleSetup() {
    }

    /** An OpenAI chat model; {@code baseUrl} (any OpenAI-compatible server) and {@code modelName} may be null. */
    public static ChatModel openAiModel(String apiKey, String baseUrl, String modelName) {
        OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
                .apiKey(apiKey)
                .modelName(modelName == null || modelName.isBlank() ? DEFAULT_MODEL : modelName.strip());
        if (baseUrl != null && !baseUrl.isBlank()) {
            builder.baseUrl(baseUrl.strip());
        }
        return builder.build();
    }

    /** Whether {@code dir} is missing or empty, so that a replay can start a memory there from scratch. */
    public static boolean isEmptyOrMissing(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
