package dev.workingmemory.crystal;

import dev.workingmemory.internal.DirectoryNames;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static dev.workingmemory.crystal.CrystalStoreContract.background;
import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DirectoryCrystalStoreTest implements CrystalStoreContract {

    @TempDir
    Path directory;

    private EmbeddedCrystalStore store;

    @BeforeEach
    void open() {
        store = build();
    }

    private EmbeddedCrystalStore build() {
        return EmbeddedCrystalStore.builder()
                .directory(directory)
                .embeddingModel(TestEmbeddingModels.miniLm())
                .build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    public CrystalStore store() {
        return store;
    }

    @Override
    public CrystalStore reopen() {
        store.close();
        store = build();
        return store;
    }

    @Override
    public boolean persistent() {
        return true;
    }

    private Path recordFile(String scope) {
        return directory.resolve("crystals").resolve(DirectoryNames.of(scope)).resolve("crystals.jsonl");
    }

    private void addDeadlineAndClose() {
        store.add(background("alice"));
        store.add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));
        store.close();
    }

    private void assertDeadlineFound() {
        assertThat(store.count("alice")).isEqualTo(11);
        assertThat(ids(store.search(new CrystalQuery("alice", "when is the migration due", 1))))
                .containsExactly("deadline");
        assertThat(ids(store.search(new CrystalQuery("alice", "tabs or spaces", 1)))).containsExactly("alice-bg-0");
    }

    @Test
    void should_keep_the_records_as_json_lines_per_scope() throws IOException {
        store.add(List.of(note("n1", "alice", "First\nnote with a line break")));
        store.count("alice");

        List<String> lines = Files.readAllLines(recordFile("alice"));
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("\"id\":\"n1\"", "\"scope\":\"alice\"", "\"kind\":\"note\"",
                "\"text\":\"First\\nnote with a line break\"");
    }

    /**
     * A record written before tags were bounded, with a tool's 40,000-character name as its tag (the index refused it
     * then): the crystal is kept, its tag cut as a tag is now made, and the crystals after it are indexed.
     */
    @Test
    void should_keep_a_record_whose_tag_is_over_the_limit_with_the_tag_cut() throws IOException {
        Crystal tagged = new Crystal("deadline", "alice", CrystalKind.TOOL_OUTPUT, Instant.parse("2026-03-12T14:30:00Z"),
                0.3, List.of("from-tool"), "Deadline for the API migration is March 20th", null, null);
        store.add(List.of(tagged));
        store.close();
        String longName = "t".repeat(40_000);
        Files.writeString(recordFile("alice"), Files.readString(recordFile("alice")).replace("from-tool", longName));
        deleteRecursively(directory.resolve("index"));

        store = build();
        store.add(List.of(note("later", "alice", "Tabs over spaces in the shared style guide")));

        assertThat(store.search(new CrystalQuery("alice", "when is the migration due", 1)))
                .extracting(CrystalHit::crystal).containsExactly(new Crystal("deadline", "alice",
                        CrystalKind.TOOL_OUTPUT, tagged.time(), 0.3, List.of(longName.substring(0,
                        Crystal.MAX_TAG_LENGTH)), tagged.text(), null, null));
        assertThat(ids(store.search(new CrystalQuery("alice", "tabs or spaces", 1)))).containsExactly("later");
    }

    @Test
    void should_rebuild_the_index_from_the_records_when_it_is_deleted() throws IOException {
        addDeadlineAndClose();
        deleteRecursively(directory.resolve("index"));

        store = build();

        assertDeadlineFound();
    }

    @Test
    void should_rebuild_an_index_of_another_format_from_the_records() throws IOException {
        addDeadlineAndClose();
        String format;
        try (FSDirectory index = FSDirectory.open(directory.resolve("index"));
             IndexWriter writer = new IndexWriter(index, new IndexWriterConfig())) {
            Map<String, String> data = new HashMap<>();
            writer.getLiveCommitData().forEach(entry -> data.put(entry.getKey(), entry.getValue()));
            format = data.get("crystal_index_format");
            data.put("crystal_index_format", "5"); // as an older version wrote it, before keywords were partitioned
            writer.setLiveCommitData(data.entrySet());
            writer.commit();
        }

        store = build();

        assertDeadlineFound();
        try (FSDirectory index = FSDirectory.open(directory.resolve("index"))) {
            assertThat(SegmentInfos.readLatestCommit(index).getUserData()).containsEntry("crystal_index_format", format);
        }
    }

    @Test
    void should_rebuild_the_index_from_the_records_when_a_file_of_it_is_truncated() throws IOException {
        addDeadlineAndClose();
        Path largest;
        try (Stream<Path> files = Files.list(directory.resolve("index"))) {
            largest = files.filter(file -> !file.getFileName().toString().equals("write.lock"))
                    .max(Comparator.comparingLong(DirectoryCrystalStoreTest::size)).orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(largest, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() / 2);
        }

        store = build();

        assertDeadlineFound();
    }

    @Test
    void should_rebuild_the_index_when_it_holds_garbage() throws IOException {
        addDeadlineAndClose();
        try (Stream<Path> files = Files.list(directory.resolve("index"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.getFileName().toString().startsWith("segments")) {
                    Files.writeString(file, "not an index");
                }
            }
        }

        store = build();

        assertDeadlineFound();
    }

    @Test
    void should_index_on_open_what_was_recorded_after_the_last_commit_and_drop_what_was_deleted() throws IOException {
        store.add(background("alice"));
        store.add(List.of(note("gone", "alice", "The old VPN password hint is a blue elephant")));
        store.close();
        Path saved = directory.resolve("index-before");
        copyRecursively(directory.resolve("index"), saved);
        store = build();
        store.add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));
        store.delete("alice", List.of("gone"));
        store.close();
        // as if the process had died after recording and before committing the index
        deleteRecursively(directory.resolve("index"));
        copyRecursively(saved, directory.resolve("index"));

        store = build();

        assertDeadlineFound();
        assertThat(store.get("gone")).isEmpty();
        assertThat(ids(store.search(new CrystalQuery("alice", "VPN password hint", 5)))).doesNotContain("gone");
    }

    @Test
    void should_skip_a_torn_last_record_and_append_after_it() throws IOException {
        addDeadlineAndClose();
        Files.writeString(recordFile("alice"), "{\"seq\":99,\"id\":\"torn\",\"scope\":\"ali",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        store = build();
        assertDeadlineFound();
        store.add(List.of(note("after", "alice", "Written after the torn record was cut off")));
        assertThat(store.count("alice")).isEqualTo(12);
        store.close();

        assertThat(Files.readString(recordFile("alice"))).doesNotContain("\"id\":\"torn\"").endsWith("\n");
        store = build();
        assertThat(store.count("alice")).isEqualTo(12);
        assertThat(store.get("torn")).isEmpty();
    }

    @Test
    void should_skip_a_line_that_is_not_a_record() throws IOException {
        addDeadlineAndClose();
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(recordFile("alice")));
        lines.add(3, "{\"not\":\"a crystal\"}");
        Files.write(recordFile("alice"), lines);

        store = build();

        assertDeadlineFound();
    }

    @Test
    void should_remove_the_text_of_deleted_crystals_from_the_records() throws IOException {
        store.add(List.of(note("secret", "alice", "The door code is 4711-zebra"),
                note("kept", "alice", "The bakery opens at seven")));
        store.count("alice");

        store.delete("alice", List.of("secret"));

        assertThat(Files.readString(recordFile("alice"))).doesNotContain("zebra").contains("bakery");
        assertThat(directory.resolve("crystals").resolve(DirectoryNames.of("alice")).resolve("crystals.jsonl.tmp"))
                .doesNotExist();
    }

    @Test
    void should_leave_nothing_of_a_deleted_scope_on_disk() throws IOException {
        String token = "Quixotrombulance";
        // one add, so one batch: alice's crystal shares its segment with bob's ten, 1 deleted document of 11 after
        // deleteScope, below the share of deletions at which Lucene's merge policy rewrites a segment by default
        List<Crystal> both = new ArrayList<>(background("bob"));
        both.add(5, note("s1", "alice", "My passphrase is " + token + " for the vault"));
        store.add(both);
        store.close();
        assertThat(filesContaining(token)).isNotEmpty(); // the check can see the text where it is
        store = build();

        store.deleteScope("alice");

        assertThat(filesContaining(token)).isEmpty();
        assertThat(recordFile("alice").getParent()).doesNotExist();
        assertThat(store.count("bob")).isEqualTo(10);
        store.close();
        store = build();
        assertThat(store.count("alice")).isZero();
        assertThat(store.count("bob")).isEqualTo(10);
    }

    @Test
    void should_leave_nothing_of_a_deleted_scope_in_segments_that_were_merged_meanwhile() throws IOException {
        String token = "Quixotrombulance";
        for (int round = 0; round < 24; round++) { // a segment per round: Lucene merges them in the background
            List<Crystal> batch = new ArrayList<>(background("bob-" + round));
            batch.add(round % 7, note("s" + round, "alice", "Passphrase number " + round + " is " + token));
            store.add(batch);
            store.count("alice");
        }

        store.deleteScope("alice");

        assertThat(filesContaining(token)).isEmpty();
        assertThat(store.count("bob-23")).isEqualTo(10);
    }

    @Test
    void should_refuse_a_second_store_on_the_same_directory() {
        assertThatThrownBy(this::build)
                .isInstanceOf(WorkingMemoryStoreException.class)
                .hasMessageContaining("in use by another store");
        store.add(List.of(note("n", "alice", "still works")));
        assertThat(store.count("alice")).isEqualTo(1);
    }

    @Test
    void should_let_one_of_two_stores_opening_a_new_directory_at_once_have_it_and_refuse_the_other()
            throws Exception {
        // the directory was once deleted and re-created by a store finding no index, under another one's lock file
        for (int round = 0; round < 20; round++) {
            Path fresh = directory.resolve("fresh-" + round);
            CyclicBarrier start = new CyclicBarrier(2);
            Callable<EmbeddedCrystalStore> open = () -> {
                start.await();
                return EmbeddedCrystalStore.builder().directory(fresh).embeddingModel(TestEmbeddingModels.miniLm())
                        .build();
            };
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<EmbeddedCrystalStore>> opened = threads.invokeAll(List.of(open, open));
                List<EmbeddedCrystalStore> stores = new ArrayList<>();
                List<Throwable> refusals = new ArrayList<>();
                for (Future<EmbeddedCrystalStore> future : opened) {
                    try {
                        stores.add(future.get());
                    } catch (ExecutionException e) {
                        refusals.add(e.getCause());
                    }
                }
                assertThat(stores).as("round %d", round).hasSize(1);
                assertThat(refusals).singleElement().isInstanceOf(WorkingMemoryStoreException.class)
                        .satisfies(e -> assertThat(e).hasRootCauseInstanceOf(LockObtainFailedException.class));
                stores.get(0).add(List.of(note("n", "alice", "kept")));
                assertThat(stores.get(0).count("alice")).isEqualTo(1);
                stores.get(0).close();
            } finally {
                threads.shutdownNow();
            }
        }
    }

    @Test
    void should_name_its_indexer_thread() {
        assertThat(Thread.getAllStackTraces().keySet())
                .anyMatch(thread -> thread.getName().equals("working-memory-indexer") && thread.isDaemon());
    }

    private List<Path> filesContaining(String token) throws IOException {
        byte[] needle = token.getBytes(StandardCharsets.UTF_8);
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(directory, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attributes) {
                if (attributes.isRegularFile() && contains(file, needle)) {
                    found.add(file);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    return java.nio.file.FileVisitResult.CONTINUE; // a temporary file of a background merge, gone
                }
                throw e;
            }
        });
        return found;
    }

    private static boolean contains(Path file, byte[] needle) {
        try {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (java.nio.file.NoSuchFileException e) {
                return false; // a temporary file of a background merge, gone meanwhile
            }
            outer:
            for (int i = 0; i + needle.length <= bytes.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (bytes[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
            }
        }
    }
}
