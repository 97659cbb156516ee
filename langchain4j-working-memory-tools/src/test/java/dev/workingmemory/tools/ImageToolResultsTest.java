package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.PressureSample;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tools that return an image (LangChain4j 1.19 makes a tool's {@code Image}, {@code Content} or list of them into a
 * result of several contents, whose {@code text()} throws): every layer reads the result's text parts, and the image
 * reaches the model untouched.
 */
class ImageToolResultsTest {

    private static final String PNG = Base64.getEncoder().encodeToString(new byte[30_000]);

    @TempDir
    Path dir;

    static final class Screens {
        @Tool("Takes a screenshot of the page being edited")
        public Image screenshot() {
            return Image.builder().base64Data(PNG).mimeType("image/png").build();
        }

        @Tool("Reads a page and shows how it looks")
        public List<Content> showPage() {
            return List.of(TextContent.from("{\"page\": {\"id\": \"page-9\", \"title\": \"Pricing\"}}"),
                    ImageContent.from(PNG, "image/png"));
        }
    }

    /** An assistant with the memory's tools and {@link Screens}. */
    private static ToolTesting.Assistant assistant(ScriptedChatModel model, WorkingMemoryProvider memories) {
        List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
        tools.add(new Screens());
        return AiServices.builder(ToolTesting.Assistant.class).chatModel(model).chatMemoryProvider(memories).tools(tools)
                .build();
    }

    /**
     * LangChain4j's own {@code OpenAiTokenCountEstimator} calls {@code text()} on a tool result, which throws for one
     * with an image: such a message is counted by its text parts, and the window bounded by tokens still takes it.
     */
    @Test
    void should_count_a_result_with_an_image_when_the_models_estimator_cannot() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("showPage", "{}")
                .thenAnswer("The pricing page shows three plans.")
                .thenAnswer("Noted.");
        OpenAiTokenCountEstimator estimator = new OpenAiTokenCountEstimator("gpt-4o-mini");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxTokens(4_000, estimator)
                .contextWindow(8_000).build()) {
            ToolTesting.Assistant assistant = assistant(model, memories);

            assertThat(assistant.chat("ann", "How does the pricing page look?"))
                    .isEqualTo("The pricing page shows three plans.");
            assertThat(assistant.chat("ann", "Thanks")).isEqualTo("Noted.");

            WorkingMemory memory = memories.memory("ann");
            assertThat(memory.contextPressure().history()).hasSize(model.requests().size());
            String text = "{\"page\": {\"id\": \"page-9\", \"title\": \"Pricing\"}}";
            // the inspector's view of the request counts it too
            assertThat(memory.lastRequest().orElseThrow().tokens()).isGreaterThan(estimator.estimateTokenCountInText(text));
        }
    }

    @Test
    void should_read_the_text_of_results_that_hold_images_and_send_the_images_as_they_are() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("showPage", "{}")
                .thenCallTool("screenshot", "{}")
                .thenAnswer("The pricing page shows three plans.");
        for (int i = 0; i < 3; i++) {
            model.thenAnswer("Noted " + i + ".");
        }
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(6).build()) {
            ToolTesting.Assistant assistant = assistant(model, memories);

            assertThat(assistant.chat("ann", "How does the pricing page look?"))
                    .isEqualTo("The pricing page shows three plans.");
            // the model got both images, each result whole
            List<ToolExecutionResultMessage> sent = model.requests().get(2).messages().stream()
                    .filter(ToolExecutionResultMessage.class::isInstance).map(ToolExecutionResultMessage.class::cast)
                    .toList();
            assertThat(sent).hasSize(2);
            assertThat(sent.get(0).contents()).hasSize(2).last().isInstanceOf(ImageContent.class);
            assertThat(sent.get(1).contents()).singleElement().isInstanceOf(ImageContent.class);

            WorkingMemory memory = memories.memory("ann");
            // the text part of a result with an image names an entity; pressure measured every request
            assertThat(memory.entities()).extracting(Entity::id).contains("page-9");
            List<PressureSample> measured = memory.contextPressure().history();
            assertThat(measured).hasSize(model.requests().size());
            for (int i = 0; i < 3; i++) {
                assistant.chat("ann", "Remember the blue theme " + i + ".");
            }
            assertThat(memory.contextPressure().history()).hasSize(model.requests().size());
            // the exchange left the window and is found: its past turn was made despite the images
            List<MemoryHit> hits = memory.search("how does the pricing page look", 5);
            assertThat(hits).extracting(MemoryHit::text)
                    .anySatisfy(text -> assertThat(text).contains("How does the pricing page look?").contains("page-9"));
        }
        // the stored conversation keeps the images: a restart sends them again
        try (WorkingMemoryProvider reopened = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(20).build()) {
            ChatMemory chat = reopened.get("ann");
            List<ChatMessage> window = chat.messages();
            assertThat(window).filteredOn(ToolExecutionResultMessage.class::isInstance)
                    .map(message -> ((ToolExecutionResultMessage) message).contents())
                    .anySatisfy(contents -> assertThat(contents).anyMatch(ImageContent.class::isInstance));
        }
    }
}
