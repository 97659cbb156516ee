package dev.workingmemory.turns;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.Await;
import dev.workingmemory.testing.ChildJvm;
import dev.workingmemory.testing.SettableClock;
import dev.workingmemory.testing.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A conversation going on when its process stopped without closing the provider (killed) reaches the long-term memory
 * the next time a provider loads a memory of its user: the first message after a pause marks the thread in the store,
 * the pause unmarks it, and a load of the user tells the pause of each thread left marked.
 */
class PausesLeftByAStoppedProcessTest {

    private static final Duration PAUSE = Duration.ofMillis(100);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String QUESTION = "when does my sister Lena arrive from Lisbon";

    @TempDir
    Path dir;

    /** The child JVM: maya's monday conversation on the file store in {@code args[0]}, then waits to be killed. */
    public static final class KilledConversation {

        public static void main(String[] args) throws IOException {
            WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                    .store(new FileWorkingMemoryStore(Path.of(args[0])))
                    .embeddingModel(TestEmbeddingModels.hashing())
                    .build();
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            System.out.println("added");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine(); // until killed
        }
    }

    static void sisterVisit(ChatMemory chat) {
        chat.add(UserMessage.from("My sister Lena arrives from Lisbon on the 14th, I pick her up at the airport."));
        chat.add(AiMessage.from("Noted: the 14th, at the airport."));
        chat.add(UserMessage.from("She is vegetarian, so plan dinner accordingly."));
        chat.add(AiMessage.from("Got it: a vegetarian dinner for Lena."));
    }

    private static List<String> marks(WorkingMemoryStore store, String user) {
        return store.documents(MemoryKey.of(user).resourceStoreKey()).stream().map(StoredDocument::name)
                .filter(name -> name.startsWith("unpaused-")).toList();
    }

    private static List<MemoryHit> search(WorkingMemoryProvider provider, MemoryKey from) {
        return provider.memory(from).search(QUESTION, 5);
    }

