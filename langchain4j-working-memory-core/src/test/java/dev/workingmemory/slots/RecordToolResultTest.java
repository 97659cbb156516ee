package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Java coding agent's tool that returns a record: {@code AiServices} sends it to the memory as JSON, and the session
 * reads the command's output inside it as it reads a plain one.
 */
class RecordToolResultTest {

    interface Agent {
        String chat(@MemoryId String user, @UserMessage String message);
    }

    /** What a shell tool of a Java agent returns. */
    record CommandResult(int exitCode, String stdout, String stderr) {
    }

    static class Shell {
        @Tool("Runs the project's tests")
        CommandResult runTests() {
            return new CommandResult(1, "", """
                    Traceback (most recent call last):
                      File "/workspace/app.py", line 9, in main
                        print(total(100))
                    NameError: name 'total' is not defined
                    """);
        }
    }

    @Test
    void should_show_the_error_of_a_command_that_a_tool_returns_as_a_record() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("runTests", "{}")
                .thenAnswer("The tests fail: total is not defined.")
                .thenAnswer("Done.");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            Agent agent = AiServices.builder(Agent.class).chatModel(model).chatMemoryProvider(memories)
                    .tools(new Shell()).build();

            agent.chat("dev", "Run the tests, please.");
            agent.chat("dev", "Thanks.");

            assertThat(memories.memory("dev").sessionSlots().items("error"))
                    .containsExactly("NameError: name 'total' is not defined at app.py:9 in main");
            assertThat(systemText(model.lastRequest())).contains("NameError: name 'total' is not defined");
        }
    }
}
