package dev.workingmemory;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example of the README, run as written (the model is scripted).
 */
class ReadmeExampleTest {

    interface Assistant {
        String chat(@MemoryId String userId, @UserMessage String message);
    }

    static class CmsTools {
        @Tool("Creates a CMS page")
        String createPage(String title) {
            return "{\"page\":{\"id\":\"page-123\",\"title\":\"" + title + "\"}}";
        }

        @Tool("Adds a section to a page")
        String addSection(String pageId, String kind) {
            return "{\"section\":{\"id\":\"sec-456\",\"heading\":\"Hero\"}}";
        }
    }

    @TempDir
    Path tempDir;

    @Test
    void should_run_the_readme_example() {
        ChatModel model = ScriptedChatModel.script()
                .thenCallTool("createPage", "{\"title\":\"About Us\"}").thenAnswer("Created About Us.")
                .then(request -> {
                    assertThat(ScriptedChatModel.systemText(request)).contains("\"About Us\" (page-123)");
                    return dev.langchain4j.data.message.AiMessage.from(
                            ScriptedChatModel.toolCall("addSection", "{\"pageId\":\"page-123\",\"kind\":\"hero\"}"));
                })
                .thenAnswer("Added a hero section to About Us.");
        Path memoryDir = tempDir.resolve("memory");

        // README: begin
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(memoryDir))   // survives restarts
                .maxMessages(20)                                 // evicts whole turns
                .contextWindow(128_000)                          // sizes the <working_memory> block
                .build();

        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(new CmsTools())                           // entities come from their results
                .build();

        assistant.chat("alice", "Create a page called About Us");
        assistant.chat("alice", "Now add a hero section to it"); // the block says: "About Us" (page-123)
        System.out.println(memories.memory("alice").render());
        // README: end

        assertThat(memories.memory("alice").render()).contains("\"About Us\" (page-123)").contains("\"Hero\" (sec-456)");
        memories.close(); // before @TempDir deletes the directory its crystal indexer writes into
    }
}
