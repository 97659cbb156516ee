package dev.workingmemory.tools;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code AiServices} appends to a user's message — the output format of a method that returns a type, the
 * contents a retrieval augmentor found — is sent to the model, but it is LangChain4j's text, not the user's: the
 * memory's past turns, salience and session do not take it for something said.
 */
class AppendedTextTest {

    record Trip(String city, int nights, List<String> sights) {
    }

    interface Planner {
        Trip plan(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    @Test
    void should_keep_the_output_format_langchain4j_appends_out_of_past_turns_and_the_session() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).codingAgent(true).build();
        ScriptedChatModel model = ScriptedChatModel.answering(request ->
                AiMessage.from("{\"city\": \"Lisbon\", \"nights\": 3, \"sights\": [\"Alfama\"]}"));
        Planner planner = AiServices.builder(Planner.class).chatModel(model).chatMemoryProvider(memories).build();

        for (String city : List.of("Lisbon", "Porto", "Madrid")) {
            planner.plan("ann", "Plan three nights in " + city);
        }

        // the model is still told the format
        UserMessage sent = (UserMessage) model.lastRequest().messages().get(model.lastRequest().messages().size() - 1);
        assertThat(sent.singleText()).contains("You must answer strictly");
        WorkingMemory memory = memories.memory("ann");
        List<MemoryHit> hits = memory.search("three nights in Lisbon", 5);
        assertThat(hits).extracting(MemoryHit::text).anySatisfy(text -> assertThat(text)
                .startsWith("user: Plan three nights in Lisbon\nassistant: {\"city\": \"Lisbon\""));
        assertThat(hits).extracting(MemoryHit::text).allSatisfy(text -> assertThat(text)
                .doesNotContain("You must answer strictly", "JSON format"));
        assertThat(memory.render()).doesNotContain("You must answer strictly", "answer strictly");
        memories.close();
    }

    @Test
    void should_keep_the_contents_a_retrieval_augmentor_appended_out_of_past_turns() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).build();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Open Settings, then Security."));
        ToolTesting.Assistant assistant = AiServices.builder(ToolTesting.Assistant.class).chatModel(model)
                .chatMemoryProvider(memories)
                .retrievalAugmentor(DefaultRetrievalAugmentor.builder().contentRetriever(query -> List.of(
                        Content.from("Password resets are under Settings > Security. Legacy login retires March 1.")))
                        .build())
                .build();

        assistant.chat("ann", "How do I reset my password?");
        assistant.chat("ann", "And my email address?");
        assistant.chat("ann", "Thanks!");

        assertThat(((UserMessage) model.lastRequest().messages().get(model.lastRequest().messages().size() - 1))
                .singleText()).contains("Answer using the following information:");
        List<MemoryHit> hits = memories.memory("ann").search("reset my password", 5);
        assertThat(hits).extracting(MemoryHit::text).anySatisfy(text -> assertThat(text)
                .isEqualTo("user: How do I reset my password?\nassistant: Open Settings, then Security."));
        assertThat(hits).extracting(MemoryHit::text).allSatisfy(text -> assertThat(text)
                .doesNotContain("Answer using the following information", "Legacy login"));
        memories.close();
    }
}
