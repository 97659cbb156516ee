package dev.workingmemory;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The memory driven by real {@code AiServices} with a scripted model.
 */
class AiServicesEndToEndTest {

    interface Assistant {
        String chat(@MemoryId String user, @UserMessage String message);
    }

    interface SystemAssistant {
        @dev.langchain4j.service.SystemMessage("You are a CMS assistant.")
        String chat(@MemoryId String user, @UserMessage String message);
    }

    static class CmsTools {
        @Tool("Creates a page")
        String createPage(@P("title") String title) {
            String id = "page-" + Math.abs(title.hashCode() % 1000);
            return "{\"page\":{\"id\":\"" + id + "\",\"title\":\"" + title + "\"}}";
        }

        @Tool("Creates a page with a given id")
        String createPageWithId(@P("id") String id, @P("title") String title) {
            return "{\"page\":{\"id\":\"" + id + "\",\"title\":\"" + title + "\"}}";
        }

        @Tool("Fetches a page")
        String getPage(@P("id") String id) {
            return "{\"page\":{\"id\":\"" + id + "\",\"title\":\"Page " + id + "\"}}";
        }

        @Tool("Adds a section to a page")
        String addSection(@P("pageId") String pageId, @P("kind") String kind) {
            return "{\"section\":{\"id\":\"sec-1\",\"heading\":\"" + kind + "\"}}";
        }

        @Tool("Sets the count")
        String setCount(@P("count") int count) {
            return "ok " + count;
        }
    }

    private static <T> T assistant(Class<T> type, ScriptedChatModel model, WorkingMemoryProvider memories) {
        return AiServices.builder(type)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(new CmsTools())
                .build();
    }

    @Test
    void should_put_a_created_page_into_the_block_of_the_very_next_request() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("createPage", "{\"title\":\"About Us\"}")
                .thenAnswer("Created the page About Us.")
                .thenCallTool("addSection", "{\"pageId\":\"page-123\",\"kind\":\"hero\"}")
                .thenAnswer("Added a hero section.");
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(new Object() {
                    @Tool("Creates a page")
                    String createPage(@P("title") String title) {
                        return "{\"page\":{\"id\":\"page-123\",\"title\":\"" + title + "\"}}";
                    }

                    @Tool("Adds a section to a page")
                    String addSection(@P("pageId") String pageId, @P("kind") String kind) {
                        return "{\"section\":{\"id\":\"sec-456\",\"heading\":\"Hero\"}}";
                    }
                })
                .build();

        assistant.chat("alice", "Create a page called About Us");

        List<ChatRequest> requests = model.requests();
        assertThat(systemText(requests.get(0))).doesNotContain("page-123");
        assertThat(systemText(requests.get(1)))
                .contains("<working_memory>")
                .contains("<entities>pages:\n  - \"About Us\" (page-123)");

        assistant.chat("alice", "Now add a hero section to it");

