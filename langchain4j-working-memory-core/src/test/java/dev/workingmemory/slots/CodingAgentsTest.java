package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.slots.SessionExtractionQualityTest.LabelledCase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coding agents' tool outputs written blind ({@code src/test/resources/coding}, see its README): each is evidence
 * that the memory serves a coding agent, through the default provider the session acts after it, and the error it
 * reports is taken.
 */
class CodingAgentsTest {

    /** Outputs the rule does not read as a coding agent's (the README says why); not asserted either way. */
    private static final Set<String> NOT_CLAIMED = Set.of("outputs.cases/git-log-oneline",
            "outputs.cases/gh-workflow", "outputs.cases/sql-migration", "frameworks.cases/flyway-fail",
            "frameworks.cases/bun-test", "frameworks.cases/quarkus-dev");

    private static List<LabelledCase> outputs;

    @BeforeAll
    static void load() throws IOException, URISyntaxException {
        outputs = LabelledCase.load("/coding").values().stream().flatMap(List::stream).toList();
    }

    @Test
    void should_read_the_blind_outputs_as_a_coding_agents() {
        SessionActivation rule = SessionActivation.codingEvidence();
        List<String> missed = outputs.stream().filter(c -> !rule.isEvidence(c.message())).map(LabelledCase::name)
                .toList();

        System.out.println("Coding agents' outputs written blind: " + (outputs.size() - missed.size()) + " of "
                + outputs.size() + " are evidence; not: " + missed);
        assertThat(outputs).hasSize(51);
        assertThat(missed).as("outputs not read as a coding agent's").isSubsetOf(NOT_CLAIMED);
    }

    /** Each output that reports an error gives it as an error item (its labels: a fragment or several of it). */
    @Test
    void should_take_the_error_each_output_reports() {
        SessionExtractor extractor = SessionExtractor.defaults();
        List<String> missed = new ArrayList<>();
        int labelled = 0;
        for (LabelledCase c : outputs) {
            List<String> errors = extractor.extract(c.message()).stream().filter(item -> item.slot().equals("error"))
                    .map(item -> item.content().toLowerCase(Locale.ROOT)).toList();
            for (List<String> fragments : c.expected().getOrDefault("error", List.of())) {
                labelled++;
                if (errors.stream().noneMatch(error -> fragments.stream()
                        .allMatch(fragment -> error.contains(fragment.toLowerCase(Locale.ROOT))))) {
                    missed.add(c.name() + " " + fragments + " among " + errors);
                }
            }
        }
        assertThat(labelled).isEqualTo(34);
        assertThat(missed).as("reported errors not taken").isEmpty();
    }

    @Test
    void should_make_the_session_act_after_each_output() {
        List<String> waiting = new ArrayList<>();
        try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            for (LabelledCase c : outputs) {
                if (NOT_CLAIMED.contains(c.name())) {
                    continue;
                }
                ToolExecutionResultMessage output = (ToolExecutionResultMessage) c.message();
                ChatMemory chat = provider.get(c.name());
                chat.add(SystemMessage.from("You are a coding assistant."));
                chat.add(UserMessage.from("Please check the project."));
                ToolExecutionRequest request = ToolExecutionRequest.builder().id("call_1").name(output.toolName())
                        .arguments("{}").build();
                chat.add(AiMessage.from(request));
                chat.add(ToolExecutionResultMessage.from(request, output.text()));
                chat.add(UserMessage.from("Let's go with Postgres for the cart table."));
                chat.messages();
                if (provider.memory(c.name()).sessionSlots().items("decision").isEmpty()) {
                    waiting.add(c.name());
                }
            }
        }
        assertThat(waiting).as("conversations whose session did not act").isEmpty();
    }
}
