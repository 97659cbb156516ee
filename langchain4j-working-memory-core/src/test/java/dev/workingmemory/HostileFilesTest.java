package dev.workingmemory;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.dream.DreamConfig;
import dev.workingmemory.internal.DirectoryNames;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.MessageLogEntry;
import dev.workingmemory.testing.CapturedLog;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, point 4: an attacker with write access to part of the file store's root (or an operator after a crash
 * or a full disk) tampers with its files. For each attack: the provider still builds, nothing is read or written
 * outside the root, the user keeps working through the {@code ChatMemory} (or {@code AiServices}), and what was moved
 * aside is named in the log.
 */
class HostileFilesTest {

    private static final String CANARY = "canary: nothing may write here\n";

    @TempDir
    Path dir;

    private Path root;
    private Path outside;
    private CapturedLog log;
    private final List<WorkingMemoryProvider> providers = new ArrayList<>();
    /** One instance: providers of one JVM on one root share the crystal store, which needs the same model. */
    private final HashingEmbeddingModel embeddingModel = new HashingEmbeddingModel();

    @BeforeEach
    void setUp() throws IOException {
        root = dir.resolve("root");
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("canary.txt"), CANARY);
        log = CapturedLog.start();
    }

    @AfterEach
    void tearDown() {
        providers.forEach(WorkingMemoryProvider::close);
        log.close();
    }

    private WorkingMemoryProvider provider() {
        WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(root))
                .embeddingModel(embeddingModel)
                .dreams(DreamConfig.builder().scheduled(false).build())
                .build();
        provider.memoryToolNames().register(ContextPressure.READ_TOOL_OUTPUT); // pruned results name their entry
        providers.add(provider);
        return provider;
    }

    private void close(WorkingMemoryProvider provider) {
        provider.close();
        providers.remove(provider);
    }

    private FileWorkingMemoryStore store() {
        return new FileWorkingMemoryStore(root);
    }

    private static String lines(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "build line " + i + " compiling module-" + i)
                .collect(Collectors.joining("\n"));
    }

    /** A tool-using turn: the 120-line result is pruned before the model sees it, the full output cached. */
    private static String toolTurn(ChatMemory chat, String id) {
        chat.add(UserMessage.from("run the build " + id));
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id(id).name("bash").arguments("{}").build()));
        chat.add(ToolExecutionResultMessage.from(id, "bash", lines(120)));
        String sent = chat.messages().stream().filter(ToolExecutionResultMessage.class::isInstance)
                .map(ToolExecutionResultMessage.class::cast).filter(m -> m.id().equals(id)).findFirst().orElseThrow()
                .text();
        chat.add(AiMessage.from("The build " + id + " passed."));
        assertThat(sent).contains("read_tool_output(\"tool-output-");
        return sent.replaceAll("(?s).*read_tool_output\\(\"([^\"]+)\"\\).*", "$1");
    }

    private static List<String> texts(List<MemoryHit> hits) {
        return hits.stream().map(MemoryHit::text).toList();
    }

    /** The outside directory holds its canary, unchanged, and nothing else. */
    private void assertNothingWrittenOutside() throws IOException {
        Map<String, String> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(outside)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (!file.equals(outside)) {
                    found.put(outside.relativize(file).toString(),
                            Files.isRegularFile(file) ? Files.readString(file) : "(directory)");
                }
            }
        }
        assertThat(found).containsExactly(Map.entry("canary.txt", CANARY));
    }

    /** The one entry moved aside in {@code directory} for {@code name}, named in a WARN or ERROR line. */
    private Path assertMovedAsideAndLogged(Path directory, String name, String level) throws IOException {
        Path aside;
        try (Stream<Path> entries = Files.list(directory)) {
            aside = entries.filter(entry -> entry.getFileName().toString().startsWith(name + ".corrupt-"))
                    .collect(Collectors.collectingAndThen(Collectors.toList(), list -> {
                        assertThat(list).as("%s moved aside in %s", name, directory).hasSize(1);
                        return list.get(0);
                    }));
        }
        assertThat(log.lines(level)).as("the %s lines", level).anyMatch(line -> line.contains(aside.toString()));
        return aside;
    }

    // ---- links ------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"thread", "resource"})
    void should_not_follow_a_key_directory_linked_elsewhere(String which) throws IOException {
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        Path linked = which.equals("thread") ? store().threadDirectory(key) : store().resourceDirectory(key);
        Files.createSymbolicLink(linked, outside);

        WorkingMemoryProvider memories = provider();
        ChatMemory chat = memories.get(key);
        String entry = toolTurn(chat, "c1");
        WorkingMemory memory = memories.memory(key);
        memory.coreMemory().replace("goal", "Ship the release");
        memory.notes().note("The release is due on Friday", 0.8, List.of());
        close(memories);

        assertNothingWrittenOutside();
        assertThat(Files.isSymbolicLink(linked)).isFalse();
        assertThat(linked).isDirectory();
        assertThat(assertMovedAsideAndLogged(root, linked.getFileName().toString(), "WARN")).isSymbolicLink();
        assertThat(log.text()).contains(linked + " is a symbolic link to " + outside);
        WorkingMemoryProvider reopened = provider();
        WorkingMemory again = reopened.memory(key);
        assertThat(again.coreMemory().read("goal").content()).isEqualTo("Ship the release");
        assertThat(again.layer(ContextPressure.class).orElseThrow().toolOutput(entry)).contains(lines(120));
        assertThat(texts(again.search("when is the release due", 5))).anyMatch(text -> text.contains("Friday"));
        assertNothingWrittenOutside();
    }

    @Test
    void should_not_append_a_note_to_a_notes_file_linked_elsewhere() throws IOException {
        WorkingMemoryProvider memories = provider();
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        memories.memory(key).notes().note("First note", 0.7, List.of());
        Path notes = store().resourceDirectory(key).resolve("scratch.md");
        Files.delete(notes);
        Files.createSymbolicLink(notes, outside.resolve("canary.txt"));

        memories.memory(key).notes().note("The deploy key rotates monthly", 0.7, List.of());
        memories.get(key).add(UserMessage.from("still here"));

        assertNothingWrittenOutside();
        assertThat(store().notes(key.resourceStoreKey())).singleElement().asString()
                .contains("The deploy key rotates monthly");
        assertMovedAsideAndLogged(store().resourceDirectory(key), "scratch.md", "WARN");
        assertThat(texts(memories.memory(key).search("deploy key rotation", 5)))
                .anyMatch(text -> text.contains("deploy key"));
    }

    @Test
    void should_not_read_or_append_to_a_message_log_linked_elsewhere() throws IOException {
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        WorkingMemoryProvider memories = provider();
        memories.get(key).add(UserMessage.from("My locker code is 7319-QUARTZ."));
        close(memories);
        Path messages = store().threadDirectory(key).resolve("messages.jsonl");
        Path foreign = Files.writeString(outside.resolve("foreign-messages.jsonl"), "{\"seq\":1,\"entry\":"
                + new MessageLogEntry.Added(UserMessage.from("INJECTED-FROM-OUTSIDE"), Instant.now()).toJson() + "}\n");
        Files.delete(messages);
        Files.createSymbolicLink(messages, foreign);
        String foreignBefore = Files.readString(foreign);

        memories = provider();
        ChatMemory chat = memories.get(key);
        chat.add(UserMessage.from("hello again"));

        assertThat(chat.messages().toString()).doesNotContain("INJECTED-FROM-OUTSIDE").contains("hello again");
        assertThat(Files.readString(foreign)).isEqualTo(foreignBefore);
        assertThat(messages).isRegularFile();
        assertMovedAsideAndLogged(store().threadDirectory(key), "messages.jsonl", "WARN");
    }

    @Test
    void should_keep_the_readable_messages_of_a_message_log_with_lines_that_cannot_be_read() throws IOException {
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        WorkingMemoryProvider memories = provider();
        memories.get(key).add(UserMessage.from("My locker code is 7319-QUARTZ."));
        memories.get(key).add(AiMessage.from("Noted."));
        close(memories);
        Path messages = store().threadDirectory(key).resolve("messages.jsonl");
        List<String> lines = Files.readAllLines(messages);
        Files.write(messages, "{\"seq\":3,\"entry\":{\"M\u00fcnchen\n{\"seq\":4,garbage\n"
                .getBytes(StandardCharsets.ISO_8859_1), StandardOpenOption.APPEND);

        memories = provider();
        ChatMemory chat = memories.get(key);
        chat.add(UserMessage.from("What is my locker code?"));

        assertThat(chat.messages()).filteredOn(message -> !(message instanceof SystemMessage)).extracting(Object::toString)
                .hasSize(3).anyMatch(text -> text.contains("7319-QUARTZ")).anyMatch(text -> text.contains("Noted."))
                .anyMatch(text -> text.contains("What is my locker code?"));
        Path aside = assertMovedAsideAndLogged(store().threadDirectory(key), "messages.jsonl", "WARN");
        assertThat(Files.readAllLines(aside, StandardCharsets.ISO_8859_1)).hasSize(lines.size() + 2);
        assertThat(Files.readString(messages)).doesNotContain("garbage").contains("What is my locker code?");
    }

    @ParameterizedTest
    @ValueSource(strings = {"state.json", "key.json", "MEMORY.md"})
    void should_not_read_a_file_linked_elsewhere(String name) throws IOException {
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        WorkingMemoryProvider memories = provider();
        memories.memory(key).coreMemory().replace("goal", "Before the attack");
        memories.memory(key).notes().note("A note before the attack", 0.7, List.of());
        close(memories);
        Path directory = name.equals("state.json") ? store().threadDirectory(key) : store().resourceDirectory(key);
        Files.deleteIfExists(directory.resolve(name));
        Path foreign = Files.writeString(outside.resolve("foreign-" + name),
                name.equals("MEMORY.md") ? "# Working Memory State\n\n## Active Context\n- INJECTED-FROM-OUTSIDE\n"
                        : "{\"formatVersion\":1,\"key\":\"" + key.threadStoreKey() + "\",\"version\":9,"
                        + "\"document\":{\"injected\":\"INJECTED-FROM-OUTSIDE\"}}");
        Files.createSymbolicLink(directory.resolve(name), foreign);
        String foreignBefore = Files.readString(foreign);

        memories = provider();
        ChatMemory chat = memories.get(key);
        chat.add(UserMessage.from("hello again"));
        memories.memory(key).coreMemory().replace("context", "After the attack");
        memories.dream(key);
        String system = systemText(chat);

        assertThat(system).doesNotContain("INJECTED-FROM-OUTSIDE");
        assertThat(store().keys()).contains(key.resourceStoreKey(), key.threadStoreKey());
        assertThat(Files.readString(foreign)).isEqualTo(foreignBefore);
        assertMovedAsideAndLogged(directory, name, "WARN");
    }

    private static String systemText(ChatMemory chat) {
        List<ChatMessage> messages = chat.messages();
        return messages.get(0) instanceof dev.langchain4j.data.message.SystemMessage system ? system.text() : "";
    }

    @Test
    void should_not_follow_lock_files_or_their_directory_linked_elsewhere() throws IOException {
        WorkingMemoryProvider memories = provider();
        memories.memory("alice").coreMemory().replace("goal", "Before the attack");
        close(memories);
        Path locks = root.resolve(".locks");
        try (Stream<Path> files = Files.list(locks)) {
            for (Path lock : (Iterable<Path>) files::iterator) {
                Files.delete(lock);
                Files.createSymbolicLink(lock, outside.resolve("canary.txt"));
            }
        }

        memories = provider();
        memories.memory("alice").coreMemory().replace("goal", "After the attack");
        memories.memory("alice").notes().note("Locked and loaded", 0.7, List.of());
        close(memories);

        assertNothingWrittenOutside();
        assertThat(log.lines("WARN")).anyMatch(line -> line.contains(".lock is a symbolic link to " + outside));
        assertThat(provider().memory("alice").coreMemory().read("goal").content()).isEqualTo("After the attack");

        Files.move(locks, root.resolve("locks-elsewhere"));
        Files.createSymbolicLink(locks, outside);
        memories = provider();
        memories.memory("bob").coreMemory().replace("goal", "Locks linked away");
        assertNothingWrittenOutside();
        assertMovedAsideAndLogged(root, ".locks", "WARN");
    }

    // ---- unreadable and misplaced files ----------------------------------------------------------------

    interface Assistant {
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    @Test
    void should_move_a_memory_file_that_is_not_utf8_aside_and_keep_the_user_working_through_ai_services()
            throws IOException {
        MemoryKey key = MemoryKey.of("alice");
        Path resource = Files.createDirectories(store().resourceDirectory(key));
        byte[] latin1 = "# Working Memory State\n\n## Active Context\n- Caf\u00e9 in M\u00fcnchen\n"
                .getBytes(StandardCharsets.ISO_8859_1); // saved by an editor in Latin-1: not UTF-8
        Files.write(resource.resolve("MEMORY.md"), latin1);
        ScriptedChatModel model = ScriptedChatModel.script().thenAnswer("Hello!").thenAnswer("Still here.");
        WorkingMemoryProvider memories = provider();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(memories).build();

        assertThat(assistant.chat("alice", "hi")).isEqualTo("Hello!");
        assertThat(assistant.chat("alice", "are you there?")).isEqualTo("Still here.");

        Path aside = assertMovedAsideAndLogged(resource, "MEMORY.md", "WARN");
        assertThat(Files.readAllBytes(aside)).isEqualTo(latin1);
        assertThat(ScriptedChatModel.systemText(model.lastRequest())).doesNotContain("Caf");
        memories.memory("alice").notes().note("The user prefers short answers", 0.8, List.of());
        assertThat(memories.dream("alice").committed()).isTrue(); // the state is written anew
        assertThat(Files.readString(resource.resolve("MEMORY.md"))).startsWith("# Working Memory State");
    }

    @Test
    void should_keep_the_valid_notes_of_a_notes_file_with_a_line_that_is_not_utf8() throws IOException {
        MemoryKey key = MemoryKey.of("alice");
        WorkingMemoryProvider memories = provider();
        memories.memory(key).notes().note("The API migration is due on March 20th", 0.8, List.of());
        memories.memory(key).notes().note("The staging server runs on port 8443", 0.6, List.of());
        close(memories);
        Path notes = store().resourceDirectory(key).resolve("scratch.md");
        List<String> lines = Files.readAllLines(notes);
        byte[] bad = ("- [2026-03-12T14:30:00Z] (importance: 0.5) M\u00fcnchen office\n").getBytes(StandardCharsets.ISO_8859_1);
        Files.write(notes, bad, StandardOpenOption.APPEND);

        memories = provider();
        memories.memory(key).notes().note("A third note, after the damage", 0.7, List.of());

        assertThat(memories.memory(key).notes().notes()).extracting(note -> note.text())
                .containsExactly("The API migration is due on March 20th", "The staging server runs on port 8443",
                        "A third note, after the damage");
        Path aside = assertMovedAsideAndLogged(store().resourceDirectory(key), "scratch.md", "WARN");
        assertThat(Files.readAllLines(aside, StandardCharsets.ISO_8859_1)).hasSize(lines.size() + 1);
        assertThat(log.text()).contains("line " + (lines.size() + 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"state.json", "key.json", "scratch.md", "MEMORY.md"})
    void should_move_a_directory_where_a_file_belongs_aside(String name) throws IOException {
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        Path directory = name.equals("state.json") ? store().threadDirectory(key) : store().resourceDirectory(key);
        Files.createDirectories(directory.resolve(name).resolve("inside"));
        Files.writeString(directory.resolve(name).resolve("inside").resolve("file.txt"), "not ours");

        WorkingMemoryProvider memories = provider();
        ChatMemory chat = memories.get(key);
        chat.add(UserMessage.from("hello"));
        memories.memory(key).coreMemory().replace("goal", "Work on");
        memories.memory(key).notes().note("A note despite the directory", 0.7, List.of());
        assertThat(store().resourceDirectory(key).resolve("scratch.md")).isRegularFile();
        assertThat(memories.dream(key).committed()).isTrue(); // consumes the note: scratch.md goes
        close(memories);

        assertMovedAsideAndLogged(directory, name, "WARN");
        if (!name.equals("scratch.md")) {
            assertThat(directory.resolve(name)).isRegularFile();
        }
        assertThat(store().keys()).contains(key.resourceStoreKey(), key.threadStoreKey());
        assertThat(provider().memory(key).coreMemory().read("goal").content()).isEqualTo("Work on");
    }

    @Test
    void should_move_a_file_where_a_key_directory_belongs_aside() throws IOException {
        MemoryKey key = MemoryKey.of("alice", "chat-1");
        Path thread = store().threadDirectory(key);
        Files.writeString(thread, "not a directory");

        WorkingMemoryProvider memories = provider();
        memories.memory(key).coreMemory().replace("goal", "Works");
        close(memories);

        assertThat(thread).isDirectory();
        assertMovedAsideAndLogged(root, thread.getFileName().toString(), "WARN");
        assertThat(provider().memory(key).coreMemory().read("goal").content()).isEqualTo("Works");
    }

    // ---- the long-term memory ------------------------------------------------------------------------

    private void noteAndClose(String text) {
        WorkingMemoryProvider memories = provider();
        memories.memory("alice").notes().note(text, 0.8, List.of());
        memories.memory("alice").search("warm up", 1); // waits until indexed
        close(memories);
    }

    private Path crystals() {
        return root.resolve(".crystals");
    }

    private Path recordFile() {
        return crystals().resolve("crystals").resolve(DirectoryNames.of(MemoryKey.of("alice").crystalScope()))
                .resolve("crystals.jsonl");
    }

    @Test
    void should_start_with_an_empty_long_term_memory_when_the_crystal_directory_is_a_file() throws IOException {
        Files.createDirectories(root);
        Files.writeString(crystals(), "overwritten by something else");

        WorkingMemoryProvider memories = provider();
        memories.memory("alice").notes().note("The vault code changes on Mondays", 0.8, List.of());

        assertThat(texts(memories.memory("alice").search("vault code", 5))).anyMatch(text -> text.contains("Mondays"));
        assertThat(crystals()).isDirectory();
        assertMovedAsideAndLogged(root, ".crystals", "ERROR");
        assertThat(log.lines("ERROR")).anyMatch(line -> line.contains("long-term memory starts empty"));
    }

    @Test
    void should_not_follow_a_crystal_directory_linked_elsewhere() throws IOException {
        Files.createDirectories(root);
        Files.createSymbolicLink(crystals(), outside);

        WorkingMemoryProvider memories = provider();
        memories.memory("alice").notes().note("The vault code changes on Mondays", 0.8, List.of());
        assertThat(texts(memories.memory("alice").search("vault code", 5))).anyMatch(text -> text.contains("Mondays"));
        close(memories);

        assertNothingWrittenOutside();
        assertMovedAsideAndLogged(root, ".crystals", "ERROR");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lock file overwritten", "index files overwritten", "index replaced by a file",
            "index linked elsewhere", "index file linked elsewhere"})
    void should_rebuild_a_damaged_index_from_the_records(String damage) throws IOException {
        noteAndClose("The vault code changes on Mondays");
        Path index = crystals().resolve("index");
        switch (damage) {
            case "lock file overwritten" -> Files.writeString(index.resolve("write.lock"), "garbage");
            case "index files overwritten" -> {
                try (Stream<Path> files = Files.list(index)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        Files.writeString(file, "garbage");
                    }
                }
            }
            case "index replaced by a file" -> {
                deleteRecursively(index);
                Files.writeString(index, "garbage");
            }
            case "index linked elsewhere" -> {
                deleteRecursively(index);
                Files.createSymbolicLink(index, outside);
            }
            case "index file linked elsewhere" -> Files.createSymbolicLink(index.resolve("_9.cfs"),
                    outside.resolve("canary.txt"));
            default -> throw new IllegalArgumentException(damage);
        }

        WorkingMemoryProvider memories = provider();
        assertThat(texts(memories.memory("alice").search("vault code", 5))).anyMatch(text -> text.contains("Mondays"));
        memories.memory("alice").notes().note("A second note after the damage", 0.8, List.of());
        assertThat(texts(memories.memory("alice").search("second note damage", 5)))
                .anyMatch(text -> text.contains("after the damage"));
        close(memories);

        assertNothingWrittenOutside();
        assertThat(log.lines("WARN")).anyMatch(line -> line.contains(index.toString()));
        assertThat(log.text()).doesNotContain("Cannot index", "retrying");
        if (damage.startsWith("lock")) {
            assertThat(log.lines("WARN")).anyMatch(line -> line.contains("write.lock held 7 bytes"));
        }
        if (damage.contains("replaced") || damage.equals("index linked elsewhere")) {
            assertMovedAsideAndLogged(crystals(), "index", "WARN");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"records replaced by a file", "records linked elsewhere", "scope records linked elsewhere",
            "record file linked elsewhere", "record torn by a crash during an append"})
    void should_keep_working_when_the_records_are_damaged(String damage) throws IOException {
        noteAndClose("The vault code changes on Mondays");
        Path records = crystals().resolve("crystals");
        switch (damage) {
            case "records replaced by a file" -> {
                deleteRecursively(records);
                Files.writeString(records, "garbage");
            }
            case "records linked elsewhere" -> {
                deleteRecursively(records);
                Files.createSymbolicLink(records, outside);
            }
            case "scope records linked elsewhere" -> {
                deleteRecursively(recordFile().getParent());
                Files.createSymbolicLink(recordFile().getParent(), outside);
            }
            case "record file linked elsewhere" -> {
                Files.delete(recordFile());
                Files.createSymbolicLink(recordFile(), outside.resolve("canary.txt"));
            }
            case "record torn by a crash during an append" -> Files.writeString(recordFile(),
                    "{\"seq\":99,\"id\":\"torn\",\"scope\":\"ali", StandardOpenOption.APPEND);
            default -> throw new IllegalArgumentException(damage);
        }

        WorkingMemoryProvider memories = provider();
        assertThat(texts(memories.memory("alice").search("vault code", 5))).anyMatch(text -> text.contains("Mondays"));
        memories.memory("alice").notes().note("A second note after the damage", 0.8, List.of());
        assertThat(texts(memories.memory("alice").search("second note damage", 5)))
                .anyMatch(text -> text.contains("after the damage"));
        close(memories);

        assertNothingWrittenOutside();
        if (damage.contains("linked") || damage.contains("replaced")) {
            Path moved = damage.startsWith("records") ? records
                    : damage.startsWith("scope") ? recordFile().getParent() : recordFile();
            assertMovedAsideAndLogged(moved.getParent(), moved.getFileName().toString(), "WARN");
            assertThat(log.lines("WARN")).anyMatch(line -> line.contains("written anew from the index"));
            assertThat(recordFile()).isRegularFile().content().contains("Mondays");
        } else {
            assertThat(log.lines("WARN")).anyMatch(line -> line.contains("torn last record")
                    && line.contains(recordFile().toString()));
            assertThat(recordFile()).content().doesNotContain("\"torn\"");
        }
    }

    @Test
    void should_start_with_an_empty_long_term_memory_naming_what_was_lost_when_records_and_index_are_gone()
            throws IOException {
        noteAndClose("The vault code changes on Mondays");
        Path records = crystals().resolve("crystals");
        deleteRecursively(records);
        Files.writeString(records, "garbage");
        deleteRecursively(crystals().resolve("index"));

        WorkingMemoryProvider memories = provider();
        memories.memory("alice").notes().note("A second note after the loss", 0.8, List.of());

        assertThat(texts(memories.memory("alice").search("second note loss", 5))).isNotEmpty();
        // the first note is still in the notes log: it is indexed again when the memory loads
        assertThat(texts(memories.memory("alice").search("vault code", 5))).anyMatch(text -> text.contains("Mondays"));
        Path aside = assertMovedAsideAndLogged(crystals(), "crystals", "WARN");
        assertThat(log.lines("ERROR")).anyMatch(line -> line.contains("crystal records in " + records)
                && line.contains(aside.toString()) && line.contains("starts empty"));
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }
}
