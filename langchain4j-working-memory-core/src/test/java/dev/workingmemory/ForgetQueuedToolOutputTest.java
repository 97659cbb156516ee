package dev.workingmemory;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.context.ToolOutputCache;
import dev.workingmemory.context.ToolOutputCacheConfig;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.StoredDocument;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code forget} of a user whose pruned tool output is still queued for the cache's writer thread, in a thread that is
 * no longer loaded and of which the store holds nothing yet (its messages in the application's ChatMemoryStore).
 */
class ForgetQueuedToolOutputTest {

    @Test
    void should_not_write_a_queued_tool_output_of_a_user_forgotten_before_it_was_written() throws Exception {
        CountDownLatch writerBusy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).withoutCrystals()
                .chatMemoryStore(new InMemoryChatMemoryStore()).maxCachedMemories(1)
                .toolOutputCache(ToolOutputCacheConfig.builder().crystals(chunks -> {
                    if (chunks.get(0).scope().equals(MemoryKey.of("carol").crystalScope())) {
                        writerBusy.countDown(); // carol's output holds the writer thread: alice's waits behind it
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }).build())
                .build();
        try {
            prunedToolResult(memories, "carol");
            assertThat(writerBusy.await(60, TimeUnit.SECONDS)).isTrue();
            prunedToolResult(memories, "alice");
            memories.memory("dan"); // alice's memory leaves the cache of one

            memories.forget("alice");
            release.countDown();
        } finally {
            release.countDown();
            memories.close(); // the writer finishes what is queued
        }

        assertThat(store.documents(MemoryKey.of("alice").threadStoreKey()))
                .extracting(StoredDocument::name).noneMatch(ToolOutputCache::isEntryName);
    }

    /** A tool result long enough to be pruned, its full text kept in the cache when the request is shaped. */
    private static void prunedToolResult(WorkingMemoryProvider memories, String user) {
        ToolExecutionRequest call = ToolExecutionRequest.builder().id("call-" + user).name("read_log").arguments("{}")
                .build();
        String log = IntStream.range(0, 400).mapToObj(i -> "2026-03-12 line " + i + " of the build log of " + user)
                .collect(Collectors.joining("\n"));
        memories.get(user).add(UserMessage.from("Show me the log"));
        memories.get(user).add(AiMessage.from(call));
        memories.get(user).add(ToolExecutionResultMessage.from(call, log));
        assertThat(memories.get(user).messages().toString()).contains("[Pruned tool output: 400 lines");
    }
}
