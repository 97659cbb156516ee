package dev.workingmemory.tools;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

/** The snippet of the module README, run as written. */
class ReadmeExampleTest {

    interface Assistant {
        String chat(@MemoryId String userId, @UserMessage String message);
    }

    private static Assistant readmeSnippet(ChatModel model) {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();

        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .toolProvider(WorkingMemoryTools.toolProvider(memories))
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
                .build();
        return assistant;
    }

    @Test
    void should_run_the_readme_snippet() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"Ship v2\"}")
                .thenCallTool("updateWorkingMemory", "{\"update\": \"Next: run the release checklist\"}")
                .thenCallTool("core_memory_update", "{\"block\": \"goals\", \"operation\": \"replace\", \"content\": \"x\"}")
                .thenAnswer("Noted: we ship v2.");

        String answer = readmeSnippet(model).chat("alice", "We need to ship v2.");

        assertThat(answer).isEqualTo("Noted: we ship v2.");
        assertThat(systemText(model.lastRequest()))
                .contains("<goal chars=\"7/1000\">Ship v2</goal>")
                .contains("<scratchpad>Next: run the release checklist</scratchpad>");
        assertThat(model.lastRequest().toolSpecifications()).extracting(tool -> tool.name())
                .contains("core_memory_update", "updateWorkingMemory", "memory_search")
                .doesNotContain("working_memory_add"); // no coding agent's output yet: no session tools
        assertThat(ToolTesting.lastToolResult(model.lastRequest()))
                .isEqualTo("Error: Unknown core memory block 'goals'. Valid blocks: goal, progress, context."
                        + " How to fix: Use one of the blocks: goal, progress, context.");
    }
}
