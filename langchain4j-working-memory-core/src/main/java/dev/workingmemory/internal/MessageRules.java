package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.MemoryToolNames;

/**
 * How the layers of one provider read messages: which results are the memory's own answers, and how much of a message
 * request-path analysis reads ({@link dev.workingmemory.layer.LayerContext}). Immutable (the names only grow) and
 * thread-safe.
 *
 * @param memoryTools      the memory's own tools, or null for none
 * @param maxAnalyzedChars the most characters of one message analysed on the request path
 * @param modelTools       what the provider knows of the tools its models are offered
 */
public record MessageRules(MemoryToolNames memoryTools, int maxAnalyzedChars, ModelTools modelTools) {

    public MessageRules {
        Ensure.positive(maxAnalyzedChars, "maxAnalyzedChars");
        Ensure.notNull(modelTools, "modelTools");
    }

    public MessageRules(MemoryToolNames memoryTools, int maxAnalyzedChars) {
        this(memoryTools, maxAnalyzedChars, new ModelTools(memoryTools));
    }

    boolean isMemoryToolResult(ChatMessage message) {
        return memoryTools != null && memoryTools.isResultOf(message);
    }
}
