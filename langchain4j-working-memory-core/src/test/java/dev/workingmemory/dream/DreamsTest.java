package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.event.DreamFinished;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.notes.Note;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.slots.SessionSlotsConfig;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Dreams through the provider: issue 13's "Done when" 1, 3, 4 and 6, and rollback. */
class DreamsTest {

    private static final List<String> FACTS = List.of(
            "User's name is Douglas and he prefers tabs over spaces",
            "Project deadline is March 20th for the API migration",
            "User loves hiking with his daughter on weekends",
            "The team deploys with GitHub Actions to Kubernetes",
            "Decided to keep PostgreSQL as the event store",
            "Still unclear which logging stack production uses?");

    private static DreamConfig.Builder config() {
        return DreamConfig.builder().scheduled(false);
    }

    private static WorkingMemoryProvider provider(WorkingMemoryStore store, ChatModel model, DreamConfig config) {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().store(store).dreams(config);
        if (model != null) {
            builder.dreamModel(model);
        }
        return builder.build();
    }

    private static void note(WorkingMemoryProvider memories, String user, String... texts) {
        for (String text : texts) {
            memories.memory(user).notes().note(text, 0.8, null);
        }
    }

    @Test
    void should_commit_an_offline_state_with_every_section_from_six_notes(@TempDir Path root) throws IOException {
        try (WorkingMemoryProvider memories = provider(new FileWorkingMemoryStore(root), null, config().build())) {
            note(memories, "douglas", FACTS.toArray(String[]::new));
            assertThat(memories.memory("douglas").render()).contains("<unsynthesized_notes>").doesNotContain("<state");

            DreamReport report = memories.dream("douglas");

            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(report.notesConsumed()).isEqualTo(6);
            assertThat(report.guardChecks()).extracting(GuardCheck::guard).containsExactly(DreamGuard.values());
            assertThat(report.guardChecks()).allMatch(GuardCheck::passed);
            assertThat(report.passedGuards()).containsExactly(DreamGuard.values());
            assertThat(report.summary()).contains("guards: 5 of 5 passed", "MISSING_SECTION passed: all 7 sections present");
            StateDocument state = memories.memory("douglas").layer(StateLayer.class).orElseThrow().document().orElseThrow();
            assertThat(state.missingSections()).isEmpty();
            assertThat(state.sections()).hasSize(7);
            for (String fact : FACTS) {
                assertThat(state.render()).contains(fact.replace("?", ""));
            }
            String block = memories.memory("douglas").render();
            assertThat(block).startsWith("<working_memory>\n<state updated=\"").contains("## The Bond")
                    .doesNotContain("<unsynthesized_notes>");
            assertThat(memories.memory("douglas").notes().notes()).isEmpty();
            try (Stream<Path> files = Files.walk(root)) {
                Path memoryMd = files.filter(file -> file.getFileName().toString().equals("MEMORY.md")).findFirst()
                        .orElseThrow();
                assertThat(Files.readString(memoryMd)).startsWith("# Working Memory State").contains(FACTS.get(0));
            }
        }
    }

    @Test
    void should_report_nothing_to_dream_without_notes() {
        try (WorkingMemoryProvider memories = provider(new InMemoryWorkingMemoryStore(), null, config().build())) {
            DreamReport report = memories.dream("nobody");

            assertThat(report.committed()).isFalse();
            assertThat(report.reason()).contains("Nothing new");
        }
    }

    /** A valid state of about 3,000 characters: every section holds several fact lines. */
    private static String matureState() {
        return States.full(8).render();
    }

    static Stream<Arguments> garbage() {
        List<String> pointers = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            pointers.add(new CrystalPointer("topic " + i, "keyword" + i).line());
        }
        String runaway = States.full(8).withSection(StateSchema.CRYSTAL_POINTERS, String.join("\n", pointers)).render();
        String missing = States.full(8).render().replaceAll("(?s)## The Niche.*?(?=## Active Context)", "");
        String small = States.full(2).render();
        Supplier<AiMessage> fails = () -> {
            throw new IllegalStateException("model down");
        };
        Supplier<AiMessage> hangs = () -> {
            try {
                Thread.sleep(30_000); // interrupted when the dream gives up on it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return AiMessage.from(matureState());
        };
        return Stream.of(
                Arguments.of("empty", answer(""), "MISSING_SECTION"),
                Arguments.of("lol", answer("lol"), "MISSING_SECTION"),
                Arguments.of("30% of a mature state", answer(small), "MASS_DROP"),
                Arguments.of("25 pointers", answer(runaway), "POINTER_RUNAWAY"),
                Arguments.of("a missing section", answer(missing), "MISSING_SECTION"),
                Arguments.of("an exception", fails, "failed: java.lang.IllegalStateException: model down"),
                Arguments.of("a timeout", hangs, "timed out"));
    }

