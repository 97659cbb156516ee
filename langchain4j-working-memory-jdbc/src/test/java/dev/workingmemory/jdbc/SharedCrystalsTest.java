package dev.workingmemory.jdbc;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.workingmemory.jdbc.ReadmeExampleTest.assistant;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider built with nothing but a {@link JdbcWorkingMemoryStore} keeps its long-term memory in the database, so
 * {@code memory_search} on one instance finds what another one indexed ({@link TwoJvmCrystalsTest}: by meaning too).
 */
class SharedCrystalsTest extends DatabaseTest {

    private static String search(WorkingMemoryProvider memories, String query) {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("memory_search", "{\"query\": \"" + query + "\"}")
                .thenAnswer("Here is what I found.");
        assistant(model, memories).chat("alice", "What do you remember?");
        return lastToolResult(model.lastRequest());
    }

    private static String lastToolResult(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result) {
                return result.text();
            }
        }
        throw new AssertionError("No tool result in " + messages);
    }

    @Test
    void should_find_through_memory_search_what_another_instance_indexed() throws InterruptedException {
        // A's window of two messages pushes its first exchange out on the second turn: a past turn, which B can only
        // find in the crystals (B has its own message store and never read A's messages).
        List<CrystalsIndexed> indexed = new CopyOnWriteArrayList<>();
        try (WorkingMemoryProvider instanceA = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(database.dataSource())).maxMessages(2)
                .listener(new WorkingMemoryListener() {
                    @Override
                    public void onCrystalsIndexed(CrystalsIndexed event) {
                        indexed.add(event);
                    }
                }).build();
             WorkingMemoryProvider instanceB = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(database.dataSource())).build()) {
            assistant(ScriptedChatModel.script().thenAnswer("What a good name."), instanceA)
                    .chat("alice", "My beagle is called Biscuit.");
            assistant(ScriptedChatModel.script()
                    .thenCallTool("working_memory_note",
                            "{\"note\": \"Deadline for the API migration is March 20th\", \"importance\": 0.8}")
                    .thenAnswer("Noted."), instanceA)
                    .chat("alice", "The API migration is due March 20th.");

            while (instanceA.pendingCrystals() > 0) { // written behind the turns: then B finds them
                Thread.sleep(10);
            }
            assertThat(indexed).as("the note and the past turns, each reported when its rows are written")
                    .hasSizeGreaterThanOrEqualTo(2).allSatisfy(event -> assertThat(event.count()).isPositive());
            assertThat(search(instanceB, "API migration deadline"))
                    .startsWith("Found ").contains("Deadline for the API migration is March 20th");
            assertThat(search(instanceB, "beagle Biscuit"))
                    .startsWith("Found ").contains("user: My beagle is called Biscuit.");
        }
    }
}
