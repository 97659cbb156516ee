package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.jdbc.JdbcWorkingMemoryStore;
import dev.workingmemory.jdbc.TestDatabase;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dreams in PostgreSQL mode read the crystals as in the embedded one ({@code DreamCrystalsTest}): the crystals made
 * since the last dream ({@code recent}), the pointer check's keywords ({@code keywords}) and searches, the topics a
 * dream moves out of the state found again by their pointer.
 */
class JdbcDreamCrystalsTest {

    private TestDatabase database;

    @BeforeEach
    void createSchema() {
        database = TestDatabase.create();
    }

    @AfterEach
    void dropSchema() {
        if (database != null) {
            database.close();
        }
    }

    private WorkingMemoryProvider.Builder provider() {
        return WorkingMemoryProvider.builder().store(new JdbcWorkingMemoryStore(database.dataSource()))
                .embeddingModel(TestEmbeddingModels.miniLm()).dreams(DreamConfig.builder().scheduled(false).build());
    }

    @Test
    void should_read_the_new_crystals_and_keep_or_drop_pointers_by_what_the_crystals_find() {
        String answer = LlmDreamSynthesizerTest.ANSWER.replace(
                "- Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`", """
                        - Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`
                        - Past: Workspace migration → search: `WSL2 dotfiles`
                        - Past: Quantum gardening → search: `qubits tomatoes`""");
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from(answer));
        try (WorkingMemoryProvider memories = provider().dreamModel(model).build()) {
            WorkingMemory memory = memories.memory("douglas");
            memory.notes().note("We spent 3 hours debugging a CORS error on the P2P bridge; fixed by tweaking the"
                    + " EigenTrust peer scoring thresholds", 0.8, null);
            memory.notes().note("Workspace migration: moved the monorepo into WSL2 together with the dotfiles", 0.7,
                    null);
            memory.notes().note("User's name is Douglas, prefers tabs over spaces", 0.9, null);

            DreamReport report = memories.dream("douglas");

            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(report.crystalsRead()).as("the notes' crystals, read by recent").isEqualTo(3);
            assertThat(report.pointersChecked()).isTrue();
            assertThat(report.pointersKept()).isEqualTo(2);
            assertThat(report.pointersDropped()).isEqualTo(1);
            String state = memories.dreamEngine().state("douglas").orElseThrow();
            assertThat(state).doesNotContain("Quantum gardening");
            for (String topic : List.of("P2P bridge CORS debugging", "Workspace migration")) {
                String keywords = state.lines().filter(line -> line.contains("Past: " + topic)).findFirst()
                        .orElseThrow().replaceAll(".*search: `(.*)`.*", "$1");
                List<MemoryHit> hits = memories.memory("douglas").search(keywords, 3);
                assertThat(hits.get(0).text().toLowerCase(Locale.ROOT)).as(keywords)
                        .contains(topic.split(" ")[0].toLowerCase(Locale.ROOT));
            }
        }
    }

    @Test
    void should_keep_what_a_dream_moves_out_of_the_state_searchable_for_its_pointer() {
        String first = LlmDreamSynthesizerTest.ANSWER.replace("- API migration due March 20th",
                "- API migration due March 20th\n- Refactoring the billing module to use event sourcing");
        String second = LlmDreamSynthesizerTest.ANSWER.replace(
                "- Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`",
                "- Past: Billing refactoring → search: `billing event sourcing`");
        ScriptedChatModel model = ScriptedChatModel.script().thenAnswer(first).thenAnswer(second);
        try (WorkingMemoryProvider memories = provider().dreamModel(model).build()) {
            memories.memory("douglas").notes().note("User's name is Douglas, prefers tabs over spaces", 0.9, null);
            assertThat(memories.dream("douglas").committed()).isTrue();
            memories.memory("douglas").notes().note("API migration due March 20th", 0.8, null);

            DreamReport report = memories.dream("douglas");

            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(report.pointersKept()).isEqualTo(1);
            List<MemoryHit> hits = memories.memory("douglas").search("billing event sourcing", 3);
            assertThat(hits.get(0).kind()).isEqualTo(CrystalKind.TOPIC);
            assertThat(hits.get(0).text()).isEqualTo("Refactoring the billing module to use event sourcing");
        }
    }
}