    private static Supplier<AiMessage> answer(String text) {
        return () -> AiMessage.from(text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("garbage")
    void should_change_nothing_on_a_garbage_synthesis_and_name_the_guard(String name, Supplier<AiMessage> garbage,
                                                                         String expected) {
        AtomicReference<Supplier<AiMessage>> next = new AtomicReference<>(() -> AiMessage.from(matureState()));
        ScriptedChatModel model = ScriptedChatModel.answering(request -> next.get().get());
        DreamConfig config = config().timeout(Duration.ofSeconds(2)).leaseTtl(Duration.ofSeconds(30)).build();
        try (WorkingMemoryProvider memories = provider(new InMemoryWorkingMemoryStore(), model, config)) {
            note(memories, "u", "User's name is Douglas");
            DreamReport first = memories.dream("u");
            assertThat(first.committed()).isTrue();
            assertThat(first.guardChecks()).hasSize(DreamGuard.values().length).allMatch(GuardCheck::passed);
            note(memories, "u", "Deadline is March 20th", "Prefers tabs");
            String before = memories.dreamEngine().state("u").orElseThrow();
            List<Note> pending = memories.memory("u").notes().notes();
            assertThat(before.length()).isGreaterThan(2_000);

            next.set(garbage);
            DreamReport report = memories.dream("u");

            assertThat(report.committed()).isFalse();
            if (expected.equals(expected.toUpperCase())) {
                assertThat(report.failedGuard()).contains(DreamGuard.valueOf(expected));
                assertThat(report.reason()).startsWith("Rejected: ");
                // the guards before the failing one passed, the failing one is last, and none ran after it
                List<GuardCheck> checks = report.guardChecks();
                assertThat(checks).extracting(GuardCheck::guard).containsExactly(
                        List.of(DreamGuard.values()).subList(0, DreamGuard.valueOf(expected).ordinal() + 1)
                                .toArray(DreamGuard[]::new));
                assertThat(checks.subList(0, checks.size() - 1)).allMatch(GuardCheck::passed);
                assertThat(checks.get(checks.size() - 1).passed()).isFalse();
                assertThat(report.reason()).isEqualTo("Rejected: " + checks.get(checks.size() - 1).detail());
                assertThat(report.summary()).contains("rejected by " + expected, expected + " FAILED: ");
            } else {
                assertThat(report.failedGuard()).isEmpty();
                assertThat(report.guardChecks()).isEmpty();
                assertThat(report.summary()).contains("guards: none ran");
                assertThat(report.reason()).contains(expected);
            }
            assertThat(memories.dreamEngine().state("u")).contains(before);
            assertThat(memories.memory("u").notes().notes()).isEqualTo(pending);
            assertThat(memories.dreamEngine().history("u")).hasSize(1);
        }
    }

    @Test
    void should_keep_a_note_taken_while_the_model_answers() {
        AtomicReference<WorkingMemoryProvider> provider = new AtomicReference<>();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            // the dream has read the log; this note comes after it
            provider.get().memory("u").notes().note("Late fact: the demo moved to Friday", 0.9, null);
            return AiMessage.from(LlmDreamSynthesizerTest.ANSWER);
        });
        try (WorkingMemoryProvider memories = provider(new InMemoryWorkingMemoryStore(), model, config().build())) {
            provider.set(memories);
            note(memories, "u", "User's name is Douglas, prefers tabs over spaces", "API migration due March 20th");

            DreamReport report = memories.dream("u");

            assertThat(report.committed()).as(report.toString()).isTrue();
            assertThat(report.notesConsumed()).isEqualTo(2);
            assertThat(memories.memory("u").notes().notes()).extracting(Note::text)
                    .containsExactly("Late fact: the demo moved to Friday");
            WorkingMemory memory = memories.memory("u");
            assertThat(memory.render()).contains("<state updated=\"", "Late fact: the demo moved to Friday",
                    "Douglas");
        }
    }

