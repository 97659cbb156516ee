package dev.workingmemory;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.testing.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * State the memory derives by itself saved behind the turn: {@code saveDelay}, {@code flush()}, {@code close()} and
 * eviction. (Writes a caller is told were saved do not wait: {@link DurableWritesTest}.)
 */
class WriteBehindTest {

    private static void derive(WorkingMemoryProvider memories, Object id, String text) {
        derived(memories.memory(id)).add(text);
    }

    private static void deriveShared(WorkingMemoryProvider memories, Object id, String text) {
        DerivedLayer.of(memories.memory(id), LayerScope.RESOURCE).add(text);
    }

    private static DerivedLayer derived(WorkingMemory memory) {
        return DerivedLayer.of(memory, LayerScope.THREAD);
    }

    private static WorkingMemoryProvider.Builder withDerivedLayers() {
        return WorkingMemoryProvider.builder()
                .layer(DerivedLayer.factory(LayerScope.THREAD))
                .layer(DerivedLayer.factory(LayerScope.RESOURCE));
    }

    private static final Duration LONG = Duration.ofMinutes(1);
    private static final MemoryKey ALICE = MemoryKey.of("alice");

    /** Polls until {@code condition} holds; fails after two seconds, far longer than the delays used here. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    @Test
    void should_save_a_change_after_the_delay_on_the_saver_thread_and_messages_at_once() throws Exception {
        TestStore store = new TestStore();
        InMemoryChatMemoryStore messages = new InMemoryChatMemoryStore();
        WorkingMemoryProvider memories = withDerivedLayers()
                .store(store).chatMemoryStore(messages).saveDelay(Duration.ofMillis(200)).build();

        memories.get(ALICE).add(UserMessage.from("hello"));
        derive(memories, ALICE, "Ship");

        assertThat(store.saves).isEmpty();
        assertThat(messages.getMessages(ALICE)).containsExactly(UserMessage.from("hello"));
        await("the thread state is saved", () -> !store.savesOf(ALICE.threadStoreKey()).isEmpty());
        assertThat(store.savesOf(ALICE.threadStoreKey())).singleElement().satisfies(save -> {
            assertThat(save.document()).contains("Ship");
            assertThat(save.thread().getName()).isEqualTo("working-memory-saver");
        });
        memories.close();
    }

    @Test
    void should_coalesce_the_changes_made_within_the_delay_into_one_save_of_the_latest_state() throws Exception {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers().store(store)
                .saveDelay(Duration.ofMillis(200)).build();

        for (int i = 0; i < 20; i++) {
            derive(memories, ALICE, "step " + i);
        }
        await("the thread state is saved", () -> !store.saves.isEmpty());

        assertThat(store.saves).singleElement().satisfies(save -> assertThat(save.document()).contains("step 19"));
        memories.close();
        assertThat(store.saves).as("close() finds nothing left to save").hasSize(1);
    }

    @Test
    void should_save_pending_thread_and_resource_state_on_flush() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers()
                .store(store).saveDelay(LONG).build();
        derive(memories, ALICE, "Ship");
        deriveShared(memories, ALICE, "shared plan");
        assertThat(store.saves).isEmpty();

        memories.flush();

        assertThat(store.savesOf(ALICE.threadStoreKey())).singleElement()
                .satisfies(save -> assertThat(save.document()).contains("Ship"));
        assertThat(store.savesOf(ALICE.resourceStoreKey())).singleElement()
                .satisfies(save -> assertThat(save.document()).contains("shared plan"));
        assertThat(store.saves).allSatisfy(save -> assertThat(save.thread()).isSameAs(Thread.currentThread()));
        memories.close();
        assertThat(store.saves).hasSize(2);
    }

    @Test
    void should_save_pending_state_on_close() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers().store(store).saveDelay(LONG).build();
        derive(memories, ALICE, "Ship");

        memories.close();

        assertThat(store.saves).singleElement().satisfies(save -> {
            assertThat(save.document()).contains("Ship");
            assertThat(save.thread()).isSameAs(Thread.currentThread());
        });
    }

    @Test
    void should_stop_the_saver_thread_on_close() throws Exception {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers().store(store)
                .saveDelay(Duration.ofMillis(50)).build();
        derive(memories, ALICE, "Ship");
        await("the change is saved", () -> !store.saves.isEmpty());
        Thread saver = store.saves.get(0).thread();

        memories.close();

        saver.join(1_000); // an idle saver of an open provider lives for seconds
        assertThat(saver.isAlive()).isFalse();
    }

    @Test
    void should_save_pending_state_of_an_evicted_memory_and_reload_it() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers()
                .store(store).maxCachedMemories(1).saveDelay(LONG).build();
        WorkingMemory stale = memories.memory("alice");
        derived(stale).add("kept");

        memories.memory("bob");
        memories.memory("carol");

        assertThatThrownBy(() -> derived(stale).text()).as("alice was evicted").isInstanceOf(IllegalStateException.class);
        assertThat(store.savesOf(ALICE.threadStoreKey())).singleElement()
                .satisfies(save -> assertThat(save.document()).contains("kept"));
        assertThat(derived(memories.memory("alice")).text()).isEqualTo("kept");
        memories.close();
    }

    @Test
    void should_keep_a_dirty_resource_state_that_no_memory_references_until_it_is_saved() throws Exception {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers()
                .store(store).maxCachedMemories(1).saveDelay(LONG).build();
        deriveShared(memories, "alice", "alice's plan");
        WeakReference<WorkingMemory> alice = new WeakReference<>(memories.memory("alice"));
        memories.memory("bob");
        memories.memory("carol");

        for (int i = 0; i < 20 && alice.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(alice.get()).as("alice's memory was evicted and collected").isNull();
        assertThat(store.savesOf(ALICE.resourceStoreKey())).isEmpty();

        memories.flush();

        assertThat(store.savesOf(ALICE.resourceStoreKey())).singleElement()
                .satisfies(save -> assertThat(save.document()).contains("alice's plan"));
        memories.close();
    }

    @Test
    void should_not_keep_an_evicted_memory_in_the_heap_until_its_pause_check_comes() throws Exception {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxCachedMemories(1)
                .saveDelay(Duration.ofMillis(10)).pauseAfter(Duration.ofHours(1)).build();
        memories.get("alice").add(UserMessage.from("Remember the blue folder.")); // a pause check, an hour away
        WeakReference<Object> aliceThread = new WeakReference<>(memories.memory("alice").threadState());
        memories.get("bob").add(UserMessage.from("Hello.")); // alice is evicted: her pause is told then

        for (int i = 0; i < 200 && aliceThread.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(aliceThread.get()).as("alice's evicted thread state was collected").isNull();
        memories.close();
    }

    @Test
    void should_keep_the_state_when_the_store_fails_and_save_it_once_the_store_works_again() throws Exception {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers().store(store)
                .saveDelay(Duration.ofMillis(50)).build();
        store.failing = true;

        derive(memories, ALICE, "survive");
        await("the saver tried again after a failure", () -> store.failures.get() >= 2);
        assertThatThrownBy(memories::flush).isInstanceOf(WorkingMemoryStoreException.class).hasMessageContaining("1 scope");

        assertThat(store.saves).isEmpty();
        assertThat(memories.memory(ALICE).render()).contains("survive");
        store.failing = false;
        await("the state is saved", () -> !store.saves.isEmpty());
        assertThat(store.saves).singleElement().satisfies(save -> assertThat(save.document()).contains("survive"));
        memories.close();
    }

    @Test
    void should_save_within_the_call_with_a_zero_delay() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers().store(store).saveDelay(Duration.ZERO).build();

        derive(memories, ALICE, "now");

        assertThat(store.saves).singleElement().satisfies(save -> {
            assertThat(save.document()).contains("now");
            assertThat(save.thread()).isSameAs(Thread.currentThread());
        });
    }

    @Test
    void should_retry_a_failed_save_on_the_next_change_with_a_zero_delay() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = withDerivedLayers().store(store).saveDelay(Duration.ZERO).build();
        store.failing = true;
        derive(memories, ALICE, "first");
        assertThat(store.failures).hasValue(1);

        store.failing = false;
        derive(memories, ALICE, "second");

        assertThat(store.saves).singleElement()
                .satisfies(save -> assertThat(save.document()).contains("first").contains("second"));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"PT-0.001S", "PT-1H"})
    void should_reject_a_missing_or_negative_save_delay(Duration delay) {
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().saveDelay(delay))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("saveDelay");
    }
}