    @Test
    void should_make_the_conversation_of_a_killed_process_searchable_when_its_user_is_loaded_again() throws Exception {
        try (ChildJvm child = ChildJvm.start(KilledConversation.class, dir.toString())) {
            child.awaitLine("added"::equals, WAIT);
            child.kill();
        }
        assertThat(marks(new FileWorkingMemoryStore(dir), "maya")).hasSize(1);

        try (WorkingMemoryProvider restarted = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir))
                .embeddingModel(TestEmbeddingModels.hashing())
                .pauseAfter(PAUSE)
                .build()) {
            MemoryKey tuesday = MemoryKey.of("maya", "tuesday");
            restarted.memory(tuesday); // maya is loaded: monday, left marked, is told of its pause behind the load
            Await.until("monday's exchanges found from tuesday", WAIT, () -> search(restarted, tuesday).size() == 2);

            assertThat(search(restarted, tuesday).get(0).text()).contains("arrives from Lisbon on the 14th");
            assertThat(search(restarted, MemoryKey.of("ben", "monday"))).isEmpty();
            // the pause unmarks monday once its layers took it: what they made is found a moment before
            Await.until("monday's mark removed at its pause", WAIT,
                    () -> marks(new FileWorkingMemoryStore(dir), "maya").isEmpty());
            assertThat(restarted.get(MemoryKey.of("maya", "monday")).messages()).hasSize(4);
        }
    }

    @Test
    void should_mark_a_thread_at_its_first_message_after_a_pause_and_unmark_it_at_the_pause() {
        SettableClock clock = new SettableClock("2026-03-12T09:00:00Z");
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (EmbeddedCrystalStore crystals = EmbeddedCrystalStore.builder()
                .embeddingModel(TestEmbeddingModels.hashing()).build();
             WorkingMemoryProvider provider = WorkingMemoryProvider.builder().store(store).crystalStore(crystals)
                     .clock(clock).pauseAfter(PAUSE).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            assertThat(marks(store, "maya")).isEmpty();

            sisterVisit(chat);
            assertThat(marks(store, "maya")).hasSize(1);
            assertThat(provider.threadsAwaitingPause("maya")).containsExactly("monday");
            assertThat(provider.threadsAwaitingPause("ben")).isEmpty();

            clock.advance(Duration.ofMinutes(1));
            Await.until("the mark removed at the pause", WAIT, () -> marks(store, "maya").isEmpty());
            assertThat(provider.threadsAwaitingPause("maya")).isEmpty();
            assertThat(search(provider, MemoryKey.of("maya", "tuesday"))).hasSize(2);

            chat.add(UserMessage.from("Which terminal does her flight land at?"));
            assertThat(marks(store, "maya")).hasSize(1);
        }
        assertThat(marks(store, "maya")).as("closing the provider is a pause").isEmpty();
    }

    @Test
    void should_mark_nothing_when_no_layer_takes_pauses() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        for (WorkingMemoryProvider.Builder builder : List.of(WorkingMemoryProvider.builder().withoutCrystals(),
                WorkingMemoryProvider.builder().embeddingModel(TestEmbeddingModels.hashing()).pastTurns(false))) {
            try (WorkingMemoryProvider provider = builder.store(store).build()) {
                sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
                assertThat(marks(store, "maya")).isEmpty();
            }
        }
    }

    @Test
    void should_unmark_a_thread_that_is_deleted() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().store(store)
                .embeddingModel(TestEmbeddingModels.hashing()).build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            sisterVisit(provider.get(MemoryKey.of("maya", "tuesday")));
            assertThat(marks(store, "maya")).hasSize(2);

            provider.delete(MemoryKey.of("maya", "monday"));
            assertThat(marks(store, "maya")).hasSize(1);
        }
    }

    @Test
    void should_remove_a_mark_left_of_a_thread_deleted_since() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        String maya = MemoryKey.of("maya").resourceStoreKey();
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().store(store)
                .embeddingModel(TestEmbeddingModels.hashing());
        try (WorkingMemoryProvider killed = builder.build()) {
            killed.get(MemoryKey.of("maya", "monday")).add(UserMessage.from("Hello?"));
            String name = marks(store, "maya").get(0);
            String mark = store.getDocument(maya, name).orElseThrow();
            killed.delete(MemoryKey.of("maya", "monday"));
            // as a process killed while another instance deleted the thread would leave it
            store.putDocument(maya, name, mark);
        }
        store.putDocument(maya, "unpaused-" + "0".repeat(32), "{}");
        assertThat(marks(store, "maya")).hasSize(2);

        try (WorkingMemoryProvider restarted = builder.build()) {
            restarted.memory(MemoryKey.of("maya", "tuesday"));
            Await.until("the mark of the deleted thread removed", WAIT, () -> marks(store, "maya").size() == 1);
            assertThat(marks(store, "maya")).as("an unreadable mark is left alone")
                    .containsExactly("unpaused-" + "0".repeat(32));
            assertThat(restarted.get(MemoryKey.of("maya", "monday")).messages()).isEmpty();
        }
    }

    @Test
    void should_leave_a_conversation_going_on_elsewhere_to_its_pause() throws InterruptedException {
        TestStore store = new TestStore();
        SettableClock stopped = new SettableClock("2026-03-12T09:00:00Z"); // never quiet: never pauses
        SettableClock clock = new SettableClock("2026-03-12T09:00:00Z");
        try (EmbeddedCrystalStore crystals = EmbeddedCrystalStore.builder()
                .embeddingModel(TestEmbeddingModels.hashing()).build();
             WorkingMemoryProvider elsewhere = WorkingMemoryProvider.builder().store(store).crystalStore(crystals)
                     .clock(stopped).pauseAfter(Duration.ofSeconds(2)).build();
             WorkingMemoryProvider here = WorkingMemoryProvider.builder().store(store).crystalStore(crystals)
                     .clock(clock).pauseAfter(PAUSE).build()) {
            sisterVisit(elsewhere.get(MemoryKey.of("maya", "monday")));
            List<String> marked = marks(store, "maya");
            assertThat(marked).hasSize(1);

            MemoryKey tuesday = MemoryKey.of("maya", "tuesday");
            here.memory(tuesday);
            Await.until("monday loaded by the load's sweep", WAIT,
                    () -> here.loadedMemory(MemoryKey.of("maya", "monday")).isPresent());
            Thread.sleep(PAUSE.multipliedBy(5).toMillis()); // several of its checks: it is not quiet
            assertThat(crystals.pendingCount()).isZero();
            assertThat(search(here, tuesday)).as("monday goes on: no pause yet").isEmpty();

            clock.advance(Duration.ofMinutes(1));
            Await.until("monday's exchanges found once it is quiet", WAIT, () -> search(here, tuesday).size() == 2);
            // the pause took every mark of monday, the other provider's too; that provider, which goes on adding to
            // it, marks it again at its next check (every two seconds: it finds monday going on), so the store may
            // hold no mark for a moment only: the removal is what is awaited
            String maya = MemoryKey.of("maya").resourceStoreKey();
            Await.until("monday's mark taken by the pause", WAIT,
                    () -> store.deletedDocuments.contains(new TestStore.Document(maya, marked.get(0))));
            Await.until("monday marked again by the provider it goes on in", WAIT,
                    () -> marks(store, "maya").equals(marked));
        }
    }

    @Test
    void should_tell_a_pause_left_behind_when_a_conversation_of_a_user_kept_loaded_pauses()
            throws InterruptedException {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        SettableClock stopped = new SettableClock("2026-03-12T09:00:00Z");
        SettableClock clock = new SettableClock("2026-03-12T09:00:00Z");
        try (EmbeddedCrystalStore crystals = EmbeddedCrystalStore.builder()
                .embeddingModel(TestEmbeddingModels.hashing()).build();
             WorkingMemoryProvider alive = WorkingMemoryProvider.builder().store(store).crystalStore(crystals)
                     .clock(clock).pauseAfter(PAUSE).build();
             // its clock stopped and its check an hour away: it neither pauses nor marks again, as if killed
             WorkingMemoryProvider killed = WorkingMemoryProvider.builder().store(store).crystalStore(crystals)
                     .clock(stopped).pauseAfter(Duration.ofHours(1)).build()) {
            MemoryKey tuesday = MemoryKey.of("maya", "tuesday");
            ChatMemory kept = alive.get(tuesday);
            kept.add(UserMessage.from("Remind me to water the plants."));     // maya's state loaded: nothing marked
            kept.add(AiMessage.from("I will remind you."));
            Thread.sleep(500);                                  // the load's sweep ran on the idle saver thread
            sisterVisit(killed.get(MemoryKey.of("maya", "monday")));        // marked after that sweep

            clock.advance(Duration.ofMinutes(1));                           // tuesday pauses; maya stays loaded
            Await.until("monday's exchanges found from tuesday", WAIT, () -> search(alive, tuesday).size() == 2);
            assertThat(search(alive, tuesday)).extracting(MemoryHit::text)
                    .allMatch(text -> text.contains("Lena") || text.contains("vegetarian"));
        }
    }

    @Test
    void should_tell_the_pause_left_of_a_thread_kept_by_an_applications_chat_memory_store_by_its_string_id() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        InMemoryChatMemoryStore messages = new InMemoryChatMemoryStore();
        SettableClock stopped = new SettableClock("2026-03-12T09:00:00Z");
        SettableClock clock = new SettableClock("2026-03-12T10:00:00Z");
        try (EmbeddedCrystalStore crystals = EmbeddedCrystalStore.builder()
                .embeddingModel(TestEmbeddingModels.hashing()).build()) {
            WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().store(store).chatMemoryStore(messages)
                    .crystalStore(crystals).pauseAfter(PAUSE)
                    .memoryKeyMapper(id -> MemoryKey.of(id.toString().split("/")[0], id.toString().split("/")[1]));
            // its clock stopped and its check an hour away: it neither pauses nor marks again, as if killed
            try (WorkingMemoryProvider killed = builder.clock(stopped).pauseAfter(Duration.ofHours(1)).build();
                 WorkingMemoryProvider restarted = builder.clock(clock).pauseAfter(PAUSE).build()) {
                sisterVisit(killed.get("maya/monday"));

                restarted.memory("maya/tuesday");
                Await.until("monday loaded by the sweep", WAIT, () -> restarted.loadedMemory("maya/monday").isPresent());
                // a ChatMemoryStore keeps no times: the messages loaded count as said at the load, so a pause after it
                clock.advance(Duration.ofMinutes(1));
                Await.until("monday's exchanges found from tuesday", WAIT,
                        () -> restarted.memory("maya/tuesday").search(QUESTION, 5).size() == 2);
                assertThat(restarted.memory("maya/monday").memoryId()).isEqualTo("maya/monday");
                // the pause unmarks monday once its layers took it: what they made is found a moment before
                Await.until("monday's mark removed at its pause", WAIT, () -> marks(store, "maya").isEmpty());
            }
        }
    }
}
