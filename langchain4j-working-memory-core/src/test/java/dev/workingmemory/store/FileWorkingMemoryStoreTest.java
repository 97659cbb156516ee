package dev.workingmemory.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.MemoryKey;
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
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileWorkingMemoryStoreTest implements WorkingMemoryStoreContract {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tempDir;

    /** Deep enough that a key escaping it by {@code ../..} still lands inside {@link #tempDir}. */
    private Path root;
    private FileWorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        root = tempDir.resolve("a/b/root");
        store = new FileWorkingMemoryStore(root);
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }

    @Override
    public WorkingMemoryStore restarted() {
        return new FileWorkingMemoryStore(root);
    }

    @Test
    void should_create_the_root_directory() {
        assertThat(root).isDirectory();
    }

    @Test
    void should_write_an_unpaired_surrogate_of_a_document_or_a_note_as_its_own_three_bytes() throws IOException {
        store.putDocument("k", "tool-output-1", "a\uD800b");
        store.appendNote("k", "- c\uDFFFd");

        Path directory = store.directoryOf("k");
        assertThat(HexFormat.of().formatHex(Files.readAllBytes(directory.resolve("tool-output-1")))).isEqualTo("61eda08062");
        assertThat(Files.readString(directory.resolve("scratch.md"), StandardCharsets.ISO_8859_1))
                .endsWith("- c\u00ed\u00bf\u00bfd\n");
    }

    @Test
    void should_read_documents_and_notes_written_as_utf_8_by_an_earlier_version_as_it_read_them() throws IOException {
        String document = "# State\n\nGröße 😀 a\u0000b \uFFFD ? \u2028\u0085 end\n";
        String note = "- Größe 😀 a\u0000b \uFFFD ? end";
        store.putDocument("k", "MEMORY.md", "written anew below");
        Path directory = store.directoryOf("k");
        Files.write(directory.resolve("MEMORY.md"), document.getBytes(StandardCharsets.UTF_8));
        Files.write(directory.resolve("scratch.md"), (FileWorkingMemoryStore.NOTES_HEADER + "\n\n" + note + "\n")
                .getBytes(StandardCharsets.UTF_8));

        FileWorkingMemoryStore restarted = new FileWorkingMemoryStore(root);

        assertThat(restarted.getDocument("k", "MEMORY.md")).contains(document);
        assertThat(restarted.notes("k")).containsExactly(note);
    }

    @Test
    void should_create_no_file_outside_the_root_for_hostile_keys() throws IOException {
        List<String> keys = WorkingMemoryStoreContract.hostileKeys().toList();
        for (String key : keys) {
            store.save(key, 0, "{}");
        }

        Path realRoot = root.toRealPath();
        try (Stream<Path> files = Files.walk(tempDir.toRealPath())) {
            assertThat(files.filter(Files::isRegularFile))
                    .isNotEmpty()
                    .allSatisfy(file -> assertThat(file).startsWith(realRoot));
        }
        try (Stream<Path> children = Files.list(realRoot)) {
            assertThat(children.filter(child -> !child.getFileName().toString().startsWith(".")))
                    .hasSize(keys.size())
                    .allSatisfy(directory -> {
                        assertThat(directory.getFileName().toString()).matches("[a-z0-9_-]{0,41}[0-9a-f]{64}");
                        assertThat(directory.resolve("state.json")).isRegularFile();
                    });
        }
    }

    @Test
    void should_name_directories_readably_and_boundedly() {
        assertThat(FileWorkingMemoryStore.directoryName("User-42_chat"))
                .startsWith("user-42_chat-")
                .hasSize("user-42_chat-".length() + 64);
        assertThat(FileWorkingMemoryStore.directoryName("../../x")).startsWith("______x-");
        assertThat(FileWorkingMemoryStore.directoryName("")).hasSize(64);
        assertThat(FileWorkingMemoryStore.directoryName("k".repeat(5_000))).hasSize(40 + 1 + 64);
    }

    @Test
    void should_give_the_directory_of_a_key_a_resource_and_a_thread() throws IOException {
        MemoryKey key = MemoryKey.of("maya", "phone");
        Path resource = store.resourceDirectory(key);
        assertThat(resource).doesNotExist(); // naming a directory creates nothing

        store.appendNote(key.resourceStoreKey(), "- [2026-03-02T12:00:00Z] (importance: 0.8) Deadline March 20th");
        store.putDocument(key.resourceStoreKey(), "MEMORY.md", "# Working Memory State");
        store.save(key.threadStoreKey(), 0, "{}");

        assertThat(resource.getParent()).isEqualTo(root.toRealPath());
        assertThat(resource.getFileName().toString()).startsWith("resource_maya-");
        assertThat(resource.resolve("scratch.md")).content().contains("Deadline March 20th");
        assertThat(resource.resolve("MEMORY.md")).hasContent("# Working Memory State");
        assertThat(store.directoryOf(key.resourceStoreKey())).isEqualTo(resource);
        assertThat(store.resourceDirectory(MemoryKey.of("maya"))).isEqualTo(resource);
        assertThat(store.threadDirectory(key).resolve("state.json")).isRegularFile();
        assertThat(store.threadDirectory(key)).isNotEqualTo(store.threadDirectory(MemoryKey.of("maya", "laptop")));
        assertThat(store.directoryOf("../../x").getParent()).isEqualTo(root.toRealPath());
        assertThatThrownBy(() -> store.resourceDirectory(null)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A directory as stores before {@code directoryOf} named it, written by hand: found, read, and listed. */
    @Test
    void should_open_a_store_written_with_the_existing_directory_names() throws Exception {
        byte[] utf16 = "resource:maya".getBytes(StandardCharsets.UTF_16BE);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(utf16));
        Path existing = Files.createDirectories(root.resolve("resource_maya-" + hash));
        Files.writeString(existing.resolve("state.json"),
                "{\"formatVersion\":1,\"key\":\"resource:maya\",\"version\":2,\"document\":{\"a\":1}}");
        Files.writeString(existing.resolve("scratch.md"), "# Scratch Buffer (Working Memory WAL)\n- a note\n");
        Files.writeString(existing.resolve("MEMORY.md"), "# Working Memory State");

        FileWorkingMemoryStore reopened = new FileWorkingMemoryStore(root);

        assertThat(reopened.resourceDirectory(MemoryKey.of("maya"))).isEqualTo(existing.toRealPath());
        assertThat(reopened.load("resource:maya")).hasValueSatisfying(snapshot -> {
            assertThat(snapshot.version()).isEqualTo(2);
            assertThat(snapshot.document()).isEqualTo("{\"a\":1}");
        });
        assertThat(reopened.notes("resource:maya")).containsExactly("- a note");
        assertThat(reopened.getDocument("resource:maya", "MEMORY.md")).contains("# Working Memory State");
        assertThat(reopened.keys()).containsExactly("resource:maya");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "not json",
            "",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":3,\"document\":{\"trunc",
            "[1,2]",
            "{}",
            "{\"formatVersion\":0,\"key\":\"k\",\"version\":3,\"document\":{}}",
            "{\"formatVersion\":1,\"version\":3,\"document\":{}}",
            "{\"formatVersion\":1,\"key\":\"k\",\"document\":{}}",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":0,\"document\":{}}",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":\"3\",\"document\":{}}",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":3}",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":3,\"documentText\":42}",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":3,\"document\":{},\"documentText\":\"x\"}",
            "{\"formatVersion\":1,\"key\":\"another key\",\"version\":3,\"document\":{}}",
            "{\"formatVersion\":1,\"key\":\"k\",\"version\":3,\"document\":{}} trailing"})
    void should_move_a_corrupted_state_aside_and_start_from_empty(String corrupted) throws IOException {
        store.save("k", 0, "{\"n\":1}");
        Path directory = root.resolve(FileWorkingMemoryStore.directoryName("k"));
        Files.writeString(directory.resolve("state.json"), corrupted);

        assertThat(store.load("k")).isEmpty();

        assertThat(directory.resolve("state.json")).doesNotExist();
        assertThat(filesIn(directory))
                .singleElement()
                .satisfies(aside -> {
                    assertThat(aside.getFileName().toString()).startsWith("state.json.corrupt-");
                    assertThat(Files.readString(aside)).isEqualTo(corrupted);
                });
        assertThat(store.keys()).isEmpty();
        assertThat(store.save("k", 0, "{\"n\":\"fresh\"}").version()).isEqualTo(1);
        assertThat(store.load("k")).contains(new Snapshot("k", 1, "{\"n\":\"fresh\"}"));
        assertThat(store.keys()).containsExactly("k");
    }

    @Test
    void should_list_the_keys_past_links_and_misplaced_files_without_following_them() throws IOException {
        Path outside = Files.createDirectories(tempDir.resolve("outside"));
        Files.writeString(outside.resolve("key.json"), "\"stolen\"");
        store.save("kept", 0, "{}");
        store.appendNote("notes only", "- a note");
        Files.createSymbolicLink(root.resolve(FileWorkingMemoryStore.directoryName("linked")), outside);
        Path misplaced = root.resolve(FileWorkingMemoryStore.directoryName("notes only")).resolve("key.json");
        Files.delete(misplaced);
        Files.createDirectories(misplaced);

        assertThat(store.keys()).containsExactly("kept");
        assertThat(store.notes("notes only")).containsExactly("- a note");
        store.appendNote("notes only", "- another note"); // writes key.json anew, the directory moved aside
        assertThat(store.keys()).containsExactlyInAnyOrder("kept", "notes only");
    }

    @Test
    void should_delete_a_key_directory_linked_elsewhere_without_touching_what_it_links_to() throws IOException {
        Path outside = Files.createDirectories(tempDir.resolve("outside"));
        Files.writeString(outside.resolve("state.json"), "outside");
        Path linked = root.resolve(FileWorkingMemoryStore.directoryName("k"));
        Files.createSymbolicLink(linked, outside);

        assertThat(store.load("k")).isEmpty(); // the link moved aside
        store.delete("k");

        try (Stream<Path> left = Files.list(root)) {
            assertThat(left).noneMatch(entry -> entry.getFileName().toString().startsWith(linked.getFileName().toString()));
        }
        assertThat(outside.resolve("state.json")).hasContent("outside");
    }

    @Test
    void should_move_a_corrupted_state_aside_when_saving_over_it() throws IOException {
        store.save("k", 0, "{\"n\":1}");
        Path directory = root.resolve(FileWorkingMemoryStore.directoryName("k"));
        Files.writeString(directory.resolve("state.json"), "garbage");

        assertThatThrownBy(() -> store.save("k", 1, "{}"))
                .isInstanceOfSatisfying(VersionConflictException.class, e -> assertThat(e.actualVersion()).isZero());
        assertThat(store.save("k", 0, "{\"n\":2}").version()).isEqualTo(1);
        assertThat(filesIn(directory)).anySatisfy(file ->
                assertThat(file.getFileName().toString()).contains(".corrupt-"));
    }

    @Test
    void should_remove_files_moved_aside_and_notes_when_the_key_is_deleted() throws IOException {
        store.save("k", 0, "{}");
        Path directory = root.resolve(FileWorkingMemoryStore.directoryName("k"));
        Files.writeString(directory.resolve("state.json"), "garbage");
        store.save("k", 0, "{}");
        store.appendNote("k", "- a note");

        store.delete("k");

        assertThat(store.load("k")).isEmpty();
        assertThat(store.notes("k")).isEmpty();
        assertThat(directory).doesNotExist();
    }

    @Test
    void should_remove_the_key_directory_on_delete() {
        store.save("k", 0, "{}");

        store.delete("k");

        assertThat(root.resolve(FileWorkingMemoryStore.directoryName("k"))).doesNotExist();
    }

    @Test
    void should_refuse_a_state_written_by_a_newer_format() throws IOException {
        store.save("k", 0, "{}");
        Path stateFile = root.resolve(FileWorkingMemoryStore.directoryName("k")).resolve("state.json");
        String newer = "{\"formatVersion\":2,\"key\":\"k\",\"version\":1,\"whatever\":{}}";
        Files.writeString(stateFile, newer);

        assertThatThrownBy(() -> store.load("k"))
                .isInstanceOf(WorkingMemoryStoreException.class)
                .hasMessageContaining("format version 2");
        assertThat(Files.readString(stateFile)).isEqualTo(newer);
    }

    @Test
    void should_embed_compact_json_documents_and_store_other_text_as_a_string() throws IOException {
        store.save("json", 0, "{\"goal\":\"ship it\"}");
        store.save("text", 0, "- a markdown note");

        JsonNode json = stateOf("json");
        assertThat(json.get("formatVersion").asInt()).isEqualTo(1);
        assertThat(json.get("key").asText()).isEqualTo("json");
        assertThat(json.get("version").asLong()).isEqualTo(1);
        assertThat(json.get("document").isObject()).isTrue();
        assertThat(json.get("document").get("goal").asText()).isEqualTo("ship it");
        assertThat(json.has("documentText")).isFalse();

        JsonNode text = stateOf("text");
        assertThat(text.get("documentText").asText()).isEqualTo("- a markdown note");
        assertThat(text.has("document")).isFalse();
    }

    @Test
    void should_store_documents_nested_too_deeply_as_text() {
        String deep = "[".repeat(2_000) + "]".repeat(2_000);

        store.save("deep", 0, deep);

        assertThat(stateOf("deep").has("documentText")).isTrue();
        assertThat(store.load("deep")).contains(new Snapshot("deep", 1, deep));
    }

    @Test
    void should_see_saves_of_another_instance_on_the_same_directory_and_conflict() {
        FileWorkingMemoryStore other = new FileWorkingMemoryStore(root);

        store.save("k", 0, "{\"by\":\"first\"}");
        assertThat(other.load("k")).contains(new Snapshot("k", 1, "{\"by\":\"first\"}"));
        assertThat(other.keys()).containsExactly("k");

        assertThatThrownBy(() -> other.save("k", 0, "{\"by\":\"other\"}"))
                .isInstanceOfSatisfying(VersionConflictException.class, e -> assertThat(e.actualVersion()).isEqualTo(1));
        other.save("k", 1, "{\"by\":\"other\"}");
        assertThatThrownBy(() -> store.save("k", 1, "{\"by\":\"first again\"}"))
                .isInstanceOfSatisfying(VersionConflictException.class, e -> assertThat(e.actualVersion()).isEqualTo(2));
        assertThat(store.load("k")).contains(new Snapshot("k", 2, "{\"by\":\"other\"}"));

        other.delete("k");
        assertThat(store.load("k")).isEmpty();
    }

    @Test
    void should_lose_no_update_when_threads_of_two_instances_race() throws Exception {
        WorkingMemoryStoreContract.assertNoLostUpdate(List.of(store, new FileWorkingMemoryStore(root)), 8, 10);
    }

    @Test
    void should_lose_no_update_when_processes_race() throws Exception {
        int processes = 2;
        int incrementsPerProcess = 30;
        List<Process> started = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            Path log = tempDir.resolve("process-" + p + ".log");
            started.add(new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    Incrementer.class.getName(), root.toString(), String.valueOf(incrementsPerProcess))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start());
        }
        Incrementer.increment(store, incrementsPerProcess); // this JVM races too

        for (int p = 0; p < processes; p++) {
            Process process = started.get(p);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(process.exitValue())
                    .as(() -> readQuietly(tempDir.resolve("process-" + started.indexOf(process) + ".log")))
                    .isZero();
        }
        int total = (processes + 1) * incrementsPerProcess;
        assertThat(store.load(Incrementer.KEY))
                .contains(new Snapshot(Incrementer.KEY, total, "{\"count\":" + total + "}"));
    }

    @Test
    void should_leave_no_temporary_files_behind() throws IOException {
        for (int i = 0; i < 5; i++) {
            store.save("k", i, "{\"n\":" + i + "}");
        }
        store.save("text", 0, "plain text");

        try (Stream<Path> files = Files.walk(root)) {
            assertThat(files.filter(Files::isRegularFile))
                    .allSatisfy(file -> assertThat(file.getFileName().toString()).matches("state\\.json|[0-9a-f]{2}\\.lock"));
        }
    }

    @Test
    void should_keep_the_state_across_a_restart() {
        store.save("k", 0, "{\"n\":1}");
        store.save("k", 1, "{\"n\":2}");
        store.save("text", 0, "plain text");

        FileWorkingMemoryStore restarted = new FileWorkingMemoryStore(root);

        assertThat(restarted.load("k")).contains(new Snapshot("k", 2, "{\"n\":2}"));
        assertThat(restarted.load("text")).contains(new Snapshot("text", 1, "plain text"));
        assertThat(restarted.keys()).containsExactlyInAnyOrder("k", "text");
        assertThat(restarted.save("k", 2, "{\"n\":3}").version()).isEqualTo(3);
    }

    private JsonNode stateOf(String key) {
        try {
            return JSON.readTree(root.resolve(FileWorkingMemoryStore.directoryName(key)).resolve("state.json").toFile());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Path> filesIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Run in a separate JVM by {@link #should_lose_no_update_when_processes_race()}. */
    static final class Incrementer {

        static final String KEY = "shared counter";

        public static void main(String[] args) {
            increment(new FileWorkingMemoryStore(Path.of(args[0])), Integer.parseInt(args[1]));
        }

        static void increment(WorkingMemoryStore store, int increments) {
            for (int i = 0; i < increments; i++) {
                while (true) {
                    Snapshot current = store.load(KEY).orElse(null);
                    long version = current == null ? 0 : current.version();
                    try {
                        store.save(KEY, version, "{\"count\":" + (version + 1) + "}");
                        break;
                    } catch (VersionConflictException e) {
                        // another process saved in between: reload and retry
                    }
                }
            }
        }
    }

    @Test
    void should_write_notes_to_scratch_md_in_the_seed_format() throws IOException {
        store.appendNote("resource:alice", "- [2026-03-12T14:30:00Z] (importance: 0.8) User's name is Douglas");
        store.appendNote("resource:alice", "- [2026-03-12T14:45:00Z] (importance: 0.7) Deadline is March 20th");

        Path scratch = root.resolve(FileWorkingMemoryStore.directoryName("resource:alice")).resolve("scratch.md");
        assertThat(Files.readString(scratch)).isEqualTo("""
                # Scratch Buffer (Working Memory WAL)

                - [2026-03-12T14:30:00Z] (importance: 0.8) User's name is Douglas
                - [2026-03-12T14:45:00Z] (importance: 0.7) Deadline is March 20th
                """);
    }

    @Test
    void should_skip_a_torn_last_line_and_cut_it_off_before_the_next_append() throws IOException {
        store.appendNote("k", "- first");
        Path scratch = root.resolve(FileWorkingMemoryStore.directoryName("k")).resolve("scratch.md");
        Files.writeString(scratch, "- [2026-03-12T14:30:00Z] (importance: 0.8) User's na", StandardOpenOption.APPEND);

        assertThat(store.notes("k")).containsExactly("- first");

        store.appendNote("k", "- second");

        assertThat(store.notes("k")).containsExactly("- first", "- second");
        assertThat(Files.readString(scratch)).doesNotContain("User's na");
    }

    @Test
    void should_read_notes_a_person_wrote_into_scratch_md_and_ignore_headings_and_blank_lines() throws IOException {
        Path directory = root.resolve(FileWorkingMemoryStore.directoryName("k"));
        store.appendNote("k", "- first");
        Files.writeString(directory.resolve("scratch.md"), "# Scratch Buffer\n\n## by hand\n- first\n\n- typed by me\n");

        assertThat(store.notes("k")).containsExactly("- first", "- typed by me");
    }

    @Test
    void should_list_a_key_that_has_only_notes() {
        store.appendNote("résumé/../x", "- a");

        assertThat(store.keys()).containsExactly("résumé/../x");
    }

    @Test
    void should_lose_no_note_of_two_store_instances_on_one_root() throws Exception {
        FileWorkingMemoryStore other = new FileWorkingMemoryStore(root);
        for (int i = 0; i < 20; i++) {
            store.appendNote("k", "- a" + i);
            other.appendNote("k", "- b" + i);
        }
        other.removeNotes("k", List.of("- a0"));

        assertThat(store.notes("k")).hasSize(39).doesNotContain("- a0").contains("- a19", "- b19");
    }

    // ---- the message log ----------------------------------------------------------------------

    private static MessageLogEntry said(String text) {
        return new MessageLogEntry.Added(dev.langchain4j.data.message.UserMessage.from(text),
                java.time.Instant.parse("2026-03-12T14:30:00Z"));
    }

    private Path messagesFile(String key) {
        return root.resolve(FileWorkingMemoryStore.directoryName(key)).resolve(FileWorkingMemoryStore.MESSAGES_FILE);
    }

    @Test
    void should_write_one_readable_json_line_per_message() throws IOException {
        store.appendMessages("k", 0, List.of(said("Größe: \"7319-QUARTZ\"\nline two"), new MessageLogEntry.Cleared()));

        List<String> lines = Files.readAllLines(messagesFile("k"), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("{\"seq\":1,\"entry\":{\"added\":\"2026-03-12T14:30:00Z\",\"message\":")
                .contains("Größe: \\\"7319-QUARTZ\\\"\\nline two");
        assertThat(lines.get(1)).isEqualTo("{\"seq\":2,\"entry\":{\"cleared\":true}}");
        assertThat(store.keys()).containsExactly("k");
    }

    @Test
    void should_skip_a_torn_last_message_and_cut_it_off_before_the_next_append() throws IOException {
        store.appendMessages("k", 0, List.of(said("first"), said("second")));
        Files.writeString(messagesFile("k"), "{\"seq\":3,\"entry\":{\"added\":\"2026-03-", StandardOpenOption.APPEND);

        assertThat(store.messages("k", 0).entries()).extracting(MessageLog.Entry::entry)
                .containsExactly(said("first"), said("second"));
        assertThat(store.messagesVersion("k")).isEqualTo(2);

        assertThat(store.appendMessages("k", 2, List.of(said("third")))).isEqualTo(3);

        assertThat(store.messages("k", 0).entries()).extracting(MessageLog.Entry::entry)
                .containsExactly(said("first"), said("second"), said("third"));
        assertThat(Files.readAllLines(messagesFile("k"))).hasSize(3).allMatch(line -> line.endsWith("}}}"));
    }

    @Test
    void should_skip_an_unreadable_message_line_and_keep_the_others() throws IOException {
        store.appendMessages("k", 0, List.of(said("first")));
        Files.writeString(messagesFile("k"), "not json\n", StandardOpenOption.APPEND);
        store.appendMessages("k", 1, List.of(said("second")));

        assertThat(store.messages("k", 0).entries()).extracting(MessageLog.Entry::seq).containsExactly(1L, 2L);
    }

    @Test
    void should_see_the_messages_another_store_instance_appended_and_trimmed() {
        FileWorkingMemoryStore other = new FileWorkingMemoryStore(root);
        store.appendMessages("k", 0, List.of(said("a")));
        assertThat(other.messagesVersion("k")).isEqualTo(1);

        other.appendMessages("k", 1, List.of(said("b"), said("c")));
        assertThat(store.messagesVersion("k")).isEqualTo(3);
        assertThat(store.messages("k", 1).entries()).extracting(MessageLog.Entry::entry).containsExactly(said("b"), said("c"));

        other.trimMessages("k", 3);
        assertThat(store.messagesVersion("k")).isEqualTo(3);
        assertThat(new FileWorkingMemoryStore(root).messages("k", 0)).isEqualTo(new MessageLog(3, List.of()));
        assertThat(store.appendMessages("k", 3, List.of(said("d")))).isEqualTo(4);
    }
}
