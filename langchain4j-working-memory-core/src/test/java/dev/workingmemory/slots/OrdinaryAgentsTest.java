package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.slots.SessionExtractionQualityTest.LabelledCase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The labelled sets of ordinary messages and tool results from agents that do not code (every {@code .cases} file of
 * {@code src/test/resources/ordinary}, among them {@code heldout-2026-11-28.cases}, written blind as a held-out
 * measure; see its README): a memory of such an agent shows no session item. Each file is one conversation, fed in
 * order through a default {@link WorkingMemoryProvider} (a tool result after the model's call of that tool).
 */
class OrdinaryAgentsTest {

    private static Map<String, List<LabelledCase>> conversations;

    @BeforeAll
    static void load() throws IOException, URISyntaxException {
        conversations = LabelledCase.load("/ordinary");
    }

    @Test
    void should_hold_at_least_a_hundred_cases_all_labelled_none() {
        List<LabelledCase> all = conversations.values().stream().flatMap(List::stream).toList();
        assertThat(all).hasSizeGreaterThanOrEqualTo(100);
        assertThat(all).allSatisfy(c -> assertThat(c.expected()).as(c.name()).isEmpty());
        assertThat(all.stream().filter(c -> c.message() instanceof ToolExecutionResultMessage)).hasSizeGreaterThanOrEqualTo(35);
    }

    /** What the default extractor finds on its own, message by message: the false items a gate must keep out. */
    @Test
    void should_report_what_the_extractor_alone_finds() {
        SessionExtractor extractor = SessionExtractor.defaults();
        int items = 0;
        int messages = 0;
        for (LabelledCase c : cases()) {
            List<SessionItem> found = extractor.extract(c.message());
            if (!found.isEmpty()) {
                messages++;
                items += found.size();
                System.out.println("  extractor alone: " + c.name() + " -> " + found);
            }
        }
        System.out.println("Ordinary set, the extractor alone: " + items + " false items from " + messages + " of "
                + cases().size() + " messages");
    }

    @Test
    void should_find_no_coding_agents_output_among_the_tool_results() {
        SessionActivation rule = SessionActivation.codingEvidence();
        List<String> evidence = cases().stream().filter(c -> rule.isEvidence(c.message())).map(LabelledCase::name).toList();
        long toolResults = cases().stream().filter(c -> c.message() instanceof ToolExecutionResultMessage).count();

        System.out.println("Ordinary set, coding evidence: " + evidence.size() + " of " + toolResults + " tool results "
                + evidence);
        assertThat(evidence).isEmpty();
    }

    @Test
    void should_show_no_session_item_in_any_ordinary_conversation() {
        List<String> shown = new ArrayList<>();
        try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            for (Map.Entry<String, List<LabelledCase>> conversation : conversations.entrySet()) {
                String id = conversation.getKey();
                ChatMemory chat = provider.get(id);
                chat.add(SystemMessage.from("You are a helpful assistant."));
                int call = 0;
                for (LabelledCase c : conversation.getValue()) {
                    ChatMessage message = c.message();
                    if (message instanceof ToolExecutionResultMessage result) {
                        String callId = "call_" + call++;
                        ToolExecutionRequest request = ToolExecutionRequest.builder().id(callId).name(result.toolName())
                                .arguments("{}").build();
                        chat.add(AiMessage.from(request));
                        message = ToolExecutionResultMessage.from(request, result.text());
                    }
                    chat.add(message);
                    chat.messages();
                    WorkingMemory memory = provider.memory(id);
                    List<String> items = items(memory.sessionSlots());
                    if (!items.isEmpty()) {
                        shown.add(c.name() + " -> " + items);
                    }
                }
            }
        }
        shown.forEach(line -> System.out.println("  session item after " + line));
        assertThat(shown).as("session items in ordinary conversations").isEmpty();
    }

    private static List<String> items(SessionSlots session) {
        List<String> items = new ArrayList<>();
        for (String slot : session.slotNames()) {
            session.items(slot).forEach(item -> items.add(slot + ": " + item));
        }
        session.items(SessionSlots.POOL).forEach(item -> items.add("pool: " + item));
        return items;
    }

    private static List<LabelledCase> cases() {
        return conversations.values().stream().flatMap(List::stream).toList();
    }
}
