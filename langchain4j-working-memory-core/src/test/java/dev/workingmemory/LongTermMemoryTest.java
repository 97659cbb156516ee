package dev.workingmemory;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.WordCountEstimator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The provider's long-term memory: its crystal store, notes and past turns as crystals, and WorkingMemory.search. */
class LongTermMemoryTest {

    private static final String DEADLINE = "Deadline for the API migration is March 20th";

    @TempDir
    Path dir;

    private WorkingMemoryProvider onFiles() {
        return WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
    }

    private static List<String> texts(List<MemoryHit> hits) {
        return hits.stream().map(MemoryHit::text).toList();
    }

    @Test
    void should_find_a_note_by_meaning_at_once_and_never_for_another_resource() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            memories.memory("alice").notes().note(DEADLINE, 0.8, List.of("decision"));

            List<MemoryHit> hits = memories.memory("alice").search("when is the migration due", 5);
            assertThat(hits).first().satisfies(hit -> {
                assertThat(hit.text()).isEqualTo(DEADLINE);
                assertThat(hit.kind()).isEqualTo(CrystalKind.NOTE);
                assertThat(hit.tokens()).isPositive();
            });
            assertThat(memories.memory(MemoryKey.of("alice", "other-thread")).search("migration due", 5))
                    .extracting(MemoryHit::text).contains(DEADLINE);
            assertThat(memories.memory("bob").search("when is the migration due", 5)).isEmpty();
        }
    }

    @Test
    void should_take_the_best_hits_that_fit_the_token_budget() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().tokenCountEstimator(new WordCountEstimator())
                .searchTokenBudget(12).build()) {
            WorkingMemory alice = memories.memory("alice");
            alice.notes().note("The staging database password rotation happens every Monday morning at nine", null, null);
            alice.notes().note("Database backups run nightly", null, null);
            alice.notes().note("The database is PostgreSQL 16", null, null);

            List<MemoryHit> hits = alice.search("database", 5);
            assertThat(hits.stream().mapToInt(MemoryHit::tokens).sum()).isLessThanOrEqualTo(12);
            assertThat(texts(hits)).containsExactlyInAnyOrder("Database backups run nightly", "The database is PostgreSQL 16");
            assertThat(hits).extracting(MemoryHit::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
            assertThat(alice.search("database", 1)).hasSize(1);
        }
    }

    static Stream<Arguments> badSearches() {
        return Stream.of(
                Arguments.of("", 5, "empty"),
                Arguments.of("   ", 5, "empty"),
                Arguments.of("x".repeat(1_001), 5, "over the limit of 1000 by 1"),
                Arguments.of("deadline", 0, "limit"),
                Arguments.of("deadline", 101, "limit"));
    }

    @ParameterizedTest
    @MethodSource("badSearches")
    void should_refuse_a_bad_search_saying_what_to_change(String query, int limit, String message) {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            assertThatThrownBy(() -> memories.memory("alice").search(query, limit))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
        }
    }

    static Stream<Arguments> contradictions() {
        EmbeddedCrystalStore own = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm()).build();
        return Stream.of(
                Arguments.of((Consumer<WorkingMemoryProvider.Builder>) b -> b.crystalStore(own).embeddingModel(TestEmbeddingModels.miniLm()), "embeddingModel"),
                Arguments.of((Consumer<WorkingMemoryProvider.Builder>) b -> b.crystalStore(own).embeddingStore(new InMemoryEmbeddingStore<>()), "embeddingStore"),
                Arguments.of((Consumer<WorkingMemoryProvider.Builder>) b -> b.withoutCrystals().crystalStore(own), "withoutCrystals() contradicts crystalStore"),
                Arguments.of((Consumer<WorkingMemoryProvider.Builder>) b -> b.withoutCrystals().pastTurns(true), "pastTurns(true)"));
    }

    @ParameterizedTest
    @MethodSource("contradictions")
    void should_refuse_contradictory_crystal_options_at_build(Consumer<WorkingMemoryProvider.Builder> options, String message) {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder();
        options.accept(builder);
        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class).hasMessageContaining(message);
    }

    @Test
    void should_search_nothing_without_crystals() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            memories.memory("alice").notes().note(DEADLINE, null, null);
            assertThat(memories.crystalStore()).isEmpty();
            assertThatThrownBy(() -> memories.memory("alice").search("deadline", 5))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("withoutCrystals()");
        }
    }

    @Test
    void should_never_close_the_applications_own_crystal_store() {
        try (EmbeddedCrystalStore own = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm()).build()) {
            WorkingMemoryProvider memories = WorkingMemoryProvider.builder().crystalStore(own).build();
            memories.memory("alice").notes().note(DEADLINE, null, null);
            memories.close();

            assertThat(own.count("alice")).isEqualTo(1);
        }
    }

    @Test
    void should_keep_the_vectors_in_the_applications_embedding_store() {
        InMemoryEmbeddingStore<TextSegment> vectors = new InMemoryEmbeddingStore<>();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().embeddingStore(vectors).build()) {
            memories.memory("alice").notes().note(DEADLINE, null, null);

            assertThat(texts(memories.memory("alice").search("when is the migration due", 5))).containsExactly(DEADLINE);
            assertThat(vectors.search(dev.langchain4j.store.embedding.EmbeddingSearchRequest.builder()
                    .queryEmbedding(TestEmbeddingModels.miniLm().embed("migration deadline").content()).maxResults(5)
                    .build()).matches()).hasSize(1);
        }
    }

    @Test
    void should_report_each_search_to_the_listeners() {
        List<dev.workingmemory.event.SearchRun> runs = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .listener(new dev.workingmemory.event.WorkingMemoryListener() {
                    @Override
                    public void onSearchRun(dev.workingmemory.event.SearchRun event) {
                        runs.add(event);
                    }
                }).build()) {
            memories.memory("alice").notes().note(DEADLINE, null, null);
            memories.memory("alice").search("  migration deadline ", 5);

            assertThat(runs).singleElement().satisfies(run -> {
                assertThat(run.scope()).isEqualTo("alice");
                assertThat(run.query()).isEqualTo("migration deadline");
                assertThat(run.hits()).isEqualTo(1);
                assertThat(run.time()).isPositive();
            });
        }
    }

    @Test
    void should_keep_the_crystals_beside_the_file_store_and_find_them_after_a_restart() {
        WorkingMemoryProvider first = onFiles();
        first.memory("alice").notes().note(DEADLINE, null, null);
        ChatMemory chat = first.get("alice");
        chat.add(UserMessage.from("My sister Zelda lives in Reykjavik."));
        chat.add(AiMessage.from("Noted."));
        for (int i = 0; i < 15; i++) {
            chat.add(UserMessage.from("filler question " + i));
            chat.add(AiMessage.from("filler answer " + i));
        }
        first.close();

        assertThat(dir.resolve(".crystals")).isDirectory();
        assertThat(new FileWorkingMemoryStore(dir).keys()).doesNotContain(".crystals");
        try (WorkingMemoryProvider second = onFiles()) {
            assertThat(texts(second.memory("alice").search("when is the migration due", 5))).contains(DEADLINE);
            assertThat(texts(second.memory("alice").search("Where does the sister live?", 3)))
                    .anyMatch(text -> text.contains("Zelda lives in Reykjavik"));
        }
    }

    @Test
    void should_share_the_crystals_of_one_root_between_providers_of_one_jvm_until_the_last_closes() {
        WorkingMemoryProvider first = onFiles();
        WorkingMemoryProvider second = onFiles();
        // straight into the first one's crystal store, past the notes log that the second would index by itself
        first.crystalStore().orElseThrow().add(List.of(CrystalStoreContract.note("shared", "alice", "Only in crystals")));
        assertThat(second.crystalStore().orElseThrow().get("shared")).isPresent();

        first.memory("alice").notes().note(DEADLINE, null, null);
        assertThat(texts(second.memory("alice").search("migration deadline", 5))).contains(DEADLINE);
        first.close();
        assertThat(texts(second.memory("alice").search("migration deadline", 5))).contains(DEADLINE);
        second.close();

        try (WorkingMemoryProvider third = onFiles()) { // the directory was released with the last provider
            assertThat(texts(third.memory("alice").search("migration deadline", 5))).contains(DEADLINE);
        }
    }

    @Test
    void should_refuse_to_share_a_root_with_another_embedding_model() {
        try (WorkingMemoryProvider first = onFiles()) {
            WorkingMemoryProvider.Builder second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                    .embeddingModel(TestEmbeddingModels.miniLm());
            assertThatThrownBy(second::build).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("another embedding model");
            assertThat(first.memory("alice").search("anything", 5)).isEmpty();
        }
    }

    @Test
    void should_keep_crystals_in_memory_when_another_process_holds_the_directory() {
        try (EmbeddedCrystalStore elsewhere = EmbeddedCrystalStore.builder().directory(dir.resolve(".crystals"))
                .embeddingModel(TestEmbeddingModels.miniLm()).build();
             WorkingMemoryProvider memories = onFiles()) {
            memories.memory("alice").notes().note(DEADLINE, null, null);

            assertThat(texts(memories.memory("alice").search("migration deadline", 5))).contains(DEADLINE);
            assertThat(elsewhere.count("alice")).isZero();
        }
    }

    @Test
    void should_keep_a_key_named_like_the_crystal_directory_apart_from_it() {
        try (WorkingMemoryProvider memories = onFiles()) {
            memories.memory(".crystals").notes().note(DEADLINE, null, null);

            assertThat(new FileWorkingMemoryStore(dir).keys()).contains(MemoryKey.of(".crystals").resourceStoreKey());
            assertThat(dir.resolve(".crystals").resolve("index")).isDirectory();
            assertThat(texts(memories.memory(".crystals").search("migration deadline", 5))).contains(DEADLINE);
        }
    }

    @Test
    void should_forget_a_resource_in_every_thread_and_refuse_a_memory_still_held() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).build()) {
            WorkingMemory held = memories.memory(MemoryKey.of("alice", "t1"));
            held.notes().note(DEADLINE, null, null);
            ChatMemory chat = memories.get(MemoryKey.of("alice", "t2"));
            chat.add(UserMessage.from("The migration needs a rollback plan."));
            chat.add(AiMessage.from("Noted."));
            chat.add(UserMessage.from("Next question."));
            memories.memory("bob").notes().note("Bob's own migration note", null, null);

            memories.forget("alice");

            assertThatThrownBy(() -> held.search("migration", 5)).isInstanceOf(IllegalStateException.class);
            assertThat(memories.memory(MemoryKey.of("alice", "t3")).search("migration", 20)).isEmpty();
            assertThat(memories.get(MemoryKey.of("alice", "t2")).messages()).isEmpty();
            assertThat(memories.memory("alice").notes().notes()).isEmpty();
            assertThat(texts(memories.memory("bob").search("migration", 5))).containsExactly("Bob's own migration note");
        }
    }

    @Test
    void should_index_a_note_found_in_the_log_without_its_crystal() throws Exception {
        try (WorkingMemoryProvider first = onFiles()) {
            first.memory("alice").notes().note("first note", null, null);
        }
        // a note appended by a process that stopped before its crystal was recorded
        try (Stream<Path> files = Files.walk(dir)) {
            Path scratch = files.filter(p -> p.getFileName().toString().equals("scratch.md")).findFirst().orElseThrow();
            Files.writeString(scratch, "- [2026-03-12T14:30:00Z] (importance: 0.8) " + DEADLINE + "\n",
                    StandardOpenOption.APPEND);
        }

        try (WorkingMemoryProvider second = onFiles()) {
            assertThat(texts(second.memory("alice").search("when is the migration due", 5))).contains(DEADLINE);
        }
    }

    @Test
    void should_archive_notes_as_searchable_crystals_and_delete_them_at_the_hard_limit() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .notes(dev.workingmemory.notes.NotesConfig.builder().softLimit(4).hardLimit(6).batchSize(2).build())
                .build()) {
            WorkingMemory alice = memories.memory("alice");
            for (int i = 0; i < 4; i++) {
                alice.notes().note("project codename number " + i, null, i < 2 ? List.of() : List.of("decision"));
            }
            List<MemoryHit> archived = alice.search("project codename number 0", 10);
            assertThat(archived).filteredOn(hit -> hit.text().equals("project codename number 0"))
                    .extracting(MemoryHit::kind).containsExactly(CrystalKind.ARCHIVED_NOTE);

            for (int i = 4; i < 8; i++) {
                alice.notes().note("project codename number " + i, null, List.of("decision"));
            }
            // at the hard limit the oldest notes left in the log (2 and 3, protected or not) were deleted
            assertThat(texts(alice.search("project codename number", 20)))
                    .doesNotContain("project codename number 2", "project codename number 3")
                    .contains("project codename number 0", "project codename number 4");
        }
    }

    @Test
    void should_show_a_long_notes_piece_as_its_window_within_a_small_budget_and_read_it_whole_by_its_id() {
        String filler = "The team met in the large room and went through the open tickets one by one. ";
        String note = filler.repeat(6) + "The security audit ends on June 14th and blocks the release. "
                + filler.repeat(6);
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().searchTokenBudget(60).build()) {
            WorkingMemory alice = memories.memory("alice");
            alice.notes().note(note, 0.7, List.of("meeting"));

            List<MemoryHit> hits = alice.search("security audit June", 1);

            MemoryHit hit = hits.get(0);
            assertThat(hits).hasSize(1);
            assertThat(hit.text()).contains("security audit ends on June 14th").contains("…");
            assertThat(hit.tokens()).isLessThanOrEqualTo(60);
            List<String> pieces = alice.read(hit.id(), 0, 10).stream().map(Crystal::text).toList();
            assertThat(pieces).hasSizeGreaterThan(2).allMatch(piece -> note.strip().contains(piece))
                    .anyMatch(piece -> piece.contains(hit.text().replace("…", "")));
        }
    }

    @Test
    void should_not_wait_for_embedding_when_a_message_leaves_the_window() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        EmbeddingModel blocked = new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return TestEmbeddingModels.miniLm().embedAll(segments);
            }
        };
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).embeddingModel(blocked).build()) {
            ChatMemory chat = memories.get("alice");
            long start = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                chat.add(UserMessage.from("question " + i + " about zebras"));
                chat.add(AiMessage.from("answer " + i));
            }
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(10);
            release.countDown();

            assertThat(texts(memories.memory("alice").search("question 3 about zebras", 5)))
                    .anyMatch(text -> text.contains("question 3 about zebras"));
        }
    }

    @Test
    void should_find_first_what_was_said_on_the_day_a_question_names() {
        dev.workingmemory.testing.SettableClock clock = new dev.workingmemory.testing.SettableClock("2022-05-20T18:00:00Z");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().clock(clock).maxMessages(2).build()) {
            ChatMemory chat = memories.get("joanna");
            String[][] days = {
                    {"2022-05-20", "Nate, what did you do for your friends this week?", "I cooked coconut ice cream for my friends."},
                    {"2022-05-23", "Did you do anything nice for Joanna lately?", "I helped Joanna move her screenplay boxes."},
                    {"2022-05-25", "What's in the basket?", "Looky here, I got this new pup for you!"},
                    {"2022-05-28", "How was the weekend with Joanna?", "I did a movie night for Joanna and the gang."},
                    {"2022-05-31", "Anything new?", "Just gaming all week."}};
            for (String[] day : days) {
                clock.set(day[0] + "T18:00:00Z");
                chat.add(UserMessage.from(day[1]));
                chat.add(AiMessage.from(day[2]));
            }
            WorkingMemory memory = memories.memory("joanna");

            assertThat(texts(memory.search("What did Nate do for Joanna on 25 May, 2022?", 1))).singleElement()
                    .asString().contains("Looky here, I got this new pup for you!");
            assertThat(texts(memory.search("What did Nate do for Joanna?", 1))).as("by the text alone")
                    .singleElement().asString().doesNotContain("pup");
            clock.set("2022-05-26T09:00:00Z");
            assertThat(texts(memory.search("What did Nate do for Joanna yesterday?", 1))).singleElement()
                    .asString().contains("Looky here, I got this new pup for you!");
        }
    }
}
