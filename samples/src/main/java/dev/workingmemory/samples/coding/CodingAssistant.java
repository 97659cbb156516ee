package dev.workingmemory.samples.coding;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;

/** The coding agent as an {@code AiServices} interface. Thread-safe as the built service is. */
public interface CodingAssistant {

    @SystemMessage("""
            You are a careful coding agent working on a small Java project through the tools list_files, read_file,
            edit_file and run_tests. Run the tests before and after a change. Long tool outputs reach you pruned, with
            their error lines kept; read_tool_output reads the full text. Errors you met are in the <session> part of
            the <working_memory> block below; when you decide how to fix something, note the decision with
            working_memory_add (slot decision) before you edit. Answer briefly.""")
    String chat(@MemoryId Object memoryId, @UserMessage String message);
}
