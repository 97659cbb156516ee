package dev.workingmemory;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

class ConcurrencyTest {

    interface Assistant {
        @dev.langchain4j.service.SystemMessage("Assistant of {{user}}.")
        String chat(@MemoryId @V("user") String user, @dev.langchain4j.service.UserMessage String message);
    }

    static class Tools {
        @Tool("Creates a page")
        String createPage(@P("id") String id) {
            return "{\"page\":{\"id\":\"" + id + "\",\"title\":\"" + id + "\"}}";
        }
    }

    /** The user a request belongs to, read from its system message ("Assistant of alice."). */
    private static String owner(ChatRequest request) {
        String system = systemText(request);
        return system.substring("Assistant of ".length(), system.indexOf('.'));
    }

    @Test
    void should_keep_two_memories_apart_when_eight_threads_drive_them_for_500_turns_each() throws Exception {
        Queue<String> crossTalk = new ConcurrentLinkedQueue<>();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            String owner = owner(request);
            String other = owner.equals("alice") ? "bob" : "alice";
            for (ChatMessage message : request.messages()) {
                if (message.toString().contains(other + "-")) {
                    crossTalk.add(owner + " saw " + message);
                }
            }
            if (systemText(request).contains("(" + other + "-")) {
                crossTalk.add(owner + " saw an entity of " + other);
            }
            ChatMessage last = request.messages().get(request.messages().size() - 1);
            if (last instanceof UserMessage user) {
                String turn = user.singleText().replace(": turn ", "-");
                return AiMessage.from(ScriptedChatModel.toolCall("createPage", "{\"id\":\"" + turn + "\"}"));
            }
            return AiMessage.from("ok " + owner);
        });
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(12).build();
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(new Tools())
                .build();

        int threads = 8;
        int turnsPerThread = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String user = t % 2 == 0 ? "alice" : "bob";
            int thread = t;
            futures.add(pool.submit(() -> {
                start.await();
                for (int turn = 0; turn < turnsPerThread; turn++) {
                    assistant.chat(user, user + ": turn " + (thread * turnsPerThread + turn));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();

        assertThat(crossTalk).isEmpty();
        // Turns of one memory id run concurrently and interleave in its window, as with any ChatMemory.
        assertThat(model.requests()).hasSizeGreaterThanOrEqualTo(threads * turnsPerThread * 2);
        for (String user : List.of("alice", "bob")) {
            WorkingMemory memory = memories.memory(user);
            assertThat(memory.entities()).hasSize(10).allSatisfy(e -> assertThat(e.id()).startsWith(user + "-"));
            List<ChatMessage> messages = memories.get(user).messages();
            assertThat(messages).hasSizeLessThanOrEqualTo(13);
            assertThat(messages).noneMatch(m -> m.toString().contains(user.equals("alice") ? "bob-" : "alice-"));
            AiServicesEndToEndTest.assertEveryToolRequestAnswered(messages);
            assertThat(messages.get(1)).isNotInstanceOf(ToolExecutionResultMessage.class);
        }
        List<Entity> alice = memories.memory("alice").entities();
        assertThat(alice).doesNotContainAnyElementsOf(memories.memory("bob").entities());
    }
}
