package dev.workingmemory.tools;

import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ChildJvm;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.tools.ToolTesting.assistant;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static dev.workingmemory.tools.ToolWriterProcess.ROOMY_NOTES;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code working_memory_note} through real {@code AiServices} with a scripted model, and across instances and crashes. */
class NoteToolsTest {

    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    /** Closed after each test only: the tests read while earlier instances are still open, as after a crash. */
    private final List<WorkingMemoryProvider> instances = new ArrayList<>();

    private WorkingMemoryProvider instance() {
        WorkingMemoryProvider provider = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .notes(ROOMY_NOTES).build();
        instances.add(provider);
        return provider;
    }

    @AfterEach
    void closeInstances() {
        // before @TempDir deletes the directory, which their crystal indexers would otherwise still write into
        instances.forEach(WorkingMemoryProvider::close);
    }

    private List<String> noteTexts(WorkingMemoryProvider provider) {
        return provider.memory("alice").notes().notes().stream().map(Note::text).toList();
    }

    /** Given the note tool alone, the model is not told to call memory_search, which it does not have. */
    @Test
    void should_not_name_memory_search_to_a_model_given_only_the_note_tool() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_note", "{\"note\": \"Deadline for the API migration is March 20th\"}")
                .thenAnswer("I'll remember the deadline.");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            AiServices.builder(ToolTesting.Assistant.class).chatModel(model).chatMemoryProvider(memories)
                    .tools(new NoteTools(memories)).build().chat("alice", "The API migration is due March 20th.");

            assertThat(lastToolResult(model.requests().get(1))).contains("It is saved and a search of the memory finds"
                    + " it now").doesNotContain("memory_search");
            assertThat(model.requests().get(0).toolSpecifications().get(0).description())
                    .doesNotContain("memory_search");
        }
    }

    @Test
    void should_show_the_note_in_the_next_requests_block_and_to_another_instance_at_once() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_note", "{\"note\": \"Deadline for the API migration is March 20th\","
                        + " \"importance\": 0.8, \"tags\": [\"decision\"]}")
                .thenAnswer("I'll remember the deadline.");
        WorkingMemoryProvider first = instance();

        assistant(model, first).chat("alice", "The API migration is due March 20th.");

        assertThat(lastToolResult(model.requests().get(1))).startsWith("Noted at 20").contains("(importance 0.8, tags decision)")
                .contains("memory_search finds it now").contains("1 note is waiting for the next dream");
        assertThat(systemText(model.requests().get(1))).contains("<unsynthesized_notes>\n- [")
                .contains("(importance: 0.8; tags: decision) Deadline for the API migration is March 20th");
        WorkingMemoryProvider second = instance(); // the first is neither flushed nor closed
        assertThat(noteTexts(second)).containsExactly("Deadline for the API migration is March 20th");
        assertThat(second.memory("alice").render()).contains("Deadline for the API migration is March 20th");
    }

    @Test
    void should_answer_bad_notes_with_what_to_change_and_store_nothing() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_note", "{\"note\": \"\"}")
                .thenCallTool("working_memory_note", "{\"note\": \"" + "x".repeat(2_010) + "\"}")
                .thenCallTool("working_memory_note", "{\"note\": \"x\", \"importance\": 7}")
                .thenCallTool("working_memory_note", "{\"note\": \"x\", \"tags\": [\"two words\"]}")
                .thenCallTool("working_memory_note", "{\"importance\": 0.5}")
                .thenAnswer("Sorry.");
        WorkingMemoryProvider memories = instance();

        assistant(model, memories).chat("alice", "remember nothing");

        assertThat(lastToolResult(model.requests().get(1))).startsWith("Error:").contains("empty");
        assertThat(lastToolResult(model.requests().get(2))).startsWith("Error:").contains("over the limit of 2000 by 10");
        assertThat(lastToolResult(model.requests().get(3))).startsWith("Error:").contains("from 0 to 1");
        assertThat(lastToolResult(model.requests().get(4))).startsWith("Error:").contains("tag");
        assertThat(lastToolResult(model.requests().get(5))).startsWith("Error:").contains("'note' is missing");
        assertThat(noteTexts(memories)).isEmpty();
    }

    /** Issue 19, point 6: {@code "tags": [null]} threw a NullPointerException inside the tool. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "[null]                | Tag 1 of 1 is null",
            "[\"decision\", null]  | Tag 2 of 2 is null",
            "[null, null]          | Tag 1 of 2 is null",
            "[\"\"]                | A tag is 1 to 40 letters",
            "[\"two words\"]       | A tag is 1 to 40 letters",
            "[{\"a\": 1}]          | The arguments of tool 'working_memory_note' could not be read"})
    void should_answer_a_null_or_malformed_tag_with_what_to_change_and_store_nothing(String tags, String problem) {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_note", "{\"note\": \"Deadline is March 20th\", \"tags\": " + tags + "}")
                .thenAnswer("Sorry.");
        WorkingMemoryProvider memories = instance();

        assistant(model, memories).chat("alice", "remember the deadline");

        assertThat(lastToolResult(model.lastRequest())).startsWith("Error: " + problem)
                .doesNotContain("unexpectedly").contains("How to fix:");
        assertThat(noteTexts(memories)).isEmpty();
    }

    @Test
    void should_lose_none_of_20_notes_when_the_process_is_killed_right_after_the_last_returned() throws Exception {
        try (ChildJvm child = ChildJvm.start(ToolWriterProcess.class, dir.toString(), "alice", "note ", "20", "note", "hold")) {
            child.awaitLine(line -> line.startsWith("ack 19 Noted at"), CHILD_TIMEOUT);
            child.kill();
        }

        assertThat(noteTexts(instance())).containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "note " + i).toList());
    }

    @Test
    void should_skip_a_torn_last_line_left_by_a_crash_mid_append() throws Exception {
        WorkingMemoryProvider first = instance();
        first.memory("alice").notes().note("complete note", null, null);
        try (Stream<Path> files = Files.walk(dir)) {
            Path scratch = files.filter(p -> p.getFileName().toString().equals("scratch.md")).findFirst().orElseThrow();
            Files.writeString(scratch, "- [2026-03-12T14:30:00Z] (importance: 0.8) torn no", StandardOpenOption.APPEND);
        }

        WorkingMemoryProvider second = instance();
        assertThat(noteTexts(second)).containsExactly("complete note");
        second.memory("alice").notes().note("after the crash", null, null);
        assertThat(noteTexts(instance())).containsExactly("complete note", "after the crash");
    }

    @Test
    void should_keep_all_400_notes_of_two_jvms_taking_notes_at_the_same_time() throws Exception {
        try (ChildJvm a = ChildJvm.start(ToolWriterProcess.class, dir.toString(), "alice", "a", "200", "note", "close");
             ChildJvm b = ChildJvm.start(ToolWriterProcess.class, dir.toString(), "alice", "b", "200", "note", "close")) {
            assertThat(a.awaitExit(CHILD_TIMEOUT)).isZero();
            assertThat(b.awaitExit(CHILD_TIMEOUT)).isZero();
        }

        List<String> notes = noteTexts(instance());
        assertThat(notes).hasSize(400);
        assertThat(notes.stream().filter(n -> n.startsWith("a")))
                .containsExactlyElementsOf(IntStream.range(0, 200).mapToObj(i -> "a" + i).toList());
        assertThat(notes.stream().filter(n -> n.startsWith("b")))
                .containsExactlyElementsOf(IntStream.range(0, 200).mapToObj(i -> "b" + i).toList());
    }
}
