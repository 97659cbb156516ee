package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.context.ToolOutputCache;
import dev.workingmemory.context.ToolOutputCacheConfig;
import dev.workingmemory.notes.Note;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the memory keeps of text with controls, bidi controls and unpaired surrogates: it cleans the text as it enters
 * (a note, a core memory block, the scratchpad, a dream's state: {@code BlockText.clean}), and every store gives the
 * cleaned text back exactly to a provider opened after a restart, so that all stores hold the same text; a tool's
 * output, which the memory keeps as the tool gave it, comes back exactly as well. Every
 * {@link WorkingMemoryStore} runs it: a test class implements this interface and returns a fresh, empty store from
 * {@link #store()} (the same one for the whole test).
 */
public interface StoredTextContract {

    /** A fresh, empty store; the same instance every time it is called within one test. */
    WorkingMemoryStore store();

    /**
     * A new instance over what {@link #store()} kept, as an application restarted on it would open it; a store that
     * keeps nothing outside itself returns {@link #store()}.
     */
    default WorkingMemoryStore restarted() {
        return store();
    }

    /** NUL, a bidi override and isolate, an unpaired surrogate, ESC and DEL, beside a pair and non-ASCII letters. */
    String HOSTILE_LINE = "Größe 😀 a\u0000b\u202Ec\uD800d\u001B[31mf\u2066g\u007F";
    String CLEANED_LINE = "Größe 😀 abc\uFFFDdfg";
    /** The same with line breaks (CR LF, NEL) and a tab. */
    String HOSTILE = HOSTILE_LINE + "\r\nnext\u0085last\tend";
    String CLEANED = CLEANED_LINE + "\nnext\nlast\tend";

    private WorkingMemoryProvider.Builder provider() {
        return provider(store());
    }

    private static WorkingMemoryProvider.Builder provider(WorkingMemoryStore store) {
        return WorkingMemoryProvider.builder().store(store).withoutCrystals()
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
        try (WorkingMemoryProvider reopened = provider(restarted()).build()) {
            assertThat(texts(reopened)).isEqualTo(before);
        }
    }

    /** A tool's output is data the memory never cleans: the cache keeps it whole, every code unit of it. */
    @Test
    default void should_keep_a_cached_tool_output_exactly_as_the_tool_gave_it_through_a_restart() {
        MemoryKey key = MemoryKey.of("maya");
        String output = HOSTILE + "\n\uDC00\uD800 " + HOSTILE;
        ToolOutputCache cache = new ToolOutputCache(store(), ToolOutputCacheConfig.defaults(), Clock.systemUTC());
        String name = cache.keep(key, "call-1", "bash", output);
        cache.close(); // the write is done

        ToolOutputCache reopened = new ToolOutputCache(restarted(), ToolOutputCacheConfig.defaults(), Clock.systemUTC());
        try {
            assertThat(reopened.read(key, name)).contains(output);
        } finally {
            reopened.close();
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
