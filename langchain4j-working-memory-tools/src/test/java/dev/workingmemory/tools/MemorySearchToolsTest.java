package dev.workingmemory.tools;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.workingmemory.tools.ToolTesting.assistant;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code memory_search} through real {@code AiServices} with a scripted model: notes, past turns, users, forget, restarts. */
class MemorySearchToolsTest {

    private static final String DEADLINE = "Deadline for the API migration is March 20th";
    private static final String NOTE_DEADLINE = "{\"note\": \"" + DEADLINE + "\", \"importance\": 0.8}";
    private static final String SEARCH_DEADLINE = "{\"query\": \"when is the migration due\"}";

    @TempDir
    Path dir;

    private WorkingMemoryProvider onFiles() {
        return WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
    }

    /** What memory_search answered {@code user} when asked {@code arguments} in a turn of its own. */
    private static String search(WorkingMemoryProvider memories, String user, String arguments) {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("memory_search", arguments)
                .thenAnswer("Here is what I found.");
        assistant(model, memories).chat(user, "What do you remember?");
        return lastToolResult(model.lastRequest());
    }

    @Test
    void should_find_a_note_taken_earlier_in_the_same_turn() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_note", NOTE_DEADLINE)
                .thenCallTool("memory_search", SEARCH_DEADLINE)
                .thenAnswer("The migration is due March 20th.");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().clock(new SettableClock("2026-03-12T14:30:00Z"))
                .build()) {
            assistant(model, memories).chat("alice", "The API migration is due March 20th. When is it due again?");

            assertThat(lastToolResult(model.requests().get(1))).contains("memory_search finds it now");
            assertThat(lastToolResult(model.requests().get(2)))
                    .startsWith("Found ").containsPattern("- 2026-03-12 \\(note, id note-[0-9a-f]{32}\\) " + DEADLINE);
        }
    }

    @Test
    void should_show_a_piece_of_a_long_note_by_its_window_and_say_how_to_read_the_rest() {
        String filler = "The team met in the large room and went through the open tickets one by one. ";
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().searchTokenBudget(60).build()) {
            memories.memory("alice").notes().note(filler.repeat(6) + "The security audit ends on June 14th. "
                    + filler.repeat(6), 0.7, List.of());

            String answer = search(memories, "alice", "{\"query\": \"security audit June\", \"limit\": 1}");

            assertThat(answer).startsWith("Found 1 memory").contains("security audit ends on June 14th", "…")
                    .endsWith("Read the whole exchange of a hit (… marks what a hit leaves out) with memory_read(id).");
            memories.memory("bob").notes().note(DEADLINE, 0.8, List.of());
            assertThat(search(memories, "bob", SEARCH_DEADLINE)).contains(DEADLINE).doesNotContain("marks what");
        }
    }

    @Test
    void should_find_a_fact_said_200_turns_ago_that_left_the_window() {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            ChatMessage last = request.messages().get(request.messages().size() - 1);
            if (last instanceof UserMessage user && user.singleText().startsWith("What is my dog")) {
                return AiMessage.from(ScriptedChatModel.toolCall("memory_search", "{\"query\": \"my beagle's name\"}"));
            }
            return AiMessage.from(last instanceof ToolExecutionResultMessage ? "Your dog is Biscuit." : "Okay.");
        });
        SettableClock clock = new SettableClock("2026-01-05T08:00:00Z");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().clock(clock).build()) {
            ToolTesting.Assistant assistant = assistant(model, memories);
            assistant.chat("alice", "I adopted a beagle puppy and called him Biscuit.");
            for (int i = 1; i < 200; i++) {
                clock.advance(Duration.ofMinutes(10));
                assistant.chat("alice", "Tell me something about the number " + i + ".");
            }
            assertThat(ScriptedChatModel.systemText(model.lastRequest()) + model.lastRequest().messages())
                    .doesNotContain("Biscuit"); // long gone from the window

            assistant.chat("alice", "What is my dog called?");

            assertThat(lastToolResult(model.lastRequest())).containsPattern("- 2026-01-05 \\(turn, id turn-[0-9a-f]{32}#0\\)")
                    .contains("user: I adopted a beagle puppy and called him Biscuit.");
        }
    }

    @Test
    void should_read_the_whole_exchange_of_a_hit_page_by_page_and_only_the_user_s_own() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2)
                .clock(new SettableClock("2026-03-12T14:30:00Z")).build()) {
            // one exchange of twelve answers of about 200 characters: a passage each (the question packed with the first)
            dev.langchain4j.memory.ChatMemory chat = memories.get("alice");
            chat.add(UserMessage.from("Plan the database migration, one table per step."));
            for (int step = 1; step <= 12; step++) {
                chat.add(AiMessage.from("Step " + step + ": write the migration script for table t" + step
                        + ", run it on staging, check the row counts against the source database, compare the"
                        + " checksums of both copies and record the timings in the migration log."));
            }
            chat.add(UserMessage.from("Thanks."));
            chat.add(AiMessage.from("Sure."));

            String found = search(memories, "alice", "{\"query\": \"migration script for table t7\"}");
            java.util.regex.Matcher hit = java.util.regex.Pattern.compile("id (turn-[0-9a-f]{32})#\\d+").matcher(found);
            assertThat(hit.find()).as(found).isTrue();
            assertThat(found).contains("table t7").contains("memory_read");

            String first = read(memories, "alice", "{\"id\": \"" + hit.group().substring(3) + "\"}");
            assertThat(first).startsWith("Passages 0-9 of " + hit.group(1) + ":")
                    .contains("user: Plan the database migration").contains("assistant: Step 10: write")
                    .doesNotContain("Step 11:").endsWith("[More: call memory_read with from 10.]");
            String rest = read(memories, "alice", "{\"id\": \"" + hit.group(1) + "\", \"from\": 10}");
            assertThat(rest).startsWith("Passages 10-11 of " + hit.group(1) + ":")
                    .contains("Step 12: write the migration script for table t12").endsWith("[End.]");

            assertThat(read(memories, "bob", "{\"id\": \"" + hit.group(1) + "#0\"}"))
                    .startsWith("Nothing in your long-term memory has the id");
            assertThat(read(memories, "alice", "{\"id\": \"\"}")).startsWith("Error:").contains("How to fix:");
            assertThat(read(memories, "alice", "{\"id\": \"" + hit.group(1) + "\", \"from\": -1}"))
                    .startsWith("Error: from must be 0 or more");
        }
    }

    /** What memory_read answered {@code user} when asked {@code arguments} in a turn of its own. */
    private static String read(WorkingMemoryProvider memories, String user, String arguments) {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool(MemorySearchTools.MEMORY_READ, arguments)
                .thenAnswer("Read.");
        assistant(model, memories).chat(user, "Read it.");
        return lastToolResult(model.lastRequest());
    }

    @Test
    void should_never_show_one_users_memories_to_another() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).build()) {
            ScriptedChatModel model = ScriptedChatModel.script()
                    .thenCallTool("working_memory_note", NOTE_DEADLINE).thenAnswer("Noted.")
                    .thenAnswer("Fine.");
            assistant(model, memories).chat("alice", "Remember the migration deadline.");
            assistant(model, memories).chat("alice", "The migration is due in March, and nothing else matters.");

            assertThat(search(memories, "bob", SEARCH_DEADLINE)).startsWith("Nothing in your long-term memory matches");
            // bob's own turns (his first search) left his window: they are all he finds
            assertThat(search(memories, "bob", "{\"query\": \"migration\", \"limit\": 20}"))
                    .doesNotContain(DEADLINE).doesNotContain("due in March");
            assertThat(search(memories, "alice", SEARCH_DEADLINE)).contains(DEADLINE);
        }
    }

    @Test
    void should_find_the_crystals_after_a_restart_on_the_file_store() {
        try (WorkingMemoryProvider first = onFiles()) {
            assistant(ScriptedChatModel.script().thenCallTool("working_memory_note", NOTE_DEADLINE).thenAnswer("Noted."), first)
                    .chat("alice", "The API migration is due March 20th.");
        }

        try (WorkingMemoryProvider second = onFiles()) {
            // the note; the exchange is in alice's window, which her model reads
            assertThat(search(second, "alice", SEARCH_DEADLINE))
                    .containsPattern("\\(note, id note-[0-9a-f]{32}\\) " + DEADLINE)
                    .doesNotContain("user: The API migration is due March 20th.");
            // another conversation of hers finds the exchange too: it became a past turn when the first provider
            // closed (a pause)
            assertThat(second.memory(MemoryKey.of("alice", "later")).search("when is the migration due", 5))
                    .extracting(MemoryHit::text).anyMatch(text -> text.contains("user: The API migration is due"));
            assertThat(search(second, "bob", SEARCH_DEADLINE)).startsWith("Nothing");
        }
    }

    @Test
    void should_share_the_crystals_between_two_providers_on_one_root() {
        try (WorkingMemoryProvider first = onFiles(); WorkingMemoryProvider second = onFiles()) {
            assistant(ScriptedChatModel.script().thenCallTool("working_memory_note", NOTE_DEADLINE).thenAnswer("Noted."), first)
                    .chat("alice", "The API migration is due March 20th.");

            assertThat(search(second, "alice", SEARCH_DEADLINE)).containsPattern("\\(note, id note-[0-9a-f]{32}\\) " + DEADLINE);
        }
    }

    @Test
    void should_leave_nothing_of_a_forgotten_user_on_disk_or_in_search() throws IOException {
        String secret = "Quetzalcoatl-7731";
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .maxMessages(2).saveDelay(Duration.ZERO).build();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Okay."));
        assistant(model, memories).chat("bob", "Hello, I am Bob.");
        memories.flush();
        Set<String> before = files();

        assistant(ScriptedChatModel.script().thenCallTool("working_memory_note",
                "{\"note\": \"The vault password is " + secret + "\"}").thenAnswer("Noted."), memories)
                .chat("alice", "My vault password is " + secret + ".");
        for (int i = 0; i < 3; i++) {
            assistant(model, memories).chat("alice", "Remember " + secret + " as my code, round " + i + ".");
        }
        memories.memory(dev.workingmemory.MemoryKey.of("alice", "other-thread")).coreMemory().replace("goal", "Guard " + secret);
        memories.flush();
        assertThat(search(memories, "alice", "{\"query\": \"" + secret + "\"}")).contains(secret);
        assertThat(files()).isNotEqualTo(before);

        memories.forget("alice");

        // searched without a turn, which would leave new traces of alice
        assertThat(memories.memory("alice").search(secret, 20)).isEmpty();
        assertThat(memories.memory("alice").notes().notes()).isEmpty();
        assertThat(memories.memory("alice").render()).doesNotContain(secret);
        memories.close();
        // what closing adds is bob's: his conversation paused, and its window became past turns; the pause took the
        // mark his first message left (a process killed before it would leave the pause to bob's next load)
        // (and with it bob's resource directory, which held nothing else)
        List<String> marks = before.stream().filter(file -> file.contains("/unpaused-")).toList();
        assertThat(marks).hasSize(1);
        String markDirectory = marks.get(0).substring(0, marks.get(0).indexOf('/') + 1);
        assertThat(files()).containsAll(before.stream().filter(file -> !file.startsWith(markDirectory)).toList())
                .noneMatch(file -> file.contains("/unpaused-"));
        assertThat(files()).filteredOn(file -> !before.contains(file)).isNotEmpty().allMatch(file -> file.contains("bob"));
        assertThat(filesContaining(secret)).isEmpty();
    }

    /** Every file under the root but the Lucene index's segment files and lock files (named by generation, not user). */
    private Set<String> files() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).map(dir::relativize).map(Path::toString)
                    .filter(name -> !name.startsWith(".crystals/index/") && !name.startsWith(".locks/"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private List<Path> filesContaining(String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return indexOf(Files.readAllBytes(file), needle) >= 0;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"query": ""}                              | The parameter 'query' is empty.
            {"query": "   "}                           | The parameter 'query' is empty.
            {}                                         | The parameter 'query' is missing.
            {"query": "deadline", "limit": 0}          | The limit must be a whole number from 1 to 20, was 0.
            {"query": "deadline", "limit": 21}         | The limit must be a whole number from 1 to 20, was 21.
            {"query": "deadline", "limit": -3}         | The limit must be a whole number from 1 to 20, was -3.
            {"query": {"text": "deadline"}}            | must be text, but a JSON object was sent
            """)
    void should_answer_bad_searches_with_what_to_change(String arguments, String message) {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            String answer = search(memories, "alice", arguments);

            assertThat(answer).startsWith("Error:").contains(message).contains("How to fix:");
        }
    }

    @Test
    void should_answer_an_over_long_query_and_an_empty_memory_with_a_clear_text() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxSearchQueryChars(50).build()) {
            assertThat(search(memories, "alice", "{\"query\": \"" + "word ".repeat(20) + "\"}"))
                    .startsWith("Error: The query is 99 characters long, over the limit of 50 by 49.");
            assertThat(search(memories, "alice", SEARCH_DEADLINE))
                    .isEqualTo("Nothing in your long-term memory matches 'when is the migration due'. Try other words"
                            + " (a name, a date, a key term), or ask the user.");
        }
    }

    @Test
    void should_leave_the_tool_out_without_crystals() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build();

        assertThat(WorkingMemoryTools.all(memories)).noneMatch(MemorySearchTools.class::isInstance);
        ScriptedChatModel model = ScriptedChatModel.script().thenCallTool("working_memory_note", NOTE_DEADLINE)
                .thenAnswer("Noted.");
        assistant(model, memories).chat("alice", "Remember the deadline.");
        assertThat(lastToolResult(model.lastRequest())).doesNotContain("memory_search finds it");
        memories.close();
    }
}
