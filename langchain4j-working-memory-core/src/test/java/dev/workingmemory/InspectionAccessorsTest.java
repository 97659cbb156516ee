package dev.workingmemory;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.render.LayerShare;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The read-only accessors the inspector reads: the request as last sent, loaded memories, store keys, search. */
class InspectionAccessorsTest {

    private static String lines(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "test line " + i + " of the build output")
                .collect(Collectors.joining("\n"));
    }

    @Test
    void should_have_no_request_before_the_first_one() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            memories.get("alice").add(UserMessage.from("hello"));

            assertThat(memories.memory("alice").lastRequest()).isEmpty();
        }
    }

    @Test
    void should_hold_the_block_as_sent_and_what_the_budget_cut_of_each_layer() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().blockBudget(600).build()) {
            ChatMemory chat = memories.get("alice");
            chat.add(SystemMessage.from("You are a CMS assistant."));
            memories.memory("alice").coreMemory().replace("goal", "Ship the about page. ".repeat(40));
            chat.add(UserMessage.from("Create a page called About Us"));

            List<ChatMessage> sent = chat.messages();
            SentRequest request = memories.memory("alice").lastRequest().orElseThrow();

            assertThat(request.block()).isEqualTo(memories.memory("alice").render()).startsWith("<working_memory>");
            assertThat(request.systemMessage()).isEqualTo(((SystemMessage) sent.get(0)).text())
                    .startsWith("You are a CMS assistant.").endsWith(request.block());
            assertThat(request.messages()).isEqualTo(sent.subList(1, sent.size()));
            assertThat(request.blockBudget()).isEqualTo(600);
            assertThat(request.tokens()).isEqualTo(CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(sent));
            LayerShare core = request.layers().stream().filter(share -> share.layer().equals("core_memory"))
                    .findFirst().orElseThrow();
            assertThat(core.charsCut()).isPositive();
            assertThat(core.usedChars()).isLessThan(core.neededChars()).isPositive();
            assertThat(request.block()).contains(" chars cut]");
            assertThat(request.layers()).extracting(LayerShare::layer)
                    .isEqualTo(memories.memory("alice").layers().stream().map(layer -> layer.name()).toList());
        }
    }

    @Test
    void should_keep_the_request_as_sent_when_the_window_changes_afterwards() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            memories.memoryToolNames().register(ContextPressure.READ_TOOL_OUTPUT);
            ChatMemory chat = memories.get("dev");
            chat.add(UserMessage.from("run the tests"));
            chat.add(AiMessage.from(ToolExecutionRequest.builder().id("c1").name("bash").arguments("{}").build()));
            chat.add(ToolExecutionResultMessage.from("c1", "bash", lines(400)));
            chat.messages();

            chat.add(AiMessage.from("All 400 passed."));

            SentRequest request = memories.memory("dev").lastRequest().orElseThrow();
            assertThat(request.messages()).hasSize(3);
            ToolExecutionResultMessage result = (ToolExecutionResultMessage) request.messages().get(2);
            assertThat(result.text()).contains("[Pruned tool output: 400 lines").contains("read_tool_output(");
        }
    }

    @Test
    void should_tell_a_loaded_memory_without_loading_one() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            assertThat(memories.loadedMemory("alice")).isEmpty();
            assertThat(memories.loadedKeys()).isEmpty();

            WorkingMemory alice = memories.memory("alice");

            assertThat(memories.loadedMemory("alice")).containsSame(alice);
            assertThat(memories.loadedMemory(MemoryKey.of("alice"))).containsSame(alice);
            assertThat(memories.loadedMemory("bob")).isEmpty();
            assertThat(memories.loadedKeys()).containsExactly(MemoryKey.of("alice"));
        }
    }

    @Test
    void should_search_a_resource_as_its_memory_does_without_loading_it() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            memories.memory("alice").notes().note("Deadline for the API migration is March 20th", 0.9, null);
            memories.memory("bob").notes().note("Bob's deadline is in May", 0.9, null);
            List<MemoryHit> expected = memories.memory("alice").search("migration deadline", 5);
            memories.delete("alice");

            List<MemoryHit> hits = memories.search("alice", "migration deadline", 5);

            assertThat(hits).isEqualTo(expected).isNotEmpty();
            assertThat(hits).extracting(MemoryHit::text).noneMatch(text -> text.contains("Bob"));
            assertThat(memories.loadedMemory("alice")).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"alice", "", ":", "a:b:c", "12:x", "thread:3:abc:d", "resource:x", "ü👍<img src=x>"})
    void should_read_a_key_back_from_its_store_keys(String resource) {
        MemoryKey key = MemoryKey.of(resource, "t:1");

        assertThat(MemoryKey.ofThreadStoreKey(key.threadStoreKey())).contains(key);
        assertThat(MemoryKey.resourceOfStoreKey(key.threadStoreKey())).contains(resource);
        assertThat(MemoryKey.resourceOfStoreKey(key.resourceStoreKey())).contains(resource);
        assertThat(MemoryKey.ofThreadStoreKey(key.resourceStoreKey())).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "thread:", "thread:x:a:b", "thread:5:abc:d", "thread:-1:a", "thread:3:abc", "other:1",
            "thread:99999999999:a:b"})
    void should_read_no_key_from_other_strings(String storeKey) {
        assertThat(MemoryKey.ofThreadStoreKey(storeKey)).isEmpty();
        assertThat(MemoryKey.resourceOfStoreKey(storeKey)).isEmpty();
    }
}
