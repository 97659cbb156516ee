package dev.workingmemory.jdbc;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.tools.WorkingMemoryTools;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * One user's tool output so long that its passages outnumber what the crystal writer queues (10,000) must not stop
 * the crystals of every other user of the instance: a single add of more than the queue holds waited for room while
 * the writer, never woken, waited for work, and every later add (another user's note, on the request path) waited
 * for ever.
 */
class HugeToolOutputTest extends DatabaseTest {

    interface Assistant {
        String chat(@MemoryId String userId, @UserMessage String message);
    }

    /** A tool whose result the user chose: a page of theirs, a file they uploaded. */
    static final class Fetcher {

        @Tool("Fetches a page")
        String fetch(String url) {
            StringBuilder page = new StringBuilder();
            for (int line = 0; page.length() < 16_000_000; line++) {
                page.append("row ").append(line).append(" of a very long export, with some words to index\n");
            }
            return page.toString();
        }
    }

    @Test
    void should_keep_writing_other_users_crystals_after_a_tool_output_of_more_passages_than_the_writer_queues() {
        // preemptive: before the fix even closing the provider waited for ever (its pause adds past turns)
        assertTimeoutPreemptively(Duration.ofMinutes(2), this::mallorysOutputThenAlicesNote);
    }

    private void mallorysOutputThenAlicesNote() throws Exception {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(database.dataSource()))
                .embeddingModel(new HashingEmbeddingModel())
                .build()) {
            List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
            tools.add(new Fetcher());
            Assistant mallory = AiServices.builder(Assistant.class).chatMemoryProvider(memories).tools(tools)
                    .chatModel(ScriptedChatModel.script().thenCallTool("fetch", "{\"url\": \"https://mallory.example/\"}")
                            .thenAnswer("Fetched.")).build();
            mallory.chat("mallory", "Fetch my page");

            Assistant alice = AiServices.builder(Assistant.class).chatMemoryProvider(memories).tools(tools)
                    .chatModel(ScriptedChatModel.script().thenCallTool("working_memory_note",
                            "{\"note\": \"Alice's deadline for the API migration is March 20th\"}").thenAnswer("Noted."))
                    .build();
            CompletableFuture<String> turn = CompletableFuture.supplyAsync(() -> alice.chat("alice", "Due March 20th."));
            assertThat(turn.get(60, TimeUnit.SECONDS)).isEqualTo("Noted.");
            assertThat(memories.memory("alice").search("API migration deadline", 1)).extracting(MemoryHit::text)
                    .containsExactly("Alice's deadline for the API migration is March 20th");
        }
    }
}
