package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 13, "Done when" 8: three sessions through AiServices; a breakthrough leaves a dopamine auto-note. */
class SalienceConversationTest {

    interface Assistant {
        String chat(@MemoryId MemoryKey session, @UserMessage String message);
    }

    private static final String USER = "douglas";

    @Test
    void should_note_a_dopamine_spike_after_a_breakthrough_in_the_third_session() throws InterruptedException {
        SettableClock clock = new SettableClock("2026-03-10T09:00:00Z");
        DreamConfig config = DreamConfig.builder().interval(Duration.ofDays(1))
                .consolidationInterval(Duration.ofMillis(50)).build();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().clock(clock).dreams(config)
                .withoutCrystals().build()) {
            Assistant assistant = AiServices.builder(Assistant.class)
                    .chatModel(ScriptedChatModel.answering(request -> AiMessage.from("Understood.")))
                    .chatMemoryProvider(memories).build();

            MemoryKey monday = MemoryKey.of(USER, "monday");
            assistant.chat(monday, "Hi, can you help me set up the build for the API service?");
            assistant.chat(monday, "We use Maven and Java 17.");
            Thread.sleep(300); // several consolidations
            assertThat(autoNotes(memories)).isEmpty();

            clock.advance(Duration.ofDays(1));
            MemoryKey tuesday = MemoryKey.of(USER, "tuesday");
            assistant.chat(tuesday, "The build is still failing with the same error, this is so frustrating!!");
            assistant.chat(tuesday, "Still stuck on it.");

            clock.advance(Duration.ofDays(1));
            MemoryKey wednesday = MemoryKey.of(USER, "wednesday");
            assistant.chat(wednesday, "IT FINALLY WORKS!!! The build is green, what a breakthrough.");
            assistant.chat(wednesday, "Thank you so much, I really appreciate it!");

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (autoNotes(memories).stream().noneMatch(note -> note.text().contains("dopamine spike"))
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            Note dopamine = autoNotes(memories).stream().filter(note -> note.text().contains("dopamine spike"))
                    .findFirst().orElseThrow(() -> new AssertionError("no dopamine auto-note: " + autoNotes(memories)));
            assertThat(dopamine.text()).startsWith("[AUTO] Hormonal event: dopamine spike (")
                    .contains("FINALLY WORKS");
            assertThat(dopamine.importance()).isEqualTo(0.8);
            assertThat(dopamine.time()).isEqualTo(clock.instant());
            // kept for the dream, not shown: the model read the message it restates
            assertThat(memories.memory(wednesday).render()).doesNotContain("[AUTO]");

            DreamReport report = memories.dream(wednesday);
            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(memories.memory(wednesday).layer(StateLayer.class).orElseThrow().document().orElseThrow().mood())
                    .hasValueSatisfying(mood -> assertThat(mood).containsAnyOf("energized", "motivated"));
        }
    }

    private static List<Note> autoNotes(WorkingMemoryProvider memories) {
        return memories.memory(MemoryKey.of(USER, "monday")).notes().notes().stream()
                .filter(note -> note.tags().contains(AutoNote.TAG)).toList();
    }
}
