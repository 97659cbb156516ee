package dev.workingmemory.samples.companion;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.dream.StateDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class CompanionChatbotTest {

    private static final Pattern DEADLINE_POINTER =
            Pattern.compile("- Past: Maya's thesis draft deadline is March 20th → search: `([^`]+)`");

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void should_follow_the_deadline_pointer_of_the_state_with_memory_search_in_the_last_session() {
        CompanionChatbot.replay(out, dir);

        String output = output();
        String lastSession = output.substring(output.indexOf("=== Session 3"));
        Matcher pointer = DEADLINE_POINTER.matcher(lastSession);
        assertThat(pointer.find()).as("the deadline is a pointer in the block of session 3").isTrue();
        String keywords = pointer.group(1);
        assertThat(keywords).containsIgnoringCase("deadline").doesNotContain("Win");
        assertThat(lastSession)
                .contains("(scripted model: {{pointer:draft}} = " + keywords + ", read from the working memory block)")
                .contains("TOOL CALL: memory_search({\"query\":\"" + keywords + "\",\"limit\":3})")
                // the printed result is cut: the topic a dream moved the deadline to, then the note it came from, marked earlier
                .containsPattern("TOOL RESULT: Found \\d memories, best first: - 20\\d\\d-\\d\\d-\\d\\d \\(topic, id topic-[0-9a-f]+\\) "
                        + "Maya's thesis draft deadline is March 20th\\. - 2026-03-02 \\(note, id note-[0-9a-f]+")
                .contains("ASSISTANT: - Your thesis draft is due on March 20th (you told me on 2026-03-02).")
                .contains("- Good luck, Maya.")
                // the deadline left the state's Active Context and the notes: only the search brought it back
                .doesNotContain("<unsynthesized_notes>");
        assertThat(lastSession.substring(0, lastSession.indexOf("TOOL CALL")))
                .doesNotContain("- Maya's thesis draft deadline is March 20th");
    }

    @Test
    void should_note_what_the_user_shares_and_answer_from_the_block() {
        CompanionChatbot.replay(out, dir);

        assertThat(output())
                .contains("TOOL CALL: working_memory_note({\"note\":\"The user's name is Maya; she is writing a thesis.\"")
                .contains("TOOL CALL: working_memory_note({\"note\":\"Maya's thesis draft deadline is March 20th.\"")
                .contains("TOOL CALL: working_memory_note({\"note\":\"Maya prefers short answers in bullet points.\"")
                .contains("TOOL CALL: working_memory_note({\"note\":\"Frustration: BibTeX keeps mangling accented names")
                .contains("TOOL CALL: working_memory_note({\"note\":\"Win: chapter 2 got approved on March 5th.\"")
                .contains("ASSISTANT: Nice to meet you, Maya!")
                .contains("ASSISTANT: Noted: the draft deadline is March 20th.")
                .contains("ASSISTANT: - Got it: short answers in bullet points.")
                .contains("ASSISTANT: - Sorry, Maya, that is maddening.")
                .doesNotContain("TOOL FAILED")
                .doesNotContain("Error:");
    }

    @Test
    void should_greet_maya_in_the_second_session_by_the_name_the_first_dream_put_in_the_state() {
        CompanionChatbot.replay(out, dir);

        String output = output();
        String secondSession = output.substring(output.indexOf("=== Session 2"), output.indexOf("ASSISTANT: - Sorry, Maya"));
        String firstBlock = secondSession.substring(secondSession.indexOf("<working_memory>"),
                secondSession.indexOf("</working_memory>"));
        assertThat(firstBlock)
                .contains("<state updated=\"2026-03-02T12:03:00Z\">")
                .contains("- The user's name is Maya; she is writing a thesis.")
                .doesNotContain("<unsynthesized_notes>");
    }

    @Test
    void should_print_each_dream_report_and_state_document() {
        List<DreamReport> dreams = CompanionChatbot.replay(out, dir);

        assertThat(dreams).hasSize(2).allMatch(DreamReport::committed).allMatch(d -> d.failedGuard().isEmpty());
        assertThat(dreams).extracting(DreamReport::notesConsumed).containsExactly(3, 2);
        assertThat(dreams.get(1).pointersKept() + dreams.get(1).pointersRepaired()).isEqualTo(1);
        String output = output();
        assertThat(output.split("DREAM REPORT:\n  Dream of 'maya' committed: Committed\n", -1)).hasSize(3);
        assertThat(output)
                .contains("=== Monday 2 March 2026, 12:03 UTC: the provider restarts on its files and dreams ===")
                .contains("    consumed 3 notes, read 6 new crystals")
                .contains("    consumed 2 notes, read 4 new crystals")
                .contains("STATE DOCUMENT (MEMORY.md):\n    # Working Memory State");
        // which guard passed, with what it measured, for each dream
        assertThat(output.split("    guards: 5 of 5 passed\n      MISSING_SECTION passed: all 7 sections present\n"
                + "      EMPTY_SYNTHESIS passed: ", -1)).hasSize(3);
        assertThat(output).containsPattern("      MASS_DROP passed: the old state \\(\\d+ characters\\) is not mature")
                .containsPattern("      OVER_BUDGET passed: [\\d,]+ characters, within the budget of 6,000");
        String firstState = output.substring(output.indexOf("STATE DOCUMENT"), output.indexOf("=== Session 2"));
        assertThat(firstState).contains("## Active Context\n    \n    - Maya's thesis draft deadline is March 20th.");
    }

    @Test
    void should_leave_the_notes_facts_in_the_state_document_on_disk() throws IOException {
        CompanionChatbot.replay(out, dir);

        try (WorkingMemoryProvider reopened = CompanionChatbot.provider(dir, Clock.systemUTC(), null)) {
            String stored = reopened.dreamState("maya").orElseThrow();
            assertThat(reopened.dreamState(MemoryKey.of("maya", "session-3"))).contains(stored);
            StateDocument state = StateDocument.parse(stored);
            assertThat(state.body("The Bond"))
                    .contains("- The user's name is Maya; she is writing a thesis.")
                    .contains("- Maya prefers short answers in bullet points.")
                    .contains("- Frustration: BibTeX keeps mangling accented names in the user's references.");
            assertThat(state.body("Active Context")).isEqualTo("- Win: chapter 2 got approved on March 5th.");
            assertThat(state.pointers()).singleElement()
                    .satisfies(pointer -> assertThat(pointer.topic()).isEqualTo("Maya's thesis draft deadline is March 20th"));
            assertThat(reopened.memory("maya").search("when is the thesis draft due", 3))
                    .anySatisfy(hit -> assertThat(hit.text()).contains("March 20th"));
        }
        Path resourceDirectory = CompanionChatbot.resourceDirectory(dir, MemoryKey.of("maya"));
        assertThat(resourceDirectory.getFileName().toString()).startsWith("resource_maya-");
        Path memoryFile = resourceDirectory.resolve("MEMORY.md");
        assertThat(Files.readString(memoryFile)).contains("Maya prefers short answers in bullet points.");
        assertThat(resourceDirectory.resolve("scratch.md")).as("every note was dreamt: the log is gone").doesNotExist();
        assertThat(resourceDirectory.resolve("dreams.json")).isRegularFile();
        assertThat(output())
                .contains("maya's directory (MEMORY.md: the state document, scratch.md: the notes not dreamt yet): " + resourceDirectory + System.lineSeparator())
                .endsWith("the state document is " + memoryFile + System.lineSeparator());
    }
}
