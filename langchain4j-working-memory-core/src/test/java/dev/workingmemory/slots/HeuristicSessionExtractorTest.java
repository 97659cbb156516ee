package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Behaviour of the default extractor that the labelled set does not show. */
class HeuristicSessionExtractorTest {

    private final SessionExtractor extractor = SessionExtractor.defaults();

    private static ToolExecutionResultMessage result(String tool, String text) {
        return ToolExecutionResultMessage.from("call_1", tool, text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"working_memory_add", "memory_search", "core_memory_read"})
    void should_not_mine_the_results_of_the_memory_tools(String tool) {
        assertThat(extractor.extract(result(tool, "src/A.java:1: error: ';' expected"))).isEmpty();
    }

    @Test
    void should_keep_the_first_three_errors_of_a_result() {
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            log.append("src/A.java:").append(i).append(": error: problem ").append(i).append('\n');
        }

        List<SessionItem> items = extractor.extract(result("bash", log.toString()));

        assertThat(items).filteredOn(i -> i.slot().equals("error")).extracting(SessionItem::content)
                .containsExactly("A.java:1: problem 1", "A.java:2: problem 2", "A.java:3: problem 3");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void should_read_a_10_mb_result_in_linear_time_and_find_the_error_at_its_end() {
        String noise = "[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/x/y/1.0/y-1.0.jar\n";
        StringBuilder log = new StringBuilder(10_500_000);
        while (log.length() < 10_000_000) {
            log.append(noise);
        }
        log.append("a".repeat(100_000)).append('\n'); // one very long line
        log.append("[ERROR] /home/dev/app/src/main/java/App.java:[7,1] class, interface, enum, or record expected\n");

        List<SessionItem> items = extractor.extract(result("bash", log.toString()));

        assertThat(items).contains(SessionItem.of("error", "App.java:7: class, interface, enum, or record expected"));
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void should_not_backtrack_on_pathological_lines() {
        String text = ("error" + "a.".repeat(900) + "\n").repeat(2000) + ("import " + "x.".repeat(990) + "\n").repeat(500)
                + ("\tat " + "(".repeat(1500) + "\n").repeat(500);

        assertThat(extractor.extract(result("bash", text))).isNotNull();
        assertThat(extractor.extract(UserMessage.from(text))).isNotNull();
    }

    @Test
    void should_mine_a_tool_result_that_has_no_tool_name() {
        ToolExecutionResultMessage unnamed = ToolExecutionResultMessage.builder().id("call_1").toolName(null)
                .text("src/A.java:3: error: ';' expected").build();

        assertThat(extractor.extract(unnamed)).contains(SessionItem.of("error", "A.java:3: ';' expected"));
    }

    @Test
    void should_mine_the_text_parts_of_a_tool_result_with_several_contents() {
        ToolExecutionResultMessage mixed = ToolExecutionResultMessage.builder().id("call_1").toolName("screenshot")
                .contents(List.of(TextContent.from("src/A.java:3: error: ';' expected"),
                        ImageContent.from("aGVsbG8=", "image/png"), TextContent.from("done")))
                .build();

        assertThat(extractor.extract(mixed)).contains(SessionItem.of("error", "A.java:3: ';' expected"));
    }

    @Test
    void should_find_nothing_in_a_tool_result_with_only_an_image() {
        ToolExecutionResultMessage image = ToolExecutionResultMessage.builder().id("call_1").toolName(null)
                .contents(List.of(ImageContent.from("aGVsbG8=", "image/png"))).build();

        assertThat(extractor.extract(image)).isEmpty();
    }

    @Test
    void should_find_nothing_in_a_model_message_that_only_calls_tools() {
        AiMessage calls = AiMessage.from(ToolExecutionRequest.builder().id("1").name("bash")
                .arguments("{\"command\": \"TODO: let's use X\"}").build());

        assertThat(extractor.extract(calls)).isEmpty();
    }

    @Test
    void should_mine_only_the_sources_it_is_told_to() {
        SessionExtractor toolsOnly = HeuristicSessionExtractor.builder()
                .fromUserMessages(false).fromAssistantMessages(false).build();

        assertThat(toolsOnly.extract(UserMessage.from("Let's use PostgreSQL."))).isEmpty();
        assertThat(toolsOnly.extract(AiMessage.from("TODO: write the migration"))).isEmpty();
        assertThat(toolsOnly.extract(result("bash", "error: failed to push some refs"))).isNotEmpty();
    }

    @Test
    void should_ignore_todo_comments_in_code_blocks_of_a_message() {
        String message = "Here is the change:\n```java\n// TODO: let's use a cache\nint x = 1;\n```\nIt compiles.";

        assertThat(extractor.extract(AiMessage.from(message))).isEmpty();
    }

    @Test
    void should_take_the_project_frame_from_configured_library_packages() {
        String trace = "java.lang.IllegalStateException: boom\n\tat com.vendor.sdk.Client.call(Client.java:10)\n"
                + "\tat com.acme.App.main(App.java:5)\n";
        SessionExtractor vendorIsLibrary = HeuristicSessionExtractor.builder()
                .libraryPackages(List.of("java.", "com.vendor.")).build();

        assertThat(extractor.extract(result("bash", trace))).extracting(SessionItem::content)
                .containsExactly("IllegalStateException: boom at Client.call(Client.java:10)");
        assertThat(vendorIsLibrary.extract(result("bash", trace))).extracting(SessionItem::content)
                .containsExactly("IllegalStateException: boom at App.main(App.java:5)");
    }

    @Test
    void should_turn_build_tool_symbols_into_ascii() {
        String jest = " FAIL  src/cart.test.js\n  \u25CF Cart \u203A applies discount\n";

        assertThat(extractor.extract(result("bash", jest))).extracting(SessionItem::content)
                .contains("cart.test.js: Cart > applies discount");
    }
}
