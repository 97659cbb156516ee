package dev.workingmemory;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.InterleavedTurns.Assistant;
import dev.workingmemory.InterleavedTurns.Pause;
import dev.workingmemory.InterleavedTurns.PausingMemories;
import dev.workingmemory.InterleavedTurns.Tools;
import dev.workingmemory.InterleavedTurns.TurnModel;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.ToolMessageOrder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static dev.workingmemory.InterleavedTurns.afterResult;
import static dev.workingmemory.InterleavedTurns.afterToolRequest;
import static dev.workingmemory.InterleavedTurns.afterUserMessage;
import static dev.workingmemory.InterleavedTurns.overlap;
import static dev.workingmemory.InterleavedTurns.record;
import static dev.workingmemory.InterleavedTurns.results;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two turns of one memory id at once through {@code AiServices} (two tabs, a double submit, a retry): each thread's
 * adds and reads of the memory interleave with the other's. Every request stays valid for OpenAI, each turn's later
 * call shows its own tool requests directly followed by their results, last, and nothing is lost.
 */
class InterleavedTurnsTest {

    private static final String ID = "alice";

    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private final WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
            .embeddingModel(new HashingEmbeddingModel())
            .build();
    private final PausingMemories pausing = new PausingMemories(memories);
    private final TurnModel model = new TurnModel();
    private final Assistant assistant = AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(pausing)
            .tools(new Tools())
            .build();

    @AfterEach
    void close() {
        pool.shutdownNow();
        memories.close();
    }

    private Future<String> chat(String message) {
        return pool.submit(() -> assistant.chat(ID, message));
    }

    @Test
    void should_send_valid_requests_when_a_user_message_comes_between_a_tool_request_and_its_result() throws Exception {
        model.looksUp("find alpha", "alpha");
        Pause requested = pausing.pause(afterToolRequest("alpha"));
        Pause userAdded = pausing.pause(afterUserMessage("hello there")); // the window: user, tool request, user

        assertThat(overlap(() -> chat("find alpha"), requested, () -> chat("hello there"), userAdded, true))
                .containsExactly("answered find alpha", "answered hello there");

        assertValidAndWhole(List.of("find alpha", "hello there"), "alpha");
    }

    @ParameterizedTest(name = "the first to get its result: {0}")
    @ValueSource(strings = {"alpha", "beta"})
    void should_keep_both_tool_exchanges_when_two_turns_call_tools_at_once(String firstResult) throws Exception {
        model.looksUp("find alpha", "alpha").looksUp("find beta", "beta");
        Pause alpha = pausing.pause(afterToolRequest("alpha"));
        Pause beta = pausing.pause(afterToolRequest("beta"));

        // the window: user, request alpha, user, request beta; the later call of the first to end runs while the
        // other request still waits
        assertThat(overlap(() -> chat("find alpha"), alpha, () -> chat("find beta"), beta, firstResult.equals("alpha")))
                .containsExactly("answered find alpha", "answered find beta");

        assertValidAndWhole(List.of("find alpha", "find beta"), "alpha", "beta");
    }

    @Test
    void should_keep_parallel_results_together_when_another_turn_comes_between_them() throws Exception {
        model.looksUp("find alpha and gamma", "alpha", "gamma").looksUp("find beta", "beta");
        Pause between = pausing.pause(afterResult("alpha"));

        Future<String> first = chat("find alpha and gamma");
        between.awaitReached(); // the window: user, request alpha + gamma, result alpha
        assertThat(chat("find beta").get(30, TimeUnit.SECONDS)).isEqualTo("answered find beta");
        between.release();
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("answered find alpha and gamma");

        assertValidAndWhole(List.of("find alpha and gamma", "find beta"), "alpha", "gamma", "beta");
    }

    @Test
    void should_evict_whole_turns_when_the_window_is_at_its_limit_mid_interleaving() throws Exception {
        for (int turn = 0; turn < 5; turn++) { // 20 messages: the default window, full
            model.looksUp("find old" + turn, "old" + turn);
            assistant.chat(ID, "find old" + turn);
        }
        model.looksUp("find alpha and gamma", "alpha", "gamma").looksUp("find beta", "beta");
        Pause between = pausing.pause(afterResult("alpha"));
        Pause beta = pausing.pause(afterToolRequest("beta"));

        // gamma's result comes after the other turn's request; the window evicts meanwhile
        assertThat(overlap(() -> chat("find alpha and gamma"), between, () -> chat("find beta"), beta, true))
                .containsExactly("answered find alpha and gamma", "answered find beta");

        assertValidAndWhole(List.of("find alpha and gamma", "find beta"), "alpha", "gamma", "beta");
        assertThat(memories.get(ID).messages()).hasSizeLessThanOrEqualTo(21);
        for (int turn = 0; turn < 2; turn++) { // the oldest turns left the window whole, results included
            assertThat(memories.memory(ID).search("old" + turn, 10))
                    .anySatisfy(hit -> assertThat(hit.text()).contains("Record old")).isNotEmpty();
        }
    }