        assertThat(systemText(model.requests().get(2))).contains("\"About Us\" (page-123)");
        assertThat(memories.memory("alice").entities())
                .containsExactly(new Entity("sec-456", "Hero", "section"), new Entity("page-123", "About Us", "page"));
    }

    @Test
    void should_forget_the_oldest_of_eleven_entities_and_move_a_fetched_one_to_the_front() {
        ScriptedChatModel model = ScriptedChatModel.script();
        for (int i = 1; i <= 11; i++) {
            model.thenCallTool("createPageWithId", "{\"id\":\"page-" + i + "\",\"title\":\"Page " + i + "\"}");
        }
        model.thenAnswer("Created eleven pages.")
                .thenCallTool("getPage", "{\"id\":\"page-5\"}")
                .thenAnswer("Here is page 5.")
                .thenAnswer("ok");
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Assistant assistant = assistant(Assistant.class, model, memories);

        assistant.chat("bob", "Create eleven pages");

        List<Entity> entities = memories.memory("bob").entities();
        assertThat(entities).hasSize(10);
        assertThat(entities.get(0).id()).isEqualTo("page-11");
        assertThat(entities).extracting(Entity::id).doesNotContain("page-1");
        assertThat(systemText(model.lastRequest())).contains("(page-11)").doesNotContain("(page-1)");

        assistant.chat("bob", "Show me page 5");

        assertThat(memories.memory("bob").entities().get(0).id()).isEqualTo("page-5");
        assistant.chat("bob", "thanks");
        String block = systemText(model.lastRequest());
        assertThat(block.indexOf("(page-5)")).isLessThan(block.indexOf("(page-11)"));
    }

    @Test
    void should_send_exactly_one_system_message_first_in_every_request_of_a_five_turn_conversation() {
        ScriptedChatModel model = ScriptedChatModel.script();
        for (int turn = 1; turn <= 5; turn++) {
            model.thenCallTool("createPageWithId", "{\"id\":\"page-" + turn + "\",\"title\":\"T" + turn + "\"}")
                    .thenAnswer("done " + turn);
        }
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        SystemAssistant assistant = assistant(SystemAssistant.class, model, memories);

        for (int turn = 1; turn <= 5; turn++) {
            assistant.chat("carol", "turn " + turn);
        }

        assertThat(model.requests()).hasSize(10);
        for (ChatRequest request : model.requests()) {
            List<ChatMessage> messages = request.messages();
            assertThat(messages.get(0)).isInstanceOf(SystemMessage.class);
            assertThat(messages.stream().filter(SystemMessage.class::isInstance)).hasSize(1);
            assertThat(((SystemMessage) messages.get(0)).text()).startsWith("You are a CMS assistant.");
        }
        assertThat(systemText(model.lastRequest())).contains("<working_memory>").contains("(page-5)");
    }

    @Test
    void should_not_send_a_dangling_tool_request_after_a_call_with_bad_arguments() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("setCount", "{\"count\": \"not a number\"}")
                .thenAnswer("hello again");
        InMemoryChatMemoryStore messages = new InMemoryChatMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().chatMemoryStore(messages).build();
        Assistant assistant = assistant(Assistant.class, model, memories);

        assertThatThrownBy(() -> assistant.chat("dave", "set the count")).isInstanceOf(RuntimeException.class);
        assertThat(messages.getMessages("dave")).last()
                .as("AiServices leaves the unanswered request in memory")
                .isInstanceOfSatisfying(AiMessage.class, ai -> assertThat(ai.hasToolExecutionRequests()).isTrue());
        assistant.chat("dave", "hi");

        assertThat(model.requests()).hasSize(2);
        assertEveryToolRequestAnswered(model.lastRequest().messages());
    }

    @Test
    void should_not_send_a_dangling_tool_request_after_a_call_to_an_unknown_tool() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("deleteEverything", "{}")
                .thenAnswer("hello again");
        InMemoryChatMemoryStore messages = new InMemoryChatMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().chatMemoryStore(messages).build();
        Assistant assistant = assistant(Assistant.class, model, memories);

        // AiServices aborts on an unknown tool unless a hallucinated tool name strategy is set
        assertThatThrownBy(() -> assistant.chat("erin", "delete everything")).isInstanceOf(RuntimeException.class);
        assertThat(messages.getMessages("erin")).last()
                .isInstanceOfSatisfying(AiMessage.class, ai -> assertThat(ai.hasToolExecutionRequests()).isTrue());
        assistant.chat("erin", "hi");

        assertEveryToolRequestAnswered(model.lastRequest().messages());
    }

    @Test
    void should_never_begin_a_request_with_a_tool_result_with_a_three_message_window() {
        ScriptedChatModel model = ScriptedChatModel.script();
        for (int turn = 1; turn <= 4; turn++) {
            model.thenCallTools(ScriptedChatModel.toolCall("getPage", "{\"id\":\"p" + turn + "a\"}"),
                            ScriptedChatModel.toolCall("getPage", "{\"id\":\"p" + turn + "b\"}"))
                    .thenCallTool("getPage", "{\"id\":\"p" + turn + "c\"}")
                    .thenAnswer("done " + turn);
        }
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(3).build();
        Assistant assistant = assistant(Assistant.class, model, memories);

        for (int turn = 1; turn <= 4; turn++) {
            assistant.chat("frank", "turn " + turn);
        }

        assertThat(model.requests()).hasSize(12);
        for (ChatRequest request : model.requests()) {
            List<ChatMessage> messages = request.messages();
            ChatMessage firstAfterSystem = messages.get(messages.get(0) instanceof SystemMessage ? 1 : 0);
            assertThat(firstAfterSystem).isNotInstanceOf(ToolExecutionResultMessage.class);
            assertEveryToolRequestAnswered(messages);
        }
    }

    static void assertEveryToolRequestAnswered(List<ChatMessage> messages) {
        Set<String> answered = new HashSet<>();
        messages.stream().filter(ToolExecutionResultMessage.class::isInstance)
                .forEach(m -> answered.add(((ToolExecutionResultMessage) m).id()));
        for (ChatMessage message : messages) {
            if (message instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                ai.toolExecutionRequests().forEach(r -> assertThat(answered)
                        .as("answer to tool request %s in %s", r, messages).contains(r.id()));
            }
        }
        Set<String> requested = new HashSet<>();
        for (ChatMessage message : messages) {
            if (message instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                ai.toolExecutionRequests().forEach(r -> requested.add(r.id()));
            }
            if (message instanceof ToolExecutionResultMessage result) {
                assertThat(requested).as("request of tool result %s", result).contains(result.id());
            }
        }
    }
}
