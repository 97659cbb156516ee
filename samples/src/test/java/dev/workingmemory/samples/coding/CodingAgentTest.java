package dev.workingmemory.samples.coding;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.ChatModel;
import dev.workingmemory.context.PressureEvent;
import dev.workingmemory.samples.shared.SampleSetup;
import dev.workingmemory.testing.OpenAiStubServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.workingmemory.testing.OpenAiStubServer.call;
import static org.assertj.core.api.Assertions.assertThat;

class CodingAgentTest {

    private static final String FAILURE = "PricingTests.discount_from_100 Pricing.total(100.00): expected 90.00 but was 100.00";

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void should_send_the_300_line_failing_log_pruned_with_its_error_kept() {
        CodingAgent.replay(out, dir);

        String output = output();
        assertThat(output).contains("TOOL RESULT: (299 lines) [INFO] Running shop.PricingTests");
        Matcher pruned = Pattern.compile("SENT TO THE MODEL \\(pruned, (\\d+) lines\\):\n((?:    .*\n)+)").matcher(output);
        assertThat(pruned.find()).isTrue();
        assertThat(Integer.parseInt(pruned.group(1))).isLessThan(60);
        assertThat(pruned.group(2))
                .contains("[ERROR]   " + FAILURE)
                .contains("[ERROR] Tests run: 292, Failures: 1")
                .containsPattern("\\[Pruned tool output: 299 lines, .*read_tool_output\\(\"tool-output-");
        assertThat(output).contains("(scripted model: {{result:\\[ERROR\\] +\\S+ (\\w+)\\.total\\(}} = Pricing, read from the last tool result)")
                .contains("TOOL CALL: read_file({\"path\":\"src/shop/Pricing.java\"})");
    }

    @Test
    void should_keep_the_error_and_the_noted_decision_in_the_session_block() {
        CodingAgent.replay(out, dir);

        String output = output();
        String beforeReading = output.substring(0, output.indexOf("TOOL CALL: read_file"));
        assertThat(beforeReading).contains("    <session>\n    errors (1/3):\n    - " + FAILURE + "\n");
        String beforeEditing = output.substring(0, output.indexOf("TOOL CALL: edit_file"));
        assertThat(beforeEditing).contains("    decisions (1/5):\n    - Change subtotal &gt; 100.0 to &gt;= in Pricing.total")
                .contains("(scripted model: {{block:Change (subtotal > 100\\.0) to}} = subtotal > 100.0, read from the working memory block)");
        String afterPassing = output.substring(output.indexOf("USER: Run the tests twice more"));
        assertThat(afterPassing).as("the passing run_tests replaced the failure it reported")
                .contains("    <session>\n    decisions (1/5):\n").doesNotContain("\n    errors (");
    }

    @Test
    void should_fix_the_copied_project_so_that_its_tests_pass() throws IOException {
        CodingAgent.replay(out, dir);

        assertThat(Files.readString(dir.resolve("src/shop/Pricing.java"))).contains("if (subtotal >= 100.0) {");
        assertThat(output())
                .contains("TOOL RESULT: Edited src/shop/Pricing.java at line 11: 'subtotal > 100.0' is now 'subtotal >= 100.0'.")
                .contains("ASSISTANT: Fixed: Pricing.total gave no discount at exactly 100.00 (" + FAILURE.substring(FAILURE.indexOf("Pricing.total"))
                        + "). Now: Tests run: 292, Failures: 0.")
                .contains("ASSISTANT: Still green: Tests run: 292, Failures: 0.")
                .doesNotContain("TOOL FAILED");
    }

    @Test
    void should_raise_the_pressure_with_a_small_context_window_until_the_memory_intervenes() {
        List<PressureEvent> interventions = CodingAgent.replay(out, dir);

        assertThat(interventions).isNotEmpty().allSatisfy(event -> {
            assertThat(event.contextWindow()).isEqualTo(CodingAgent.CONTEXT_WINDOW);
            assertThat(event.tokensBefore()).isGreaterThanOrEqualTo(CodingAgent.CONTEXT_WINDOW * 9 / 10);
            assertThat(event.tokensAfter()).isLessThan(CodingAgent.CONTEXT_WINDOW * 9 / 10);
            assertThat(event.outputsShortened() + event.turnsEvicted()).isPositive();
        });
        String output = output();
        int moderate = output.indexOf("<pressure level=\"moderate\"");
        int intervention = output.indexOf("PRESSURE INTERVENTION #1: the request had ");
        assertThat(moderate).isPositive().isLessThan(intervention);
        assertThat(output.substring(intervention)).contains("<pressure level=\"high\"");
    }

    @Test
    void should_run_live_against_the_openai_api_with_the_test_log_sent_pruned() {
        try (OpenAiStubServer openAi = OpenAiStubServer.start()) {
            openAi.thenToolCalls(call("run_tests", "{}")).thenAnswer("One test fails at 100.00.");
            ChatModel model = SampleSetup.openAiModel("test-key", openAi.baseUrl(), null);
            BufferedReader in = new BufferedReader(new StringReader("Run the tests\nexit\n"));

            CodingAgent.chat(in, out, model, dir, true);

            List<JsonNode> requests = openAi.requests();
            assertThat(requests).hasSize(2);
            assertThat(requests.get(0).path("tools").findValuesAsText("name"))
                    .contains("list_files", "read_file", "edit_file", "run_tests", "working_memory_add", "read_tool_output");
            JsonNode toolMessage = requests.get(1).path("messages").get(requests.get(1).path("messages").size() - 1);
            assertThat(toolMessage.path("role").asText()).isEqualTo("tool");
            String sent = toolMessage.path("content").asText();
            assertThat(sent.lines().count()).isLessThan(60);
            assertThat(sent).contains("[ERROR]   " + FAILURE).contains("[Pruned tool output: 299 lines");
            assertThat(requests.get(1).path("messages").get(0).path("content").asText())
                    .contains("<session>").contains(FAILURE);
        }
        assertThat(output()).contains("TOOL CALL: run_tests({})").contains("ASSISTANT: One test fails at 100.00.");
    }
}
