package dev.workingmemory.tools;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.testing.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

/** Two users share one provider and one set of tool beans, calling from two threads in lockstep. */
class TwoUsersTest {

    private static final Map<String, String> OTHER = Map.of("alice", "bob", "bob", "alice");

    @Test
    void should_keep_each_users_memory_apart_when_their_conversations_interleave() throws Exception {
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();
        CyclicBarrier lockstep = new CyclicBarrier(2);
        // Every model call of one user waits for the same call of the other, so their tool calls run side by side.
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            String user = userOf(request);
            int step = (int) request.messages().stream().filter(ToolExecutionResultMessage.class::isInstance).count();
            await(lockstep);
            return switch (step) {
                case 0 -> AiMessage.from(toolCall("core_memory_update",
                        "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"" + user + " ships v2\"}"));
                case 1 -> AiMessage.from(toolCall("updateWorkingMemory",
                        "{\"update\": {\"currentGoal\": \"" + user + " deploys\", \"completedSteps\": [\"" + user + " tested\"]}}"));
                case 2 -> AiMessage.from(toolCall("core_memory_update",
                        "{\"block\": \"progress\", \"operation\": \"append\", \"content\": \"" + user + " step 1\"}"));
                case 3 -> AiMessage.from(toolCall("core_memory_read", "{}"));
                case 4 -> AiMessage.from(toolCall("working_memory_stats", "{}"));
                default -> AiMessage.from("done for " + user);
            };
        });
        ToolTesting.Assistant assistant = ToolTesting.assistant(model, memories);

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<String> alice = threads.submit(chat(assistant, "alice"));
            Future<String> bob = threads.submit(chat(assistant, "bob"));
            assertThat(alice.get(30, TimeUnit.SECONDS)).isEqualTo("done for alice");
            assertThat(bob.get(30, TimeUnit.SECONDS)).isEqualTo("done for bob");
        } finally {
            threads.shutdownNow();
        }

        assertThat(model.requests()).hasSize(12);
        for (ChatRequest request : model.requests()) {
            String user = userOf(request);
            String other = OTHER.get(user);
            assertThat(systemText(request)).as("block sent for %s", user).doesNotContain(other);
            for (ChatMessage message : request.messages()) {
                if (message instanceof ToolExecutionResultMessage result) {
                    assertThat(result.text()).as("tool result for %s", user).doesNotContain(other).doesNotStartWith("Error");
                }
            }
        }
        String aliceRead = toolResultsOf(model.requests(), "alice").get(3);
        assertThat(aliceRead).contains("<goal chars=\"14/1000\">alice ships v2</goal>")
                .contains("<progress chars=\"12/2000\">alice step 1</progress>");
        for (String user : OTHER.keySet()) {
            WorkingMemory memory = memories.memory(user);
            assertThat(memory.coreMemory().read("goal").content()).isEqualTo(user + " ships v2");
            assertThat(memory.coreMemory().read("progress").content()).isEqualTo(user + " step 1");
            assertThat(memory.scratchpad().json().get("currentGoal").asText()).isEqualTo(user + " deploys");
            assertThat(memory.render()).doesNotContain(OTHER.get(user));
        }
    }

    @Test
    void should_never_let_one_users_calls_read_or_change_the_others_memory_under_contention() throws Exception {
        WorkingMemoryProvider memories = ToolTesting.structuredProvider();
        List<Object> tools = WorkingMemoryTools.all(memories);
        ScratchpadTools scratchpad = (ScratchpadTools) tools.get(0);
        CoreMemoryTools core = (CoreMemoryTools) tools.get(1);
        MemoryStatsTools stats = stats(tools);
        CyclicBarrier lockstep = new CyclicBarrier(2);
        int rounds = 200;

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<Void>> done = threads.invokeAll(List.of(
                    rounds(memories, scratchpad, core, stats, lockstep, "alice", rounds),
                    rounds(memories, scratchpad, core, stats, lockstep, "bob", rounds)), 60, TimeUnit.SECONDS);
            joinAll(done);
        } finally {
            threads.shutdownNow();
        }

        assertThat(memories.memory("alice").coreMemory().read("goal").content()).isEqualTo("alice-" + (rounds - 1));
        assertThat(memories.memory("bob").coreMemory().read("goal").content()).isEqualTo("bob-" + (rounds - 1));
    }

    @Test
    void should_keep_answering_correctly_while_the_provider_evicts_and_reloads_memories() throws Exception {
        // One cached memory for two users: every call of one evicts the other's memory, often while it is in use.
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .scratchpad(dev.workingmemory.scratchpad.ScratchpadConfig.builder().jsonSchema(ToolTesting.GOAL_SCHEMA).build())
                .maxCachedMemories(1)
                .build();
        List<Object> tools = WorkingMemoryTools.all(memories);
        CyclicBarrier lockstep = new CyclicBarrier(2);
        int rounds = 100;

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            joinAll(threads.invokeAll(List.of(
                    rounds(null, (ScratchpadTools) tools.get(0), (CoreMemoryTools) tools.get(1),
                            stats(tools), lockstep, "alice", rounds),
                    rounds(null, (ScratchpadTools) tools.get(0), (CoreMemoryTools) tools.get(1),
                            stats(tools), lockstep, "bob", rounds)), 60, TimeUnit.SECONDS));
        } finally {
            threads.shutdownNow();
        }

        assertThat(memories.memory("alice").scratchpad().json().get("currentGoal").asText()).isEqualTo("alice-" + (rounds - 1));
        assertThat(memories.memory("bob").coreMemory().read("goal").content()).isEqualTo("bob-" + (rounds - 1));
    }

    /**
     * {@code rounds} rounds of calls by {@code user}, in lockstep with the other user. Each round writes, reads back
     * through the tools and, when {@code memories} is given, checks the memory directly (only when nothing evicts it:
     * a {@code WorkingMemory} kept across an eviction refuses use).
     */
    private static Callable<Void> rounds(WorkingMemoryProvider memories, ScratchpadTools scratchpad, CoreMemoryTools core,
                                         MemoryStatsTools stats, CyclicBarrier lockstep, String user, int rounds) {
        String other = OTHER.get(user);
        return () -> {
            try {
                round(memories, scratchpad, core, stats, lockstep, user, other, rounds);
            } catch (Throwable e) {
                lockstep.reset(); // the other thread stops waiting instead of timing out
                throw e;
            }
            return null;
        };
    }

    private static void round(WorkingMemoryProvider memories, ScratchpadTools scratchpad, CoreMemoryTools core,
                              MemoryStatsTools stats, CyclicBarrier lockstep, String user, String other, int rounds)
            throws Exception {
        for (int i = 0; i < rounds; i++) {
            await(lockstep);
            String goal = user + "-" + i;
            assertThat(core.coreMemoryUpdate(user, "goal", "replace", goal)).startsWith("Replaced block 'goal'");
            assertThat(scratchpad.updateWorkingMemory(user, new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree("{\"currentGoal\": \"" + goal + "\"}"))).isEqualTo("Updated keys: currentGoal");
            assertThat(core.coreMemoryRead(user)).contains(">" + goal + "</goal>").doesNotContain(other);
            assertThat(stats.workingMemoryStats(user)).contains("goal " + goal.length() + "/1000 chars");
            if (memories != null) {
                assertThat(memories.memory(user).render()).contains(goal).doesNotContain(other);
                assertThat(memories.memory(user).scratchpad().json().get("currentGoal").asText()).isEqualTo(goal);
            }
        }
    }

    /** Waits for both threads; reports the failure that broke the lockstep rather than the other thread's wait. */
    private static void joinAll(List<Future<Void>> futures) throws Exception {
        List<Exception> failures = new java.util.ArrayList<>();
        for (Future<Void> future : futures) {
            try {
                future.get();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        failures.sort(java.util.Comparator.comparing(TwoUsersTest::onlyWaited));
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    private static boolean onlyWaited(Exception failure) {
        Throwable cause = failure.getCause();
        return cause instanceof IllegalStateException && cause.getMessage().startsWith("The other user's thread");
    }

    private static Callable<String> chat(ToolTesting.Assistant assistant, String user) {
        return () -> assistant.chat(user, "I am " + user);
    }

    private static String userOf(ChatRequest request) {
        for (ChatMessage message : request.messages()) {
            if (message instanceof UserMessage user) {
                return user.singleText().substring("I am ".length());
            }
        }
        throw new AssertionError("no user message in " + request);
    }

    private static List<String> toolResultsOf(List<ChatRequest> requests, String user) {
        ChatRequest last = requests.stream().filter(r -> userOf(r).equals(user)).reduce((a, b) -> b).orElseThrow();
        return last.messages().stream().filter(ToolExecutionResultMessage.class::isInstance)
                .map(m -> ((ToolExecutionResultMessage) m).text()).toList();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("The other user's thread did not arrive", e);
        }
    }

    private static MemoryStatsTools stats(List<Object> tools) {
        return tools.stream().filter(MemoryStatsTools.class::isInstance).map(MemoryStatsTools.class::cast).findFirst()
                .orElseThrow();
    }
}
