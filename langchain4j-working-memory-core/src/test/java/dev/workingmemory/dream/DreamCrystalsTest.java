package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** Dreams with the provider's long-term memory: issue 13's "Done when" 2 and 9. */
class DreamCrystalsTest {

    private static WorkingMemoryProvider.Builder provider(EmbeddingModel model) {
        return WorkingMemoryProvider.builder().embeddingModel(model)
                .dreams(DreamConfig.builder().scheduled(false).build());
    }

    @Test
    void should_commit_pointers_whose_keywords_find_their_crystal_through_memory_search() {
        commitsPointersWhoseKeywordsFindTheirCrystal(provider(TestEmbeddingModels.miniLm()));
    }

    @Test
    void should_keep_what_a_dream_moves_out_of_the_state_searchable_for_its_pointer() {
        keepsWhatADreamMovesOutSearchableForItsPointer(provider(TestEmbeddingModels.miniLm()));
    }

    /**
     * Three notes, a dream whose state points to two of them and to a topic nothing is about: the crystals made since
     * the last dream are read, the two pointers kept and found again through {@code memory_search}, the third dropped.
     * Also run in PostgreSQL mode by the JDBC module's tests.
     */
    static void commitsPointersWhoseKeywordsFindTheirCrystal(WorkingMemoryProvider.Builder provider) {
        String answer = LlmDreamSynthesizerTest.ANSWER.replace(
                "- Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`", """
                        - Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`
                        - Past: Workspace migration → search: `WSL2 dotfiles`
                        - Past: Quantum gardening → search: `qubits tomatoes`""");
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from(answer));
        try (WorkingMemoryProvider memories = provider.dreamModel(model).build()) {
            WorkingMemory memory = memories.memory("douglas");
            memory.notes().note("We spent 3 hours debugging a CORS error on the P2P bridge; fixed by tweaking the"
                    + " EigenTrust peer scoring thresholds", 0.8, null);
            memory.notes().note("Workspace migration: moved the monorepo into WSL2 together with the dotfiles", 0.7,
                    null);
            memory.notes().note("User's name is Douglas, prefers tabs over spaces", 0.9, null);

            DreamReport report = memories.dream("douglas");

            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(report.crystalsRead()).as("the notes' crystals").isEqualTo(3);
            assertThat(report.pointersChecked()).isTrue();
            assertThat(report.pointersDropped()).isEqualTo(1);
            StateDocument state = memories.memory("douglas").layer(StateLayer.class).orElseThrow().document()
                    .orElseThrow();
            assertThat(state.render()).doesNotContain("Quantum gardening");
            assertThat(state.pointers()).extracting(CrystalPointer::topic)
                    .containsExactly("P2P bridge CORS debugging", "Workspace migration");
            for (CrystalPointer pointer : state.pointers()) {
                List<MemoryHit> hits = memories.memory("douglas").search(pointer.keywords(), 3);
                String firstTopicWord = pointer.topic().split(" ")[0].toLowerCase(Locale.ROOT);
                assertThat(hits).as("memory_search(%s)", pointer.keywords()).isNotEmpty();
                assertThat(hits.get(0).text().toLowerCase(Locale.ROOT)).contains(firstTopicWord);
            }
        }
    }

    /**
     * A dream moves a line out of the state and points to it: the topic crystal it leaves is what the pointer finds.
     * Also run in PostgreSQL mode by the JDBC module's tests.
     */
    static void keepsWhatADreamMovesOutSearchableForItsPointer(WorkingMemoryProvider.Builder provider) {
        String first = LlmDreamSynthesizerTest.ANSWER.replace("- API migration due March 20th",
                "- API migration due March 20th\n- Refactoring the billing module to use event sourcing");
        String second = LlmDreamSynthesizerTest.ANSWER.replace(
                "- Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`",
                "- Past: Billing refactoring → search: `billing event sourcing`");
        ScriptedChatModel model = ScriptedChatModel.script().thenAnswer(first).thenAnswer(second);
        try (WorkingMemoryProvider memories = provider.dreamModel(model).build()) {
            memories.memory("douglas").notes().note("User's name is Douglas, prefers tabs over spaces", 0.9, null);
            assertThat(memories.dream("douglas").committed()).isTrue();
            memories.memory("douglas").notes().note("API migration due March 20th", 0.8, null);

            DreamReport report = memories.dream("douglas");

            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(report.pointersKept()).isEqualTo(1);
            String state = memories.dreamEngine().state("douglas").orElseThrow();
            assertThat(state).doesNotContain("Refactoring the billing module")
                    .contains("- Past: Billing refactoring → search: `billing event sourcing`");
            List<MemoryHit> hits = memories.memory("douglas").search("billing event sourcing", 3);
            assertThat(hits.get(0).kind()).isEqualTo(dev.workingmemory.crystal.CrystalKind.TOPIC);
            assertThat(hits.get(0).text()).isEqualTo("Refactoring the billing module to use event sourcing");
        }
    }

    /**
     * Issue 13, "Done when" 9: the dream input after 10 and after 100 sessions of history (each session: 4 notes and 6
     * exchanges, of which the older ones leave the window as crystals of past turns; a dream after each session).
     */
    @Test
    void should_keep_the_dream_input_flat_as_history_grows_tenfold() {
        try (WorkingMemoryProvider memories = provider(TestEmbeddingModels.hashing()).maxMessages(4).build()) {
            int at10 = 0;
            int at100 = 0;
            for (int session = 1; session <= 100; session++) {
                MemoryKey key = MemoryKey.of("douglas", "session-" + session);
                WorkingMemory memory = memories.memory(key);
                for (int i = 0; i < 4; i++) {
                    memory.notes().note("Session " + session + " fact " + i + ": the customer " + session
                            + " wants invoice batch " + (session * 10 + i) + " exported to the ledger", 0.7, null);
                }
                ChatMemory chat = memories.get(key);
                for (int i = 0; i < 6; i++) {
                    chat.add(UserMessage.from("Question " + i + " of session " + session
                            + ": how do I export invoice batch " + (session * 10 + i) + "?"));
                    chat.add(AiMessage.from("Use the ledger export with batch " + (session * 10 + i) + "."));
                }
                DreamReport report = memories.dream(key);
                assertThat(report.committed()).as(report.toString()).isTrue();
                if (session == 10) {
                    at10 = report.inputChars();
                } else if (session == 100) {
                    at100 = report.inputChars();
                }
            }
            long limit = memories.dreamEngine().config().limits().maxInputChars();
            System.out.printf("dream input: %d chars after 10 sessions, %d chars after 100 sessions (limit %d)%n", at10,
                    at100, limit);
            assertThat(at100).isLessThanOrEqualTo((int) limit);
            assertThat((double) at100 / at10).isLessThan(1.5);
        }
    }
}
