package dev.workingmemory.dream;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.layer.TestLayerContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Salience is scored behind the turn (issue 21): {@code add} only queues a message; the levels are as if it had not. */
class SalienceBehindTheTurnTest {

    private static SalienceLayer salience(WorkingMemoryProvider memories) {
        return memories.memory("maya").layer(SalienceLayer.class).orElseThrow();
    }

    @Test
    void should_queue_a_message_and_score_it_on_the_saver_thread() throws InterruptedException {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            memories.get("maya").add(UserMessage.from("IT FINALLY WORKS!!! The build is green."));
            SalienceLayer layer = salience(memories);
            assertThat(layer.pending()).isEqualTo(1);

            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (layer.pending() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            assertThat(layer.pending()).as("scored by the saver a second later").isZero();
            assertThat(layer.snapshot().path("hormones").path("dopamine").path("level").asDouble()).isPositive();
        }
    }

    @Test
    void should_score_what_waits_before_the_levels_are_read() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            memories.get("maya").add(UserMessage.from("Thank you so much, you're the best!"));

            assertThat(salience(memories).levels().oxytocin()).isPositive();
            assertThat(salience(memories).pending()).isZero();
        }
    }

    @Test
    void should_score_within_the_call_when_the_provider_saves_within_each_call() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals()
                .saveDelay(Duration.ZERO).build()) {
            memories.get("maya").add(UserMessage.from("This is so frustrating, the deploy is still failing"));

            assertThat(salience(memories).pending()).isZero();
            assertThat(salience(memories).snapshot().path("hormones").path("cortisol").path("level").asDouble())
                    .isPositive();
        }
    }

    @Test
    void should_never_keep_more_than_its_cap_waiting_and_lose_no_message() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            ChatMemory chat = memories.get("maya");
            for (int i = 0; i < 3 * SalienceLayer.MAX_PENDING; i++) {
                chat.add(UserMessage.from("thanks " + i));
                assertThat(salience(memories).pending()).isLessThan(SalienceLayer.MAX_PENDING);
            }

            assertThat(salience(memories).levels().oxytocin()).isGreaterThan(0.99); // 3,072 mild raises
        }
    }

    @Test
    void should_queue_one_delayed_drain_at_a_time_and_score_what_comes_while_it_waits() {
        TestLayerContext context = new TestLayerContext().deferring();
        SalienceLayer layer = (SalienceLayer) SalienceLayer.factory(DreamConfig.defaults()).create(context);

        layer.onMessage(UserMessage.from("thanks for the help"));
        assertThat(context.queuedTasks()).as("the delayed drain of the first message").isEqualTo(1);
        assertThat(layer.levels().oxytocin()).as("a read scores what waits").isPositive();
        for (int i = 0; i < 5; i++) { // a message, then a read, again and again: the queue empties each time
            layer.onMessage(UserMessage.from("thank you so much, really grateful " + i));
            layer.mood();
        }
        layer.onMessage(UserMessage.from("thanks again, this is great"));

        assertThat(context.queuedTasks()).as("the first delayed drain still waits: no second one").isEqualTo(1);
        assertThat(layer.pending()).isEqualTo(1);
        context.runQueuedTasks();
        assertThat(layer.pending()).as("scored by the drain that was queued").isZero();

        layer.onMessage(UserMessage.from("thanks once more"));
        assertThat(context.queuedTasks()).as("a new delayed drain once the last one ran").isEqualTo(1);
    }
}
