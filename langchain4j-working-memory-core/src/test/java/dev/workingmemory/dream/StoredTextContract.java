package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.notes.Note;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the memory keeps of text with controls, bidi controls and unpaired surrogates: it cleans the text as it enters
 * (a note, a core memory block, the scratchpad, a dream's state: {@code BlockText.clean}), and every store gives the
 * cleaned text back exactly to a provider opened after a restart, so that all stores hold the same text. Every
 * {@link WorkingMemoryStore} runs it: a test class implements this interface and returns a fresh, empty store from
 * {@link #store()} (the same one for the whole test).
 */
public interface StoredTextContract {

    /** A fresh, empty store; the same instance every time it is called within one test. */
    WorkingMemoryStore store();

    /** NUL, a bidi override and isolate, an unpaired surrogate, ESC and DEL, beside a pair and non-ASCII letters. */
    String HOSTILE_LINE = "Größe 😀 a\u0000b\u202Ec\uD800d\u001B[31mf\u2066g\u007F";
    String CLEANED_LINE = "Größe 😀 abc\uFFFDdfg";
    /** The same with line breaks (CR LF, NEL) and a tab. */
    String HOSTILE = HOSTILE_LINE + "\r\nnext\u0085last\tend";
    String CLEANED = CLEANED_LINE + "\nnext\nlast\tend";

    private WorkingMemoryProvider.Builder provider() {
        return WorkingMemoryProvider.builder().store(store()).withoutCrystals()
                .dreams(DreamConfig.builder().scheduled(false).build());
    }

    @Test
    default void should_keep_notes_core_memory_scratchpad_and_state_as_cleaned_through_a_restart() {
        // a dream model that writes the hostile line into the state
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from(
                LlmDreamSynthesizerTest.ANSWER.replace("Java 17 and Maven on Linux", HOSTILE_LINE)));
        List<String> before;
        try (WorkingMemoryProvider memories = provider().dreamModel(model).build()) {
            WorkingMemory memory = memories.memory("maya");
            memory.notes().note("User's name is Douglas", 0.8, List.of());
            assertThat(memories.dream("maya").committed()).isTrue();
            memory.notes().note(HOSTILE, 0.8, List.of());
            memory.coreMemory().replace("goal", HOSTILE);
            memory.coreMemory().append("progress", "first");
            memory.coreMemory().append("progress", HOSTILE);
            memory.scratchpad().update(HOSTILE);
            before = texts(memories);
        }

        assertThat(before.get(0)).as("the note").isEqualTo(CLEANED);
        assertThat(before.get(1)).as("the goal").isEqualTo(CLEANED);
        assertThat(before.get(2)).as("the progress").isEqualTo("first\n" + CLEANED);
        assertThat(before.get(3)).as("the scratchpad").isEqualTo(CLEANED);
        assertThat(before.get(4)).as("the state").contains("\n- " + CLEANED_LINE + "\n");
        try (WorkingMemoryProvider reopened = provider().build()) {
            assertThat(texts(reopened)).isEqualTo(before);
        }
    }

    /** The last note, the goal and progress blocks, the scratchpad and the state, as the memory holds them. */
    private static List<String> texts(WorkingMemoryProvider memories) {
        WorkingMemory memory = memories.memory("maya");
        List<Note> notes = memory.notes().notes();
        return List.of(notes.get(notes.size() - 1).text(), memory.coreMemory().read("goal").content(),
                memory.coreMemory().blocks().stream().filter(block -> block.name().equals("progress"))
                        .map(CoreBlock::content).findFirst().orElseThrow(),
                memory.scratchpad().text(), memories.dreamState("maya").orElse(""));
    }
}