    @Test
    void should_run_one_dream_of_a_user_when_two_providers_on_one_store_dream_at_once() throws Exception {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        CountDownLatch answering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedChatModel first = ScriptedChatModel.answering(request -> {
            answering.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return AiMessage.from(LlmDreamSynthesizerTest.ANSWER);
        });
        ScriptedChatModel second = ScriptedChatModel.answering(request -> AiMessage.from(LlmDreamSynthesizerTest.ANSWER));
        try (WorkingMemoryProvider a = provider(store, first, config().build());
             WorkingMemoryProvider b = provider(store, second, config().build())) {
            note(a, "u", "User's name is Douglas, prefers tabs over spaces", "API migration due March 20th");

            CompletableFuture<DreamReport> dreamA = CompletableFuture.supplyAsync(() -> a.dream("u"));
            assertThat(answering.await(10, TimeUnit.SECONDS)).isTrue();
            DreamReport reportB = b.dream("u");
            release.countDown();
            DreamReport reportA = dreamA.get(10, TimeUnit.SECONDS);

            assertThat(reportA.committed()).as(reportA.toString()).isTrue();
            assertThat(reportB.committed()).isFalse();
            assertThat(reportB.reason()).contains("Another dream");
            assertThat(second.requests()).isEmpty();
            assertThat(b.dreamEngine().history("u")).hasSize(1);
        }
    }

    @Test
    void should_roll_back_the_last_dream_with_its_notes() {
        try (WorkingMemoryProvider memories = provider(new InMemoryWorkingMemoryStore(), null, config().build())) {
            note(memories, "u", FACTS.get(0), FACTS.get(1));
            assertThat(memories.dream("u").committed()).isTrue();
            String first = memories.dreamEngine().state("u").orElseThrow();
            note(memories, "u", FACTS.get(2));
            assertThat(memories.dream("u").committed()).isTrue();
            assertThat(memories.memory("u").render()).contains(FACTS.get(2)).doesNotContain("<unsynthesized_notes>");

            assertThat(memories.rollbackDream("u")).isTrue();

            assertThat(memories.dreamEngine().state("u")).contains(first);
            assertThat(memories.memory("u").notes().notes()).extracting(Note::text).containsExactly(FACTS.get(2));
            assertThat(memories.memory("u").render()).contains("<unsynthesized_notes>");
            assertThat(memories.rollbackDream("u")).isTrue();
            assertThat(memories.dreamEngine().state("u")).isEmpty();
            assertThat(memories.memory("u").notes().notes()).extracting(Note::text)
                    .containsExactlyInAnyOrder(FACTS.get(0), FACTS.get(1), FACTS.get(2));
            assertThat(memories.memory("u").render()).doesNotContain("<state");
            assertThat(memories.rollbackDream("u")).isFalse();
        }
    }

