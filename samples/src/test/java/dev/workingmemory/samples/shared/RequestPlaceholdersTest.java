package dev.workingmemory.samples.shared;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestPlaceholdersTest {

    private static final String BLOCK = """
            Be kind.
            <working_memory>
            <state updated="2026-03-05T22:32:00Z">
            ## The Bond

            - The user's name is Maya; she is writing a thesis.

            ## Crystal Pointers

            - Past: Lisbon trip planning → search: `Lisbon hotels`
            - Past: Maya's thesis draft deadline is March 20th → search: `thesis deadline 20th`
            </state>
            </working_memory>""";

    private final RequestPlaceholders placeholders = new RequestPlaceholders();

    private static ChatRequest request(String system, String toolResult) {
        ToolExecutionRequest call = ToolExecutionRequest.builder().id("1").name("memory_search").arguments("{}").build();
        return ChatRequest.builder().messages(SystemMessage.from(system), UserMessage.from("when was it due?"),
                AiMessage.from(call), ToolExecutionResultMessage.from(call, toolResult)).build();
    }

    @Test
    void should_read_the_block_the_pointer_and_the_last_tool_result() {
        ChatRequest request = request(BLOCK, "Found 1 memory: - 2026-03-02 (note) Maya's thesis draft deadline is March 20th.");
        Map<String, String> resolved = new LinkedHashMap<>();

        String text = placeholders.resolve("{{pointer:draft}} / {{block:name is (\\w+)}} / {{result:deadline is ([A-Z][a-z]+ \\d+\\w*)}}",
                request, resolved::put);

        assertThat(text).isEqualTo("thesis deadline 20th / Maya / March 20th");
        assertThat(resolved).containsEntry("{{pointer:draft}}", "thesis deadline 20th");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{{pointer:vacation}}", "{{block:birthday is (\\w+)}}", "{{result:due on (\\w+)}}"})
    void should_fail_when_the_request_does_not_hold_what_a_placeholder_needs(String template) {
        ChatRequest request = request(BLOCK, "No memory matches.");

        assertThatThrownBy(() -> placeholders.resolve(template, request, (p, v) -> {
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("The scripted model found no");
    }

    @Test
    void should_not_read_a_pointer_outside_the_working_memory_block() {
        String prompt = "- Past: Maya's thesis draft deadline is March 20th → search: `prompt words`\n<working_memory>\n</working_memory>";

        assertThatThrownBy(() -> placeholders.resolve("{{pointer:draft}}", request(prompt, ""), (p, v) -> {
        })).isInstanceOf(IllegalStateException.class);
    }
}
