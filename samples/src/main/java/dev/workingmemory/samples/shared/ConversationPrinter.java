package dev.workingmemory.samples.shared;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.model.chat.request.ChatRequest;

import java.io.PrintStream;

/**
 * Prints a conversation as it happens: {@code USER:}, {@code TOOL CALL:}, {@code TOOL RESULT:} (shortened),
 * {@code ASSISTANT:} and the {@code <working_memory>} block of a model request whenever it differs from the
 * block printed last. Not thread-safe: one conversation at a time.
 */
public final class ConversationPrinter {

    public static final int MAX_RESULT_CHARS = 200;

    private final PrintStream out;
    private String lastBlock = "";

    public ConversationPrinter(PrintStream out) {
        this.out = out;
    }

    public void user(String text) {
        out.println();
        out.println("USER: " + text);
    }

    public void toolCall(ToolExecutionRequest request) {
        out.println("TOOL CALL: " + request.name() + "(" + request.arguments() + ")");
    }

    public void toolResult(String result, boolean failed) {
        out.println((failed ? "TOOL FAILED: " : "TOOL RESULT: ") + shorten(result));
    }

    public void assistant(String text) {
        out.println("ASSISTANT: " + text);
    }

    /** Says which id the scripted model read from the block for a placeholder of its script. */
    public void resolved(String placeholder, String value) {
        String source = placeholder.startsWith("{{result:") ? "the last tool result" : "the working memory block";
        out.println("(scripted model: " + placeholder + " = " + value + ", read from " + source + ")");
    }

    public void note(String text) {
        out.println(text);
    }

    /** Prints the block the request carries if it changed since the last one printed. */
    public void modelRequest(ChatRequest request) {
        String block = WorkingMemoryBlock.of(WorkingMemoryBlock.systemText(request));
        if (block.equals(lastBlock)) {
            return;
        }
        lastBlock = block;
        if (block.isEmpty()) {
            out.println("WORKING MEMORY (now empty)");
            return;
        }
        out.println("WORKING MEMORY (changed, as sent to the model):");
        block.lines().forEach(line -> out.println("    " + line));
    }

    public static String shorten(String text) {
        if (text == null) {
            return "null";
        }
        String oneLine = text.replace('\n', ' ');
        return oneLine.length() <= MAX_RESULT_CHARS ? oneLine : oneLine.substring(0, MAX_RESULT_CHARS - 1) + "…";
    }
}
