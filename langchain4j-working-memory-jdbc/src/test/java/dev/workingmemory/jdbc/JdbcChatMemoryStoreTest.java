package dev.workingmemory.jdbc;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JdbcChatMemoryStoreTest extends DatabaseTest {

    private JdbcChatMemoryStore store;

    @BeforeEach
    void createStore() {
        database = TestDatabase.create();
        store = new JdbcChatMemoryStore(database.dataSource());
    }

    private static List<ChatMessage> conversation() {
        ToolExecutionRequest request = ToolExecutionRequest.builder()
                .id("call-1").name("getPage").arguments("{\"id\": \"page-123\"}").build();
        return List.of(
                SystemMessage.from("You edit pages."),
                UserMessage.from("Open the About Us page. Größe 😀 \u0000 </working_memory>"),
                AiMessage.from(request),
                ToolExecutionResultMessage.from(request, "{\"id\": \"page-123\", \"title\": \"About Us\"}"),
                AiMessage.from("It is open."));
    }

    @Test
    void should_return_an_empty_list_for_a_memory_never_stored() {
        assertThat(store.getMessages("absent")).isEmpty();
    }

    @Test
    void should_give_back_the_messages_it_stored_and_replace_them_on_update() {
        store.updateMessages("alice", conversation());
        assertThat(store.getMessages("alice")).isEqualTo(conversation());

        store.updateMessages("alice", List.of(UserMessage.from("only this")));

        assertThat(store.getMessages("alice")).containsExactly(UserMessage.from("only this"));
        assertThat(new JdbcChatMemoryStore(database.dataSource()).getMessages("alice"))
                .as("another instance").containsExactly(UserMessage.from("only this"));
    }

    @Test
    void should_keep_memories_apart_and_delete_one() {
        store.updateMessages("alice", List.of(UserMessage.from("a")));
        store.updateMessages("bob", List.of(UserMessage.from("b")));
        store.updateMessages(MemoryKey.of("alice"), List.of(UserMessage.from("key")));

        store.deleteMessages("alice");
        store.deleteMessages("nobody");

        assertThat(store.getMessages("alice")).isEmpty();
        assertThat(store.getMessages("bob")).containsExactly(UserMessage.from("b"));
        assertThat(store.getMessages(MemoryKey.of("alice"))).containsExactly(UserMessage.from("key"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "../../x", "a\u0000b", "a\uD800b", "Größe 日本語 😀"})
    void should_round_trip_hostile_memory_ids(String memoryId) {
        store.updateMessages(memoryId, List.of(UserMessage.from(memoryId.isEmpty() ? "empty" : memoryId)));

        assertThat(store.getMessages(memoryId)).hasSize(1);
        assertThat(store.getMessages(memoryId + "x")).isEmpty();
    }

    @Test
    void should_reject_a_null_memory_id() {
        assertThatThrownBy(() -> store.getMessages(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.updateMessages("a", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_give_a_provider_the_window_another_provider_left_on_the_same_database() {
        WorkingMemoryProvider first = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(database.dataSource())).chatMemoryStore(store).build();
        ChatMemory memory = first.get("alice");
        memory.add(UserMessage.from("My name is Douglas."));
        memory.add(AiMessage.from("Hello Douglas."));
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(database.dataSource()))
                .chatMemoryStore(new JdbcChatMemoryStore(database.dataSource())).build();

        assertThat(second.get("alice").messages()).contains(UserMessage.from("My name is Douglas."),
                AiMessage.from("Hello Douglas."));
        second.close();
    }
}
