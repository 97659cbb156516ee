package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.notes.Note;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.testing.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An assistant built with {@code executeToolsConcurrently()}: LangChain4j runs the calls of one model answer side by
 * side, so the memory's own tools write one memory from several threads at once while the application's tools return.
 */
class ConcurrentToolsTest {

    /** An application's tool; its two calls of one answer wait for each other, so they provably overlap. */
    static final class Bookings {
        private final CyclicBarrier together = new CyclicBarrier(2);
        private final Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Tool("Reads a booking by its id")
        public String getBooking(@P("the booking id") String id) throws Exception {
            threads.add(Thread.currentThread().getName());
            try {
                together.await(10, TimeUnit.SECONDS);
            } catch (BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("the two lookups did not run side by side", e);
            }
            return "{\"booking\": {\"id\": \"" + id + "\", \"title\": \"Stay " + id + "\", \"nights\": 3}}";
        }
    }

    @Test
    void should_keep_every_write_and_answer_every_call_when_the_tools_of_one_answer_run_side_by_side() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Bookings bookings = new Bookings();
        List<ToolExecutionRequest> calls = List.of(
                toolCall("core_memory_update",
                        "{\"block\": \"progress\", \"operation\": \"append\", \"content\": \"checked the flights\"}"),
                toolCall("core_memory_update",
                        "{\"block\": \"progress\", \"operation\": \"append\", \"content\": \"checked the hotels\"}"),
                toolCall("working_memory_note", "{\"note\": \"Ann travels with her dog\", \"importance\": 0.8}"),
                toolCall("getBooking", "{\"id\": \"bk-1\"}"),
                toolCall("getBooking", "{\"id\": \"bk-2\"}"));
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTools(calls.toArray(ToolExecutionRequest[]::new))
                .thenAnswer("Both stays are booked.")
                .thenAnswer("You booked bk-1 and bk-2.");
        List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
        tools.add(bookings);
        ToolTesting.Assistant assistant = AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(tools)
                .executeToolsConcurrently()
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .build();

        assertThat(assistant.chat("ann", "Check my trip")).isEqualTo("Both stays are booked.");
        assertThat(assistant.chat("ann", "What did I book?")).isEqualTo("You booked bk-1 and bk-2.");

        assertThat(bookings.threads).as("the lookups ran on two threads").hasSize(2);
        // the request after the calls: each answered once, by id, right after the answer that asked for them
        ChatRequest afterCalls = model.requests().get(1);
        List<ChatMessage> messages = afterCalls.messages();
        int asked = indexOfCalls(messages);
        Set<String> answered = new HashSet<>();
        for (ChatMessage message : messages.subList(asked + 1, messages.size())) {
            ToolExecutionResultMessage result = (ToolExecutionResultMessage) message;
            assertThat(result.text()).as(result.toolName()).doesNotStartWith("Error");
            assertThat(answered.add(result.id())).as("answered once: %s", result.id()).isTrue();
        }
        assertThat(answered).containsExactlyInAnyOrderElementsOf(calls.stream().map(ToolExecutionRequest::id).toList());
        // nothing lost: both appends, the note, both bookings' entities
        WorkingMemory memory = memories.memory("ann");
        assertThat(memory.coreMemory().read("progress").content())
                .contains("checked the flights").contains("checked the hotels");
        assertThat(memory.notes().notes()).extracting(Note::text).contains("Ann travels with her dog");
        assertThat(memory.entities()).extracting(Entity::id).contains("bk-1", "bk-2");
        // the next turn: one system message first, holding what the tools wrote
        ChatRequest nextTurn = model.lastRequest();
        assertThat(nextTurn.messages().stream().filter(SystemMessage.class::isInstance)).hasSize(1);
        assertThat(nextTurn.messages().get(0)).isInstanceOf(SystemMessage.class);
        assertThat(systemText(nextTurn)).contains("checked the flights").contains("checked the hotels")
                .contains("Stay bk-1").contains("Stay bk-2");
        memories.close();
    }

    private static int indexOfCalls(List<ChatMessage> messages) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                return i;
            }
        }
        throw new AssertionError("no tool calls in " + messages);
    }
}
