package dev.workingmemory.tools;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreMemoryConfig;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import dev.workingmemory.testing.TestSchemas;

import java.util.List;

/** Shared set-up of the tool tests: assistants, providers and ways to read what the model was sent. */
final class ToolTesting {

    /** The seed 002 example schema; no required keys, so partial updates stay legal. */
    static final String GOAL_SCHEMA = TestSchemas.GOAL_SCHEMA;

    interface Assistant {
        String chat(@MemoryId Object user, @UserMessage String message);
    }

    private ToolTesting() {
    }

    /** An assistant with every tool of {@code memories} and the module's error handlers, as the README shows. */
    static Assistant assistant(ChatModel model, WorkingMemoryProvider memories) {
        return AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(WorkingMemoryTools.all(memories))
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
                .build();
    }

    /** Entities, core memory and a structured scratchpad validated by {@link #GOAL_SCHEMA}. */
    static WorkingMemoryProvider structuredProvider() {
        return WorkingMemoryProvider.builder()
                .scratchpad(ScratchpadConfig.builder().jsonSchema(GOAL_SCHEMA).build())
                .build();
    }

    /** Like {@link #structuredProvider()} with a small goal block, to overflow it easily. */
    static WorkingMemoryProvider structuredProviderWithGoalLimit(int goalChars) {
        return WorkingMemoryProvider.builder()
                .scratchpad(ScratchpadConfig.builder().jsonSchema(GOAL_SCHEMA).build())
                .coreMemory(CoreMemoryConfig.builder().block("goal", goalChars).build())
                .build();
    }

    /** The text of the last tool result in {@code request}: what the model read as the answer of its last call. */
    static String lastToolResult(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result) {
                return result.text();
            }
        }
        throw new AssertionError("No tool result in " + messages);
    }
}
