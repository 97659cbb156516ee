package dev.workingmemory.turns;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
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
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

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

    /** A provider on the same files asks one more exchange in maya's monday conversation, and closes. */
    private void askWhichTerminalAndClose() {
        try (WorkingMemoryProvider provider = builder().build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            chat.add(UserMessage.from("Which terminal does her flight land at?"));
            chat.add(AiMessage.from("Terminal 1."));
        }
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
        List<Crystal> atEviction = assertSameCrystalsWithAndWithoutPause(4, PastTurnsPauseTest::sisterVisit, chat -> {
            chat.add(UserMessage.from("Also book a table for Friday."));     // the first exchange leaves
            chat.add(AiMessage.from("A table for Friday, booked."));
            chat.add(UserMessage.from("Thanks, that is all."));              // the second leaves
        });

        // the first exchange is unchanged (its context was the second already); the second now has a context after it
        assertThat(atEviction).extracting(Crystal::text)
                .containsExactly("user: She is vegetarian, so plan dinner accordingly.\n"
                        + "assistant: Got it: a vegetarian dinner for Lena.");
        assertThat(atEviction.get(0).context()).contains("Also book a table for Friday.");
    }

    @Test
    void should_make_every_part_of_an_exchange_longer_than_one_whole_as_eviction_does() {
        List<Crystal> atEviction = assertSameCrystalsWithAndWithoutPause(20, chat -> {
            chat.add(UserMessage.from("Collect the logs of the eight services for the incident review."));
            for (int i = 0; i < 8; i++) {
                ToolExecutionRequest call = ToolExecutionRequest.builder().id("c" + i).name("fetchLog")
                        .arguments("{}").build();
                chat.add(AiMessage.from(call));
                StringBuilder log = new StringBuilder();
                for (int line = 0; log.length() < 3_800; line++) {
                    log.append("Service ").append(i).append(" line ").append(line)
                            .append(": request handled by worker ").append(line * 7 % 13).append(" in ")
                            .append(line * 31 % 97).append(" ms.\n");
                }
                chat.add(ToolExecutionResultMessage.from("c" + i, "fetchLog", log.toString()));
            }
            chat.add(AiMessage.from("All eight logs are collected."));
        }, chat -> {
            chat.add(UserMessage.from("Thanks."));
            chat.add(AiMessage.from("You are welcome."));
            chat.add(UserMessage.from("One more thing: archive them.")); // the 21st message: the long exchange leaves
        });

        assertThat(stored("maya")).extracting(Crystal::id).anyMatch(id -> id.matches("turn-[0-9a-f]{32}-1#\\d+"));
        // only the last part's last passage has a neighbour it did not have at the pause
        assertThat(atEviction).hasSize(1);
    }

    /**
     * Feeds {@code first}, pauses, feeds {@code then} (which makes what {@code first} said leave the window), and the
     * same without the pause in another thread: the stored crystals are the same passages with the same contexts and
     * times. Returns what the paused run handed over when {@code first}'s exchanges left the window.
     */
    private List<Crystal> assertSameCrystalsWithAndWithoutPause(int maxMessages, Consumer<ChatMemory> first,
                                                                Consumer<ChatMemory> then) {
        List<Crystal> paused;
        List<Crystal> atEviction;
        try (WorkingMemoryProvider provider = builder().maxMessages(maxMessages).pauseAfter(PAUSE).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            first.accept(chat);
            clock.advance(Duration.ofMinutes(1));
            Await.until("the paused conversation's crystals", WAIT, () -> !crystals.handed.isEmpty());
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            int atPause = crystals.handed.size();
            then.accept(chat);
            atEviction = List.copyOf(crystals.handed.subList(atPause, crystals.handed.size()));
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            paused = stored("maya");
        }
        crystals.deleteScope("maya");
        SettableClock again = new SettableClock("2026-03-12T09:00:00Z");
        try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().clock(again).crystalStore(crystals)
                .maxMessages(maxMessages).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday2"));
            first.accept(chat);
            again.advance(Duration.ofMinutes(1));
            then.accept(chat);
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            // ids name the thread
            assertThat(stored("maya")).extracting(Crystal::text, Crystal::context, Crystal::time)
                    .containsExactlyInAnyOrderElementsOf(paused.stream()
                            .map(crystal -> tuple(crystal.text(), crystal.context(), crystal.time())).toList());
        }
        return atEviction;
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
            Await.until("indexing", WAIT, () -> crystals.pendingCount() == 0);
            assertThat(provider.memory(MemoryKey.of("maya", "tuesday")).search("when does Lena arrive", 5)).hasSize(2);
            assertThat(provider.memory(MemoryKey.of("maya", "monday")).search("when does Lena arrive", 5))
                    .as("what its window shows, restarted before the next pause").isEmpty();
        }
        assertThat(crystals.handed).as("the loaded window was handed over before the restart").isEmpty();

        askWhichTerminalAndClose();
        assertThat(crystals.texts()).containsExactly(
                "user: Which terminal does her flight land at?\nassistant: Terminal 1.");
    }

    @Test
    void should_hand_over_after_a_restart_only_what_changed_since_the_pause_when_the_window_moves_on() {
        try (WorkingMemoryProvider provider = builder().maxMessages(4).build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
        }
        assertThat(crystals.handed).hasSize(2); // at close
        crystals.handed.clear();

        try (WorkingMemoryProvider provider = builder().maxMessages(4).build()) {
            ChatMemory chat = provider.get(MemoryKey.of("maya", "monday"));
            chat.add(UserMessage.from("Also book a table for Friday."));     // the first exchange leaves
            chat.add(AiMessage.from("A table for Friday, booked."));
            chat.add(UserMessage.from("Thanks, that is all."));              // the second leaves
            // the first is as the pause made it; the second has a neighbour after it now
            assertThat(crystals.texts()).containsExactly("user: She is vegetarian, so plan dinner accordingly.\n"
                    + "assistant: Got it: a vegetarian dinner for Lena.");
        }
    }

    @Test
    void should_hand_over_what_was_said_since_the_last_pause_though_the_clock_did_not_move() {
        try (WorkingMemoryProvider provider = builder().build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
        }
        crystals.handed.clear();

        askWhichTerminalAndClose(); // the same instant (or a clock set back)
        assertThat(crystals.texts()).containsExactly(
                "user: Which terminal does her flight land at?\nassistant: Terminal 1.");
    }

    @Test
    void should_hand_over_nothing_of_a_forgotten_user_at_a_later_pause_or_at_close() throws InterruptedException {
        try (WorkingMemoryProvider provider = builder().pauseAfter(PAUSE).build()) {
            sisterVisit(provider.get(MemoryKey.of("maya", "monday")));
            sisterVisit(provider.get(MemoryKey.of("ben", "monday")));
            provider.forget(MemoryKey.of("maya", "monday"));
            clock.advance(Duration.ofMinutes(1));

            Await.until("ben's paused conversation", WAIT, () -> crystals.handed.size() == 2);
            Thread.sleep(PAUSE.multipliedBy(3).toMillis()); // maya's check, queued before the forget, has run
        }
        assertThat(crystals.handed).extracting(Crystal::scope).containsOnly("ben");
        assertThat(crystals.count("maya")).isZero();
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
