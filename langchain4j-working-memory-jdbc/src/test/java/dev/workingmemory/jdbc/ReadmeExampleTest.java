package dev.workingmemory.jdbc;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.MemoryHit;
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

    @Test
    void should_find_on_one_instance_the_note_another_took_with_a_crystal_store_of_the_applications()
            throws InterruptedException {
        DataSource dataSource = database.dataSource();
        try (CrystalStore crystals = JdbcCrystalStore.builder()
                .dataSource(dataSource)
                .cacheSize(512L << 20)          // heap for this instance's scope indexes; default 256 MB
                .build();                        // embeds with all-MiniLM-L6-v2, in process
             WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(dataSource))
                     .crystalStore(crystals)
                     .build();
             WorkingMemoryProvider other = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(dataSource))
                     .build()) {
            assistant(ScriptedChatModel.script().thenCallTool("working_memory_note",
                    "{\"note\": \"Deadline for the API migration is March 20th\"}").thenAnswer("Noted."), other)
                    .chat("alice", "The API migration is due March 20th.");
            while (other.pendingCrystals() > 0) { // its crystals are written behind the turn
                Thread.sleep(10);
            }

            assertThat(memories.memory("alice").search("when do we have to be done moving the interface", 1))
                    .extracting(MemoryHit::text).containsExactly("Deadline for the API migration is March 20th");
        }
    }
}
