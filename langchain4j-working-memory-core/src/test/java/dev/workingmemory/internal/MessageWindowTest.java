package dev.workingmemory.internal;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.testing.WordCountEstimator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class MessageWindowTest {

    private static ToolExecutionRequest request(String id) {
        return ToolExecutionRequest.builder().id(id).name("getPage").arguments("{}").build();
    }

    private static ToolExecutionResultMessage result(String id) {
        return ToolExecutionResultMessage.from(id, "getPage", "result " + id);
    }

    private static final TokenCountEstimator WORDS = new WordCountEstimator();

    @Test
    void should_keep_one_system_message_ignoring_the_same_text_and_replacing_a_new_one() {
        MessageWindow window = MessageWindow.ofMessages(5);

        assertThat(window.setSystem(SystemMessage.from("a"))).isTrue();
        assertThat(window.setSystem(SystemMessage.from("a"))).isFalse();
        window.add(UserMessage.from("hi"));
        window.add(SystemMessage.from("b"));

        assertThat(window.system().text()).isEqualTo("b");
        assertThat(window.all()).containsExactly(SystemMessage.from("b"), UserMessage.from("hi"));
    }

    @Test
    void should_evict_whole_turns_first() {
        MessageWindow window = MessageWindow.ofMessages(4);
        window.add(UserMessage.from("u1"));
        window.add(AiMessage.from(request("1")));
        window.add(result("1"));
        window.add(AiMessage.from("a1"));
        window.add(UserMessage.from("u2"));

        assertThat(window.view()).containsExactly(UserMessage.from("u2"));
    }

    @Test
    void should_keep_a_tool_request_with_its_results_when_evicting_inside_the_last_turn() {
        MessageWindow window = MessageWindow.ofMessages(3);
        window.add(UserMessage.from("u1"));
        window.add(AiMessage.from(request("1"), request("2")));
        window.add(result("1"));
        window.add(result("2"));

        // the newest exchange stays whole even though it alone is over the limit; the turn's task still opens the view
        assertThat(window.size()).isEqualTo(3);
        assertThat(window.view()).containsExactly(UserMessage.from("u1"), AiMessage.from(request("1"), request("2")),
                result("1"), result("2"));

        window.add(AiMessage.from("done"));

        assertThat(window.view()).containsExactly(UserMessage.from("u1"), AiMessage.from("done"));
        window.add(UserMessage.from("u2"));
        assertThat(window.view()).containsExactly(AiMessage.from("done"), UserMessage.from("u2"));
    }

    @Test
    void should_keep_a_long_tool_loops_task_first_without_counting_it() {
        MessageWindow window = MessageWindow.ofMessages(20);
        window.add(UserMessage.from("TASK: make the build green"));
        for (int i = 0; i < 15; i++) {
            window.add(AiMessage.from(request("c" + i)));
            window.add(result("c" + i));
        }

        assertThat(window.size()).isEqualTo(20);
        assertThat(window.view()).hasSize(21).first().isEqualTo(UserMessage.from("TASK: make the build green"));
        assertThat(window.view().get(1)).isEqualTo(AiMessage.from(request("c5")));
        assertThat(window.all()).doesNotContain(UserMessage.from("TASK: make the build green"));
    }

    @Test
    void should_never_begin_with_a_tool_result() {
        MessageWindow window = MessageWindow.ofMessages(2);
        for (int i = 0; i < 20; i++) {
            window.add(UserMessage.from("u" + i));
            window.add(AiMessage.from(request("r" + i)));
            window.add(result("r" + i));
            window.add(AiMessage.from("a" + i));
            assertThat(window.view()).isNotEmpty();
            assertThat(window.view().get(0)).isNotInstanceOf(ToolExecutionResultMessage.class);
        }
    }

    @Test
    void should_hide_a_dangling_tool_request_and_orphan_results() {
        List<ChatMessage> messages = List.of(
                result("orphan"),
                UserMessage.from("u1"),
                AiMessage.from(request("1"), request("2")),
                result("1"),
                UserMessage.from("u2"),
                AiMessage.from(request("3")),
                result("3"),
                result("someone-else"),
                AiMessage.from("a"));

        assertThat(MessageWindow.consistent(messages)).containsExactly(
                UserMessage.from("u1"),
                UserMessage.from("u2"),
                AiMessage.from(request("3")),
                result("3"),
                AiMessage.from("a"));
    }

    @Test
    void should_match_requests_without_ids_by_count() {
        ToolExecutionRequest noId = ToolExecutionRequest.builder().name("getPage").arguments("{}").build();
        ToolExecutionResultMessage answer = ToolExecutionResultMessage.builder().toolName("getPage").text("ok").build();

        assertThat(MessageWindow.consistent(List.of(AiMessage.from(noId), answer))).hasSize(2);
        assertThat(MessageWindow.consistent(List.of(AiMessage.from(noId, noId), answer))).isEmpty();
    }

    @Test
    void should_bound_the_window_by_tokens() {
        MessageWindow window = MessageWindow.ofTokens(100, WORDS);
        for (int i = 0; i < 30; i++) {
            window.add(UserMessage.from("question number " + i));
            window.add(AiMessage.from("answer number " + i));
        }

        int tokens = WORDS.estimateTokenCountInMessages(window.view());
        assertThat(tokens).isLessThanOrEqualTo(100).isGreaterThan(50);
        assertThat(window.view().get(0)).isInstanceOf(UserMessage.class);
        assertThat(window.view().get(window.view().size() - 1)).isEqualTo(AiMessage.from("answer number 29"));
    }

    @Test
    void should_forget_everything_on_clear() {
        MessageWindow window = MessageWindow.ofMessages(5);
        window.add(SystemMessage.from("s"));
        window.add(UserMessage.from("u"));

        window.clear();

        assertThat(window.all()).isEmpty();
        assertThat(window.view()).isEmpty();
    }

    /**
     * The view is checked incrementally and served without copying when it can be; whatever was added, evicted or
     * left dangling, it must equal the full rebuild of the window.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 6, 20})
    void should_serve_the_same_view_as_a_full_rebuild_after_every_change(int maxMessages) {
        Random random = new Random(maxMessages);
        for (int run = 0; run < 200; run++) {
            MessageWindow window = MessageWindow.ofMessages(maxMessages);
            List<String> open = new ArrayList<>();
            ChatMessage lastUser = null;
            for (int step = 0; step < 60; step++) {
                ChatMessage message = randomMessage(random, open, run * 100 + step);
                lastUser = message instanceof UserMessage ? message : lastUser;
                window.add(message);
                List<ChatMessage> expected = new ArrayList<>();
                if (lastUser != null && window.all().stream().noneMatch(UserMessage.class::isInstance)) {
                    expected.add(lastUser); // the last turn's task, evicted, still opens the view
                }
                expected.addAll(MessageWindow.consistent(window.all()));
                assertThat(window.view()).as("run %d step %d: %s", run, step, window.all()).isEqualTo(expected);
                assertThat(window.view()).isEqualTo(expected); // the cached view, read again
            }
        }
    }

    /** Mostly well-formed turns with single and parallel calls, sometimes a dangling request, an orphan or an id-less call. */
    private static ChatMessage randomMessage(Random random, List<String> open, int n) {
        int pick = random.nextInt(20);
        if (!open.isEmpty() && pick < 12) {
            String id = open.remove(random.nextInt(open.size()));
            return id.isEmpty()
                    ? ToolExecutionResultMessage.builder().toolName("getPage").text("no id").build()
                    : result(id);
        }
        if (pick < 4) {
            open.clear(); // a new turn: whatever is still open stays dangling
            return UserMessage.from("u" + n);
        }
        if (pick < 7) {
            int calls = 1 + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
            List<ToolExecutionRequest> requests = new ArrayList<>();
            for (int c = 0; c < calls; c++) {
                boolean withoutId = random.nextInt(10) == 0;
                String id = withoutId ? "" : n + "-" + c;
                requests.add(withoutId ? ToolExecutionRequest.builder().name("getPage").arguments("{}").build() : request(id));
                open.add(id);
            }
            return AiMessage.from(requests);
        }
        if (pick < 8) {
            return result("orphan-" + n);
        }
        return AiMessage.from("a" + n);
    }
}
