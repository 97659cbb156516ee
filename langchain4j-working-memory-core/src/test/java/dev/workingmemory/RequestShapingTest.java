package dev.workingmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.RequestDraft;
import dev.workingmemory.layer.RequestShaper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Layers that shape requests: what the model is sent changes, what is stored does not. */
class RequestShapingTest {

    /** Sends tool results cut to their first line, and evicts old turns while the request is over a token limit. */
    static final class Shortener extends SilentLayer implements RequestShaper {
        final int maxTokens;
        final List<EvictedMessage> evicted = new ArrayList<>();
        int contextWindowSeen;

        Shortener(int maxTokens) {
            this.maxTokens = maxTokens;
        }

        @Override
        public void shape(RequestDraft request) {
            contextWindowSeen = request.contextWindow();
            for (ChatMessage message : request.messages()) {
                if (message instanceof ToolExecutionResultMessage result && result.text().contains("\n")) {
                    request.replace(message, ToolExecutionResultMessage.from(result.id(), result.toolName(),
                            result.text().substring(0, result.text().indexOf('\n')) + " [cut]"));
                }
            }
            while (request.tokens() > maxTokens && request.evictOldestTurn()) {
                // evicts until it fits or one turn is left
            }
        }

        @Override
        public void onEvicted(List<EvictedMessage> messages) {
            evicted.addAll(messages);
        }
    }

    private static ToolExecutionRequest call(String id) {
        return ToolExecutionRequest.builder().id(id).name("run_tests").arguments("{}").build();
    }

    @Test
    void should_send_the_shaped_tool_result_with_the_same_id_and_store_the_full_one() {
        InMemoryChatMemoryStore store = new InMemoryChatMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().chatMemoryStore(store).contextWindow(4_000)
                .layer(context -> new Shortener(100_000)).build();
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("run the tests"));
        chat.add(AiMessage.from(call("c1")));
        chat.add(ToolExecutionResultMessage.from("c1", "run_tests", "BUILD FAILURE\nline 2\nline 3"));

        List<ChatMessage> sent = chat.messages();

        assertThat(sent.get(2)).isEqualTo(ToolExecutionResultMessage.from("c1", "run_tests", "BUILD FAILURE [cut]"));
        assertThat(store.getMessages("alice").get(2)).isEqualTo(
                ToolExecutionResultMessage.from("c1", "run_tests", "BUILD FAILURE\nline 2\nline 3"));
        assertThat(memories.memory("alice").layer(Shortener.class).orElseThrow().contextWindowSeen).isEqualTo(4_000);
    }

    @Test
    void should_evict_old_turns_to_fit_and_hand_them_to_the_layers() {
        InMemoryChatMemoryStore store = new InMemoryChatMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().chatMemoryStore(store)
                .layer(context -> new Shortener(60)).build();
        ChatMemory chat = memories.get("alice");
        chat.add(SystemMessage.from("You are terse."));
        for (int i = 0; i < 5; i++) {
            chat.add(UserMessage.from("question " + i + " " + "word ".repeat(20)));
            chat.add(AiMessage.from("answer " + i));
        }

        List<ChatMessage> sent = chat.messages();

        assertThat(sent.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(sent).hasSize(3).last().isEqualTo(AiMessage.from("answer 4"));
        Shortener shortener = memories.memory("alice").layer(Shortener.class).orElseThrow();
        assertThat(shortener.evicted).hasSize(8);
        assertThat(store.getMessages("alice")).hasSize(3); // the window itself lost them, and the store follows
    }

    @Test
    void should_refuse_a_replacement_that_would_break_a_tool_call_pair() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().layer(context -> new PairBreaker()).build();
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("go"));
        chat.add(AiMessage.from(call("c1")));
        chat.add(ToolExecutionResultMessage.from("c1", "run_tests", "ok"));

        // the failing shaper is logged and the request is sent as it stands
        assertThat(chat.messages()).last().isEqualTo(ToolExecutionResultMessage.from("c1", "run_tests", "ok"));
        assertThat(PairBreaker.failure).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("same id and tool name");
    }

    /** Tries to replace a tool result by one with another id. */
    static final class PairBreaker extends SilentLayer implements RequestShaper {
        static RuntimeException failure;

        @Override
        public void shape(RequestDraft request) {
            for (ChatMessage message : request.messages()) {
                if (message instanceof ToolExecutionResultMessage) {
                    try {
                        request.replace(message, ToolExecutionResultMessage.from("other", "run_tests", "x"));
                    } catch (RuntimeException e) {
                        failure = e;
                        throw e;
                    }
                }
            }
        }
    }

    /** A layer that renders and saves nothing, named after its class. */
    abstract static class SilentLayer implements MemoryLayer {
        @Override
        public String name() {
            return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public LayerScope scope() {
            return LayerScope.THREAD;
        }

        @Override
        public int order() {
            return 96;
        }

        @Override
        public int priority() {
            return 1;
        }

        @Override
        public LayerBudget budget() {
            return LayerBudget.of(0, 10);
        }

        @Override
        public String render(int maxChars) {
            return "";
        }

        @Override
        public JsonNode snapshot() {
            return JsonNodeFactory.instance.nullNode();
        }

        @Override
        public void restore(JsonNode snapshot) {
        }
    }

    @Test
    void should_reject_replacing_a_message_that_is_not_in_the_request() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        dev.workingmemory.internal.Conversation conversation = dev.workingmemory.internal.ChatMemoryStoreConversation
                .in(new InMemoryChatMemoryStore())
                .open("a", MemoryKey.of("a"), dev.workingmemory.internal.MessageWindow.ofMessages(10));
        conversation.add(UserMessage.from("a"));
        dev.workingmemory.internal.ShapedRequest request = new dev.workingmemory.internal.ShapedRequest(null,
                conversation, dev.workingmemory.internal.CharsPerTokenEstimator.INSTANCE, 1000, 0, 0);

        assertThatThrownBy(() -> request.replace(UserMessage.from("a"), UserMessage.from("b")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in this request");
        assertThatThrownBy(() -> request.replace(request.messages().get(0), AiMessage.from("b")))
                .isInstanceOf(IllegalArgumentException.class);
        memories.close();
    }
}