    @Test
    void should_keep_a_late_result_findable_when_its_turn_left_the_window_while_its_tool_ran() throws Exception {
        String[] many = new String[10];
        for (int i = 0; i < many.length; i++) {
            many[i] = "many" + i;
        }
        model.looksUp("find alpha", "alpha");
        Pause requested = pausing.pause(afterToolRequest("alpha"));
        Future<String> first = chat("find alpha");
        requested.awaitReached();
        for (int i = 0; i < many.length; i++) { // 40 messages of other turns push the waiting request out
            model.looksUp("find " + many[i], many[i]);
            assertThat(chat("find " + many[i]).get(30, TimeUnit.SECONDS)).isEqualTo("answered find " + many[i]);
        }
        requested.release();
        first.get(30, TimeUnit.SECONDS);

        assertThat(model.problems).isEmpty();
        assertThat(model.unseen).containsExactly("find alpha"); // its request had left the window
        assertThat(pausing.problems).isEmpty();
        List<ChatMessage> messages = memories.get(ID).messages();
        assertThat(ToolMessageOrder.violations(messages)).isEmpty();
        assertThat(results(messages)).doesNotContain(record("alpha"));
        assertThat(memories.memory(ID).search("alpha", 10))
                .anySatisfy(hit -> assertThat(hit.text()).contains("Record alpha"));
    }

    @Test
    void should_keep_every_request_valid_and_every_result_when_eight_threads_take_fifty_turns_each() throws Exception {
        int threads = 8;
        int turns = 50;
        List<String> keys = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            for (int turn = 0; turn < turns; turn++) {
                String key = "rec" + t + "n" + turn;
                // every third turn calls two tools in one answer
                String[] lookups = turn % 3 == 0 ? new String[]{key + "a", key + "b"} : new String[]{key + "a"};
                model.looksUp("find " + key, lookups);
                keys.addAll(List.of(lookups));
            }
        }
        // the same assistant, with a tool that takes a little while
        Assistant slow = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(pausing)
                .tools(new Object() {
                    @dev.langchain4j.agent.tool.Tool("Looks a record up by its key")
                    String findRecord(@dev.langchain4j.agent.tool.P("key") String key) {
                        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(200_000));
                        return record(key);
                    }
                })
                .build();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                for (int turn = 0; turn < turns; turn++) {
                    slow.chat(ID, "find rec" + thread + "n" + turn);
                }
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get(5, TimeUnit.MINUTES);
        }

        assertThat(model.problems).as("requests").isEmpty();
        assertThat(pausing.problems).as("messages()").isEmpty();
        List<ChatMessage> messages = memories.get(ID).messages();
        assertThat(ToolMessageOrder.violations(messages)).isEmpty();
        assertThat(messages.stream().filter(SystemMessage.class::isInstance)).hasSize(1);
        List<String> inWindow = results(messages);
        WorkingMemory memory = memories.memory(ID);
        List<String> lost = new ArrayList<>();
        for (String key : keys) {
            if (!inWindow.contains(record(key))
                    && memory.search(key, 10).stream().noneMatch(hit -> hit.text().contains("Record " + key))) {
                lost.add(key);
            }
        }
        assertThat(lost).isEmpty();
    }

    /** Every request and every messages() valid, each later call shows its own exchange last, nothing lost. */
    private void assertValidAndWhole(List<String> userMessages, String... keys) {
        assertThat(model.problems).as("requests").isEmpty();
        assertThat(pausing.problems).as("messages()").isEmpty();
        assertThat(model.unseen).as("later calls not showing their own results").isEmpty();
        assertThat(model.notLast).as("later calls not ending with their own results").isEmpty();
        List<ChatMessage> messages = memories.get(ID).messages();
        assertThat(ToolMessageOrder.violations(messages)).isEmpty();
        assertThat(messages.get(0)).isInstanceOfSatisfying(SystemMessage.class,
                system -> assertThat(system.text()).startsWith(InterleavedTurns.SYSTEM));
        assertThat(messages.stream().filter(SystemMessage.class::isInstance)).hasSize(1);
        for (String key : keys) {
            assertThat(results(messages)).containsOnlyOnce(record(key));
            assertThat(memories.memory(ID).entities()).extracting(Entity::id).contains(key);
        }
        assertThat(messages.stream().filter(UserMessage.class::isInstance).map(m -> ((UserMessage) m).singleText()))
                .containsAll(userMessages);
        for (String user : userMessages) {
            assertThat(messages.stream().filter(m -> m.toString().contains("answered " + user))).hasSize(1);
        }
    }
}
