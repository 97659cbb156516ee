package dev.workingmemory.turns;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.Await;
import dev.workingmemory.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A conversation that pauses (no message for {@code pauseAfter}, or its memory unloaded) has what its window holds made
 * into past-turn crystals, so that a chat too short to leave the window reaches the long-term memory.
 */
class PastTurnsPauseTest {

    private static final Duration PAUSE = Duration.ofMillis(100);
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final SettableClock clock = new SettableClock("2026-03-12T09:00:00Z");
    private final Handing crystals = new Handing(
            EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.hashing()).build());

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        crystals.close();
    }

    /** The crystal store, recording what is handed to it. */
    private static final class Handing implements CrystalStore {
        private final CrystalStore store;
        final List<Crystal> handed = new CopyOnWriteArrayList<>();

        Handing(CrystalStore store) {
            this.store = store;
        }

        @Override
        public void add(List<Crystal> crystals) {
            handed.addAll(crystals);
            store.add(crystals);
        }

        @Override
        public List<CrystalHit> search(CrystalQuery query) {
            return store.search(query);
        }

        @Override
        public Optional<Crystal> get(String id) {
            return store.get(id);
        }

        @Override
        public List<Crystal> recent(String scope, Instant after, int limit) {
            return store.recent(scope, after, limit);
        }

        @Override
        public int count(String scope) {
            return store.count(scope);
        }

        @Override
        public List<String> keywords(String crystalId, int max) {
            return store.keywords(crystalId, max);
        }

        @Override
        public void delete(String scope, Collection<String> ids) {
            store.delete(scope, ids);
        }

        @Override
        public void deleteScope(String scope) {
            store.deleteScope(scope);
        }

        @Override
        public int pendingCount() {
            return store.pendingCount();
        }

        @Override
        public void close() {
            store.close();
        }

        List<String> texts() {
            return handed.stream().map(Crystal::text).toList();
        }
    }

    private WorkingMemoryProvider.Builder builder() {
        return WorkingMemoryProvider.builder().clock(clock).crystalStore(crystals)
                .store(new FileWorkingMemoryStore(dir));
    }

    private static void sisterVisit(ChatMemory chat) {
        chat.add(UserMessage.from("My sister Lena arrives from Lisbon on the 14th, I pick her up at the airport."));
        chat.add(AiMessage.from("Noted: the 14th, at the airport."));
        chat.add(UserMessage.from("She is vegetarian, so plan dinner accordingly."));
        chat.add(AiMessage.from("Got it: a vegetarian dinner for Lena."));
    }

    private List<Crystal> stored(String scope) {
        return crystals.recent(scope, Instant.EPOCH, 100).stream()
                .sorted(Comparator.comparing(Crystal::time).thenComparing(Crystal::id)).toList();
    }

    @Test
    void should_make_a_short_conversation_searchable_from_another_thread_once_it_pauses() {
        try (WorkingMemoryProvider provider = builder().pauseAfter(PAUSE).build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            clock.advance(Duration.ofMinutes(1));

            Await.until("the paused conversation's crystals", WAIT, () -> crystals.handed.size() == 2);
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            List<MemoryHit> hits = provider.memory(MemoryKey.of("maya", "tuesday"))
                    .search("when does my sister arrive", 5);
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).text()).isEqualTo("""
                    user: My sister Lena arrives from Lisbon on the 14th, I pick her up at the airport.
                    assistant: Noted: the 14th, at the airport.""");
            assertThat(provider.memory(MemoryKey.of("ben", "monday")).search("when does my sister arrive", 5))
                    .isEmpty();
            // still in the window: the model sees the conversation as before
            assertThat(provider.get(MemoryKey.of("maya", "monday")).messages()).hasSize(4);
        }
    }

    @Test
    void should_leave_out_of_a_conversations_own_search_what_its_window_still_shows() {
        try (WorkingMemoryProvider provider = builder().maxMessages(4).pauseAfter(PAUSE).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            sisterVisit(chat);
            clock.advance(Duration.ofMinutes(1));
            Await.until("the paused conversation's crystals", WAIT, () -> crystals.handed.size() == 2);
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            String query = "when does my sister Lena arrive";
            assertThat(provider.memory(MemoryKey.of("maya", "tuesday")).search(query, 5)).hasSize(2);
            assertThat(provider.memory(MemoryKey.of("maya", "monday")).search(query, 5))
                    .as("both exchanges are in monday's window").isEmpty();

            chat.add(UserMessage.from("Also book a table for Friday."));     // the first exchange leaves
            assertThat(provider.memory(MemoryKey.of("maya", "monday")).search(query, 5)).extracting(MemoryHit::text)
                    .singleElement().asString().contains("arrives from Lisbon");

            chat.clear();
            assertThat(provider.memory(MemoryKey.of("maya", "monday")).search(query, 5)).hasSize(2);
        }
    }

    @Test
    void should_not_count_a_conversation_as_paused_while_its_clock_says_it_goes_on() throws InterruptedException {
        try (WorkingMemoryProvider provider = builder().pauseAfter(PAUSE).build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            clock.advance(PAUSE.dividedBy(2));

            Thread.sleep(PAUSE.multipliedBy(5).toMillis()); // several checks, each finding the pause too short
            assertThat(crystals.handed).isEmpty();

            clock.advance(PAUSE);
            Await.until("the paused conversation's crystals", WAIT, () -> crystals.handed.size() == 2);
        }
    }

    @Test
    void should_leave_the_same_crystals_as_eviction_alone_and_hand_over_only_what_changed_since_the_pause() {
        List<Crystal> paused;
        try (WorkingMemoryProvider provider = builder().maxMessages(4).pauseAfter(PAUSE).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            sisterVisit(chat);
            clock.advance(Duration.ofMinutes(1));
            Await.until("the paused conversation's crystals", WAIT, () -> crystals.handed.size() == 2);
            int atPause = crystals.handed.size();

            chat.add(UserMessage.from("Also book a table for Friday."));     // the first exchange leaves
            chat.add(AiMessage.from("A table for Friday, booked."));
            chat.add(UserMessage.from("Thanks, that is all."));              // the second leaves
            List<Crystal> atEviction = crystals.handed.subList(atPause, crystals.handed.size());

            // the first exchange is unchanged (its context was the second already); the second now has a context after it
            assertThat(atEviction).extracting(Crystal::text)
                    .containsExactly("user: She is vegetarian, so plan dinner accordingly.\n"
                            + "assistant: Got it: a vegetarian dinner for Lena.");
            assertThat(atEviction.get(0).context()).contains("Also book a table for Friday.");
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            paused = stored("maya");
        }
        crystals.handed.clear();
        crystals.deleteScope("maya");
        SettableClock again = new SettableClock("2026-03-12T09:00:00Z");
        try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().clock(again).crystalStore(crystals)
                .maxMessages(4).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday2"));
            sisterVisit(chat);
            again.advance(Duration.ofMinutes(1));
            chat.add(UserMessage.from("Also book a table for Friday."));
            chat.add(AiMessage.from("A table for Friday, booked."));
            chat.add(UserMessage.from("Thanks, that is all."));
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            // the same passages with the same contexts and times as without the pause (ids name the thread)
            assertThat(stored("maya")).extracting(Crystal::text, Crystal::context, Crystal::time)
                    .containsExactlyInAnyOrderElementsOf(paused.stream()
                            .map(crystal -> org.assertj.core.groups.Tuple.tuple(crystal.text(), crystal.context(),
                                    crystal.time()))
                            .toList());
        }
    }

    @Test
    void should_hand_over_the_window_when_the_memory_is_unloaded_and_not_again_after_a_restart() {
        try (WorkingMemoryProvider provider = builder().build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            assertThat(crystals.handed).isEmpty(); // ten minutes have not passed
        }
        assertThat(crystals.texts()).containsExactly(
                "user: My sister Lena arrives from Lisbon on the 14th, I pick her up at the airport.\n"
                        + "assistant: Noted: the 14th, at the airport.",
                "user: She is vegetarian, so plan dinner accordingly.\n"
                        + "assistant: Got it: a vegetarian dinner for Lena.");

        crystals.handed.clear();
        clock.advance(Duration.ofHours(1));
        try (WorkingMemoryProvider provider = builder().build()) {
            assertThat(provider.get(MemoryKey.of("maya", "monday")).messages()).hasSize(4);
        }
        assertThat(crystals.handed).as("the loaded window was handed over before the restart").isEmpty();

        try (WorkingMemoryProvider provider = builder().build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            chat.add(UserMessage.from("Which terminal does her flight land at?"));
            chat.add(AiMessage.from("Terminal 1."));
        }
        assertThat(crystals.texts()).containsExactly(
                "user: Which terminal does her flight land at?\nassistant: Terminal 1.");
    }

    @Test
    void should_hand_over_the_window_of_a_memory_the_cache_evicts() {
        try (WorkingMemoryProvider provider = builder().maxCachedMemories(1).build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            provider.get(MemoryKey.of("maya", "tuesday")).add(UserMessage.from("Hello again."));
            Await.until("the evicted memory's crystals", WAIT, () -> crystals.handed.size() == 2);
            assertThat(crystals.texts()).allMatch(text -> text.contains("Lena"));
        }
    }
}
