package dev.workingmemory.jdbc;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.tools.WorkingMemoryTools;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

/** The snippet of the module README, run as written, by two instances on one database taking turns of one user. */
class ReadmeExampleTest extends DatabaseTest {

    interface Assistant {
        String chat(@MemoryId String userId, @UserMessage String message);
    }

    private static WorkingMemoryProvider readmeSnippet(DataSource dataSource) {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(dataSource))   // state, notes, conversations, crystals, dream lease
                .build();
        return memories;
    }

    static Assistant assistant(ChatModel model, WorkingMemoryProvider memories) {
        return AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(WorkingMemoryTools.all(memories))
                .build();
    }

    @Test
    void should_show_what_one_instance_wrote_to_another_instance_on_the_same_database() {
        ScriptedChatModel first = ScriptedChatModel.script()
                .thenCallTool("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"Ship v2\"}")
                .thenAnswer("Noted: we ship v2.");
        WorkingMemoryProvider instanceA = readmeSnippet(database.dataSource());
        assistant(first, instanceA).chat("alice", "We need to ship v2.");

        ScriptedChatModel second = ScriptedChatModel.script().thenAnswer("v2.");
        WorkingMemoryProvider instanceB = readmeSnippet(database.dataSource());
        assistant(second, instanceB).chat("alice", "What are we shipping?");

        assertThat(systemText(second.lastRequest())).contains("<goal chars=\"7/1000\">Ship v2</goal>");
        assertThat(second.lastRequest().messages()).extracting(Object::toString)
                .anyMatch(message -> message.contains("We need to ship v2."));

        ScriptedChatModel third = ScriptedChatModel.script().thenAnswer("On Friday.");
        assistant(third, instanceA).chat("alice", "When?");
        assertThat(third.lastRequest().messages()).as("A goes on with the turn B took").extracting(Object::toString)
                .anyMatch(message -> message.contains("What are we shipping?"));
        instanceA.close();
        instanceB.close();
    }
}