    @Test
    void should_read_the_state_and_history_by_memory_id_as_dream_and_rollback_resolve_it() {
        // "maya@phone" and "maya@laptop" are two threads of the resource "maya"
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(new InMemoryWorkingMemoryStore())
                .dreams(config().build()).memoryKeyMapper(id -> {
                    String[] parts = String.valueOf(id).split("@", 2);
                    return MemoryKey.of(parts[0], parts[1]);
                }).build()) {
            assertThat(memories.dreamState("maya@phone")).isEmpty();
            assertThat(memories.dreamHistory("maya@phone")).isEmpty();
            note(memories, "maya@phone", FACTS.get(0), FACTS.get(1));

            assertThat(memories.dream("maya@phone").committed()).isTrue();

            String state = memories.dreamState("maya@laptop").orElseThrow();
            assertThat(state).startsWith("# Working Memory State").contains(FACTS.get(0));
            assertThat(memories.dreamState(MemoryKey.of("maya", "other"))).contains(state);
            assertThat(memories.dreamEngine().state("maya")).contains(state);
            assertThat(memories.dreamState("bob@phone")).isEmpty();
            assertThat(memories.dreamHistory("maya@laptop")).singleElement()
                    .satisfies(record -> assertThat(record.state()).isEqualTo(state));

            assertThat(memories.rollbackDream("maya@laptop")).isTrue();

            assertThat(memories.dreamState("maya@phone")).isEmpty();
            assertThat(memories.dreamHistory("maya@phone")).isEmpty();
        }
        WorkingMemoryProvider closed = WorkingMemoryProvider.builder().build();
        closed.close();
        assertThatThrownBy(() -> closed.dreamState("maya")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> closed.dreamHistory("maya")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void should_give_the_dream_model_the_salience_the_entities_and_the_slot_items_of_the_user() {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from(LlmDreamSynthesizerTest.ANSWER));
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().dreamModel(model).withoutCrystals()
                .sessionSlots(SessionSlotsConfig.defaults()).dreams(config().build()).build()) {
            ChatMemory chat = memories.get("u");
            chat.add(UserMessage.from("IT FINALLY WORKS!!! Thank you so much!"));
            chat.add(AiMessage.from(ScriptedChatModel.toolCall("cms_getPage", "{\"id\":\"page-1\"}")));
            chat.add(ToolExecutionResultMessage.from("call-1", "cms_getPage",
                    "{\"page\":{\"id\":\"page-1\",\"title\":\"About Us\"}}"));
            memories.memory("u").layer(SessionSlots.class).orElseThrow().add("decision", "ship the About Us page");
            note(memories, "u", "User's name is Douglas");

            assertThat(memories.dream("u").committed()).isTrue();

            String prompt = model.lastRequest().messages().toString();
            assertThat(prompt).contains("\"About Us\" (page page-1)", "decision: ship the About Us page");
            assertThat(prompt).containsPattern("dopamine 0\\.[5-9]");
        }
    }

    @Test
    void should_not_leave_the_state_of_a_dream_that_ran_while_another_instance_forgot_its_user() throws Exception {
        CountDownLatch synthesizing = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            synthesizing.countDown();
            try {
                answer.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return AiMessage.from(LlmDreamSynthesizerTest.ANSWER);
        });
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (WorkingMemoryProvider dreaming = provider(store, model, config().build());
             WorkingMemoryProvider forgetting = provider(store, null, config().build())) {
            note(dreaming, "u", "User's name is Douglas");
            CompletableFuture<Boolean> dream = CompletableFuture.supplyAsync(() -> dreaming.dream("u").committed());
            assertThat(synthesizing.await(30, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Void> forget = CompletableFuture.runAsync(() -> forgetting.forget("u"));
            try {
                forget.get(500, TimeUnit.MILLISECONDS); // returns unless it waits for the dream to end
            } catch (java.util.concurrent.TimeoutException waiting) {
                // it waits: the dream answers now
            }
            answer.countDown();
            dream.get(30, TimeUnit.SECONDS);
            forget.get(30, TimeUnit.SECONDS);

            assertThat(forgetting.dreamState("u")).isEmpty();
            assertThat(forgetting.dreamHistory("u")).isEmpty();
            assertThat(dreaming.dreamState("u")).isEmpty();
        }
    }

    @Test
    void should_tell_listeners_how_each_dream_ended() {
        List<DreamFinished> events = new CopyOnWriteArrayList<>();
        AtomicReference<String> answer = new AtomicReference<>(LlmDreamSynthesizerTest.ANSWER);
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from(answer.get()));
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().dreamModel(model).withoutCrystals()
                .dreams(config().build()).listener(new WorkingMemoryListener() {
                    @Override
                    public void onDreamFinished(DreamFinished event) {
                        events.add(event);
                    }
                }).build()) {
            note(memories, "u", FACTS.get(0), FACTS.get(1));
            memories.dream("u");
            note(memories, "u", FACTS.get(2));
            answer.set("lol");
            memories.dream("u");
            memories.dream("nobody"); // nothing to dream: no synthesis, no event

            assertThat(events).hasSize(2);
            assertThat(events.get(0)).satisfies(event -> {
                assertThat(event.resource()).isEqualTo("u");
                assertThat(event.outcome()).isEqualTo("committed");
                assertThat(event.notesConsumed()).isEqualTo(2);
                assertThat(event.stateBefore()).isZero();
                assertThat(event.stateAfter()).isEqualTo(memories.dreamEngine().state("u").orElseThrow().length());
            });
            assertThat(events.get(1).outcome()).isEqualTo("rejected");
            assertThat(events.get(1).reason()).contains("lacks");
            assertThat(events.get(1).stateBefore()).isEqualTo(events.get(0).stateAfter());
        }
    }

    @Test
    void should_refuse_a_lease_shorter_than_the_timeout() {
        assertThatThrownBy(() -> DreamConfig.builder().timeout(Duration.ofMinutes(5)).leaseTtl(Duration.ofMinutes(1))
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTtl");
    }

    @Test
    void should_dream_on_schedule_only_users_with_enough_notes() throws InterruptedException {
        DreamConfig config = DreamConfig.builder().interval(Duration.ofMillis(100)).minNotes(3).build();
        try (WorkingMemoryProvider memories = provider(new InMemoryWorkingMemoryStore(), null, config)) {
            note(memories, "busy", FACTS.get(0), FACTS.get(1), FACTS.get(2));
            note(memories, "quiet", FACTS.get(3));

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (memories.dreamEngine().history("busy").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            assertThat(memories.dreamEngine().history("busy")).hasSize(1);
            assertThat(memories.dreamEngine().history("quiet")).isEmpty();
            assertThat(memories.memory(MemoryKey.of("quiet")).notes().notes()).hasSize(1);
        }
    }
}
