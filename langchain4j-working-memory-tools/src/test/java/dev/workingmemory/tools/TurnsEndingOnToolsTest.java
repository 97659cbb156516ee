package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.ReturnBehavior;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.Result;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.testing.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Turns that LangChain4j ends on a tool rather than on the model's answer: a tool with
 * {@code ReturnBehavior.IMMEDIATE} (the turn's last message is its result, and the next turn's user message follows
 * it), and a tool loop stopped at {@code maxSequentialToolsInvocations} (it ends on the last result answered).
 */
class TurnsEndingOnToolsTest {

    interface Assistant {
        Result<String> chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    static final class Orders {
        @Tool(value = "Places an order and returns its confirmation", returnBehavior = ReturnBehavior.IMMEDIATE)
        public String placeOrder(@P("the product id") String product) {
            return "{\"order\": {\"id\": \"ord-" + product + "\", \"title\": \"Order of " + product + "\"}}";
        }
    }

    @Test
    void should_send_whole_tool_pairs_after_turns_that_end_with_a_tool_result() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(6).build();
        ScriptedChatModel model = ScriptedChatModel.script();
        for (int i = 1; i <= 4; i++) {
            model.thenCallTool("placeOrder", "{\"product\": \"p" + i + "\"}");
        }
        model.thenAnswer("You ordered p1 to p4.");
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(memories)
                .tools(new Orders()).systemMessageProvider(id -> "You take orders.").build();

        for (int i = 1; i <= 4; i++) {
            Result<String> result = assistant.chat("ann", "Order p" + i);
            assertThat(result.toolExecutions()).singleElement()
                    .satisfies(execution -> assertThat(execution.result()).contains("ord-p"));
        }
        assistant.chat("ann", "What did I order?");

        // a model call per turn: the immediate return ended each turn without a second one
        assertThat(model.requests()).hasSize(5);
        for (ChatRequest request : model.requests()) {
            List<ChatMessage> messages = request.messages();
            assertThat(messages.get(0)).isInstanceOf(SystemMessage.class);
            assertThat(messages.stream().filter(SystemMessage.class::isInstance)).hasSize(1);
            assertThat(messages.get(1)).isNotInstanceOf(ToolExecutionResultMessage.class);
            assertThat(messages.get(messages.size() - 1)).isInstanceOf(UserMessage.class);
            assertWholePairs(messages);
        }
        // the results reached the layers as any tool result does
        assertThat(memories.memory("ann").entities()).extracting(Entity::id)
                .contains("ord-p1", "ord-p2", "ord-p3", "ord-p4");
        assertThat(systemText(model.lastRequest())).contains("Order of p4");
        memories.close();
    }

    @Test
    void should_send_whole_tool_pairs_after_langchain4j_stopped_a_tool_loop_at_its_limit() {
        InMemoryChatMemoryStore stored = new InMemoryChatMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().chatMemoryStore(stored).build();
        ScriptedChatModel model = ScriptedChatModel.script();
        for (int i = 1; i <= 3; i++) {
            model.thenCallTool("placeOrder", "{\"product\": \"p" + i + "\"}");
        }
        model.thenAnswer("Sorry, I got stuck.");
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(memories)
                .tools(new LoopingOrders()).maxSequentialToolsInvocations(2).build();

        assertThatThrownBy(() -> assistant.chat("ann", "Order everything")).isInstanceOf(RuntimeException.class)
                .hasMessageContaining("2");
        // LangChain4j 1.19 stops before it adds the answer asking for the call over the limit: the turn ends on the
        // last result
        assertThat(stored.getMessages("ann")).last().isInstanceOf(ToolExecutionResultMessage.class);
        assistant.chat("ann", "Are you done?");

        List<ChatMessage> sent = model.lastRequest().messages();
        assertThat(sent.get(sent.size() - 1)).isInstanceOf(UserMessage.class);
        assertWholePairs(sent);
        memories.close();
    }

    /** {@link Orders}' tool, returning to the model as tools usually do. */
    static final class LoopingOrders {
        @Tool("Places an order and returns its confirmation")
        public String placeOrder(@P("the product id") String product) {
            return "{\"order\": {\"id\": \"ord-" + product + "\"}}";
        }
    }

    /** Every tool request is followed by exactly its results, and every result answers the request before it. */
    private static void assertWholePairs(List<ChatMessage> messages) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                Set<String> asked = new HashSet<>();
                ai.toolExecutionRequests().forEach(request -> asked.add(request.id()));
                Set<String> answered = new HashSet<>();
                int j = i + 1;
                while (j < messages.size() && messages.get(j) instanceof ToolExecutionResultMessage result) {
                    answered.add(result.id());
                    j++;
                }
                assertThat(answered).as("results of the request at %d", i).isEqualTo(asked);
            } else if (messages.get(i) instanceof ToolExecutionResultMessage) {
                assertThat(messages.get(i - 1)).as("what comes before the result at %d", i)
                        .matches(m -> m instanceof AiMessage || m instanceof ToolExecutionResultMessage);
            }
        }
    }
}
