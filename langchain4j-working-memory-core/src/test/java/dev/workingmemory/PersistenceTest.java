package dev.workingmemory;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.notes.Note;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PersistenceTest {

    @TempDir
    Path dir;

    private static ToolExecutionResultMessage pageResult(String id, String title) {
        return ToolExecutionResultMessage.from("call-" + id, "createPage",
                "{\"page\":{\"id\":\"" + id + "\",\"title\":\"" + title + "\"}}");
    }

    @Test
    void should_see_entities_scratchpad_and_core_blocks_after_a_restart_on_the_same_directory() {
        ScratchpadConfig structured = ScratchpadConfig.builder().json(true).build();
        WorkingMemoryProvider first = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir)).scratchpad(structured).build();
        ChatMemory chat = first.get("alice");
        chat.add(UserMessage.from("create About Us"));
        chat.add(pageResult("page-123", "About Us"));
        WorkingMemory memory = first.memory("alice");
        memory.scratchpad().update("{\"currentGoal\":\"Launch the site\",\"steps\":[\"about\"]}");
        memory.coreMemory().replace("goal", "Build the company website");
        memory.coreMemory().append("progress", "- About Us page created");
        String blockBefore = memory.render();
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir)).scratchpad(structured).build();
        WorkingMemory reloaded = second.memory("alice");

        assertThat(reloaded.entities()).containsExactly(new Entity("page-123", "About Us", "page"));
        assertThat(reloaded.scratchpad().json().get("currentGoal").asText()).isEqualTo("Launch the site");
        assertThat(reloaded.coreMemory().read("goal").content()).isEqualTo("Build the company website");
        assertThat(reloaded.coreMemory().read("progress").content()).isEqualTo("- About Us page created");
        assertThat(reloaded.render()).isEqualTo(blockBefore);
    }

    @Test
    void should_reload_messages_from_the_chat_memory_store_after_a_restart() {
        InMemoryChatMemoryStore messages = new InMemoryChatMemoryStore();
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().chatMemoryStore(messages).build();
        first.get("alice").add(SystemMessage.from("Be brief."));
        first.get("alice").add(UserMessage.from("hello"));
        first.get("alice").add(AiMessage.from("hi"));
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().chatMemoryStore(messages).build();

        assertThat(second.get("alice").messages())
                .containsExactly(SystemMessage.from("Be brief."), UserMessage.from("hello"), AiMessage.from("hi"));
        assertThat(messages.getMessages("alice")).as("the block is never stored").hasSize(3)
                .noneMatch(m -> m.toString().contains("working_memory"));
    }

    @Test
    void should_start_empty_with_the_corrupted_state_moved_aside() throws Exception {
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
        first.memory("alice").coreMemory().replace("goal", "Ship");
        first.close();
        List<Path> states;
        try (Stream<Path> files = Files.walk(dir)) {
            states = files.filter(p -> p.getFileName().toString().equals("state.json")).toList();
        }
        assertThat(states).hasSize(1);
        Files.writeString(states.get(0), "{ not json");

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();

        assertThat(second.memory("alice").coreMemory().read("goal").content()).isEmpty();
        try (Stream<Path> files = Files.list(states.get(0).getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("state.json.corrupt-"));
        }
        second.memory("alice").coreMemory().replace("goal", "Ship again");
        assertThat(second.memory("alice").render()).contains("Ship again");
    }

    @Test
    void should_reload_an_evicted_memory_without_loss() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).maxCachedMemories(1).build();
        ChatMemory alice = memories.get("alice");
        for (int i = 0; i < 50; i++) {
            String user = i % 2 == 0 ? "alice" : "bob";
            memories.get(user).add(pageResult(user + "-" + i, "Page " + i));
            memories.memory(user).coreMemory().append("progress", "step " + i);
        }

        assertThat(memories.memory("alice").entities()).hasSize(10).allSatisfy(e -> assertThat(e.id()).startsWith("alice-"));
        assertThat(memories.memory("alice").entities().get(0).id()).isEqualTo("alice-48");
        assertThat(memories.memory("bob").coreMemory().read("progress").content()).startsWith("step 1\nstep 3").endsWith("step 49");
        // a handle taken before the evictions still works
        assertThat(alice.messages()).isNotEmpty();
    }

    @Test
    void should_keep_every_message_of_memories_evicted_after_each_add_without_a_chat_memory_store() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(100).maxCachedMemories(1).build();
        for (int i = 0; i < 40; i++) {
            String user = i % 2 == 0 ? "alice" : "bob";
            memories.get(user).add(UserMessage.from(user + " " + i));
        }

        assertThat(memories.get("alice").messages()).extracting(m -> ((UserMessage) m).singleText())
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "alice " + 2 * i).toList());
        assertThat(memories.get("bob").messages()).hasSize(20);
    }

    @Test
    void should_keep_every_message_added_concurrently_while_memories_are_evicted_without_a_chat_memory_store()
            throws Exception {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(1_000).maxCachedMemories(1).build();
        List<String> users = List.of("alice", "bob", "carol");
        ExecutorService pool = Executors.newFixedThreadPool(users.size());
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (String user : users) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        memories.get(user).add(UserMessage.from(user + " " + i));
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        for (String user : users) {
            assertThat(memories.get(user).messages()).extracting(m -> ((UserMessage) m).singleText())
                    .containsExactlyElementsOf(IntStream.range(0, 300).mapToObj(i -> user + " " + i).toList());
        }
    }

    @Test
    void should_refuse_use_of_an_evicted_instance_instead_of_losing_writes() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxCachedMemories(1).build();
        WorkingMemory stale = memories.memory("alice");
        memories.memory("bob");
        memories.memory("carol");

        assertThatThrownBy(() -> stale.coreMemory().replace("goal", "lost?"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("get it again");
        memories.memory("alice").coreMemory().replace("goal", "kept");
        assertThat(memories.memory("alice").coreMemory().read("goal").content()).isEqualTo("kept");
    }

    @Test
    void should_share_resource_scoped_scratchpad_between_threads_and_fork_it_to_a_sub_agent() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .scratchpad(ScratchpadConfig.builder().json(true).scope(LayerScope.RESOURCE).build())
                .build();
        memories.memory(MemoryKey.of("alice", "chat-1")).scratchpad().update("{\"plan\":\"relaunch\"}");
        memories.memory(MemoryKey.of("alice", "chat-1")).coreMemory().replace("goal", "thread-only goal");

        assertThat(memories.memory(MemoryKey.of("alice", "chat-2")).scratchpad().json().get("plan").asText())
                .isEqualTo("relaunch");

        WorkingMemory child = memories.fork(MemoryKey.of("alice", "chat-1"), MemoryKey.of("alice-researcher", "task-1"));

        assertThat(child.scratchpad().json().get("plan").asText()).isEqualTo("relaunch");
        assertThat(child.coreMemory().read("goal").content()).isEmpty();
        child.scratchpad().update("{\"plan\":\"child plan\"}");
        assertThat(memories.memory(MemoryKey.of("alice", "chat-1")).scratchpad().json().get("plan").asText())
                .isEqualTo("relaunch");
    }

    @Test
    void should_fork_the_pending_notes_and_the_state_document_and_never_replace_a_users_own_state() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .scratchpad(ScratchpadConfig.builder().scope(LayerScope.RESOURCE).build())
                .build();
        memories.memory("alice").notes().note("Deadline for the API migration is March 20th", 0.8, List.of("decision"));
        memories.memory("alice").notes().note("Alice prefers short answers", null, null);
        assertThat(memories.dream("alice").committed()).isTrue(); // offline: a state document, the notes consumed
        memories.memory("alice").notes().note("The staging database is db-2", null, null);
        String state = memories.dreamState("alice").orElseThrow();
        memories.memory("mallory").scratchpad().update("mallory's plan");
        memories.memory("alice").scratchpad().update("ALICE: her plan");

        WorkingMemory child = memories.fork("alice", "alice-researcher");

        assertThat(child.notes().notes()).extracting(Note::text).containsExactly("The staging database is db-2");
        assertThat(child.notes().notes().get(0).time()).isEqualTo(memories.memory("alice").notes().notes().get(0).time());
        assertThat(memories.dreamState("alice-researcher")).contains(state);
        assertThat(child.render()).contains("<state", "The staging database is db-2", "ALICE: her plan");
        // a resource with state of its own is never overwritten
        assertThatThrownBy(() -> memories.fork("mallory", "alice")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Cannot fork 'mallory' into 'alice'");
        assertThat(memories.memory("alice").scratchpad().text()).isEqualTo("ALICE: her plan");
        assertThat(memories.memory("alice").notes().notes()).hasSize(1);
        memories.close();
    }

    @Test
    void should_fork_a_state_as_a_dreams_without_the_parents_crystal_pointers() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).build();
        memories.memory("alice").notes().note("Alice leads the API migration", 0.8, null);
        assertThat(memories.dream("alice").committed()).isTrue();
        String key = MemoryKey.of("alice").resourceStoreKey();
        // a later dream moved a line out of the state, leaving a pointer to alice's long-term memory
        store.putDocument(key, "MEMORY.md", memories.dreamState("alice").orElseThrow().replace(
                "## Crystal Pointers\n\n- None yet.", "## Crystal Pointers\n\n- Past: Deadline is March 20th → search:"
                        + " `Deadline March 20th`"));
        assertThat(memories.dreamState("alice").orElseThrow()).contains("→ search: `Deadline March 20th`");

        memories.fork("alice", "alice-sub");

        String copied = memories.dreamState("alice-sub").orElseThrow();
        assertThat(copied).contains("Alice leads the API migration", "## Crystal Pointers\n\n- None yet.")
                .doesNotContain("Deadline March 20th", "memory_search");
        // the child's first dream goes on from the copy, as the parent's next one would
        memories.memory("alice-sub").notes().note("The sub-agent checks the staging database", 0.7, null);
        DreamReport first = memories.dream("alice-sub");
        String child = memories.dreamState("alice-sub").orElseThrow();
        assertThat(first.committed()).as(first.reason()).isTrue();
        assertThat(first.reason()).doesNotContain("seed migration");
        assertThat(child).contains("The sub-agent checks the staging database").doesNotContain("## Dream-Generated");
        assertThat(child.split("# Working Memory State", -1)).hasSize(2); // one document
        assertThat(store.getDocument(MemoryKey.of("alice-sub").resourceStoreKey(), "MEMORY.md.seed-backup")).isEmpty();
        memories.close();
    }

    @Test
    void should_not_copy_a_thread_scoped_scratchpad_on_fork() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memory("parent").scratchpad().update("parent notes");

        WorkingMemory child = memories.fork("parent", "child");

        assertThat(child.scratchpad().text()).isEmpty();
    }

    @Test
    void should_refuse_use_after_close() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.close();

        assertThatThrownBy(() -> memories.get("alice")).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    /**
     * A memory loaded while the provider closes is refused once close() has returned, as every other: a load that had
     * passed the open check when close() began once put its memory in the cache after close() closed the cache's, and
     * it stayed usable (its tool outputs dropped by the closed writer, its saves never made by close()).
     */
    @Test
    void should_refuse_use_of_a_memory_loaded_while_the_provider_closes() throws Exception {
        ExecutorService loader = Executors.newSingleThreadExecutor();
        int rounds = 3_000;
        List<Integer> usable = new ArrayList<>();
        try {
            for (int round = 0; round < rounds; round++) {
                WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build();
                CyclicBarrier together = new CyclicBarrier(2);
                Future<WorkingMemory> loading = loader.submit(() -> {
                    together.await();
                    try {
                        return memories.memory("alice");
                    } catch (IllegalStateException e) {
                        return null; // closed: refused
                    }
                });
                together.await();
                memories.close();
                WorkingMemory loaded = loading.get(60, TimeUnit.SECONDS);
                if (loaded != null) {
                    try {
                        loaded.coreMemory().append("progress", "after close");
                        usable.add(round);
                    } catch (IllegalStateException e) {
                        // closed: refused
                    }
                }
            }
        } finally {
            loader.shutdownNow();
        }

        assertThat(usable).as("rounds whose memory was usable after close() returned").isEmpty();
    }
}
