package dev.workingmemory;

import dev.workingmemory.blocks.CoreMemoryConfig;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.testing.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Durable before acknowledged, and no lost updates between two providers (two application instances) on one store:
 * a write reaches the store before it returns, a conflict reloads and applies the write again, and a cached memory
 * takes in what the other instance saved before it renders or writes.
 */
class NoLostUpdatesTest {

    private static final Duration LONG = Duration.ofMinutes(1);
    private static final CoreMemoryConfig ROOMY = CoreMemoryConfig.builder().block("progress", 200_000).build();

    @TempDir
    Path dir;

    private static WorkingMemoryProvider.Builder instance(WorkingMemoryStore store) {
        return WorkingMemoryProvider.builder().store(store).coreMemory(ROOMY).saveDelay(LONG)
                .layer(DerivedLayer.factory(LayerScope.THREAD))
                .layer(DerivedLayer.factory(LayerScope.RESOURCE));
    }

    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }

    @Test
    void should_store_a_core_memory_and_scratchpad_write_before_it_returns_whatever_the_save_delay() {
        WorkingMemoryProvider first = instance(new FileWorkingMemoryStore(dir)).build();
        first.memory("alice").coreMemory().replace("goal", "Ship v2");
        first.memory("alice").coreMemory().append("progress", "tests green");
        first.memory("alice").scratchpad().update("call the bank");

        // neither flushed nor closed
        WorkingMemoryProvider second = instance(new FileWorkingMemoryStore(dir)).build();
        WorkingMemory seen = second.memory("alice");

        assertThat(seen.coreMemory().read("goal").content()).isEqualTo("Ship v2");
        assertThat(seen.coreMemory().read("progress").content()).isEqualTo("tests green");
        assertThat(seen.scratchpad().text()).isEqualTo("call the bank");
        second.close();
        first.close();
    }

    @Test
    void should_undo_a_durable_write_the_store_refused_and_say_so() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = instance(store).build();
        memories.memory("alice").coreMemory().replace("goal", "kept");
        store.failing = true;

        assertThatThrownBy(() -> memories.memory("alice").coreMemory().replace("goal", "lost"))
                .isInstanceOf(WorkingMemoryStoreException.class);
        assertThatThrownBy(() -> memories.memory("alice").scratchpad().update("lost too"))
                .isInstanceOf(WorkingMemoryStoreException.class);

        assertThat(memories.memory("alice").coreMemory().read("goal").content()).isEqualTo("kept");
        assertThat(memories.memory("alice").scratchpad().text()).isEmpty();
        assertThat(memories.memory("alice").render()).contains("kept").doesNotContain("lost");
        store.failing = false;
        memories.close();
    }

    @Test
    void should_keep_every_line_of_two_instances_appending_in_turn() {
        WorkingMemoryStore store = new FileWorkingMemoryStore(dir);
        WorkingMemoryProvider a = instance(store).build();
        WorkingMemoryProvider b = instance(new FileWorkingMemoryStore(dir)).build();

        for (int i = 0; i < 40; i++) {
            a.memory("alice").coreMemory().append("progress", "a" + i);
            b.memory("alice").coreMemory().append("progress", "b" + i);
        }
        a.close();
        b.close();

        WorkingMemoryProvider reader = instance(store).build();
        List<String> expected = IntStream.range(0, 40).boxed()
                .flatMap(i -> java.util.stream.Stream.of("a" + i, "b" + i)).toList();
        assertThat(lines(reader.memory("alice").coreMemory().read("progress").content())).isEqualTo(expected);
    }

    @Test
    void should_end_with_the_last_replace_of_two_instances_replacing_in_turn() {
        WorkingMemoryProvider a = instance(new FileWorkingMemoryStore(dir)).build();
        WorkingMemoryProvider b = instance(new FileWorkingMemoryStore(dir)).build();

        for (int i = 0; i < 20; i++) {
            a.memory("alice").coreMemory().replace("goal", "a" + i);
            b.memory("alice").coreMemory().replace("goal", "b" + i);
        }

        assertThat(a.memory("alice").coreMemory().read("goal").content()).isEqualTo("b19");
        a.close();
        b.close();
        assertThat(instance(new FileWorkingMemoryStore(dir)).build().memory("alice").coreMemory().read("goal").content())
                .isEqualTo("b19");
    }

    @Test
    void should_render_what_another_instance_saved_before_this_one_writes_again() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider a = instance(store).build();
        WorkingMemoryProvider b = instance(store).build();
        assertThat(a.get("alice").messages()).isEmpty(); // a has alice cached

        b.memory("alice").coreMemory().replace("goal", "from b");
        b.memory("alice").scratchpad().update("b's plan");

        assertThat(a.get("alice").messages()).singleElement()
                .satisfies(system -> assertThat(system.toString()).contains("from b").contains("b's plan"));
        assertThat(a.memory("alice").render()).contains("from b");
    }

    @Test
    void should_apply_unsaved_derived_changes_again_on_the_state_another_instance_saved() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider a = instance(store).build();
        WorkingMemoryProvider b = instance(store).build();
        DerivedLayer.of(a.memory("alice"), LayerScope.THREAD).add("a1");
        DerivedLayer.of(a.memory("alice"), LayerScope.RESOURCE).add("a shared");

        DerivedLayer.of(b.memory("alice"), LayerScope.THREAD).add("b1");
        DerivedLayer.of(b.memory("alice"), LayerScope.RESOURCE).add("b shared");
        b.flush();
        a.memory("alice").coreMemory().replace("goal", "a's goal"); // a durable write meets b's save: a conflict
        a.flush();

        WorkingMemory seen = instance(store).build().memory("alice");
        assertThat(lines(DerivedLayer.of(seen, LayerScope.THREAD).text())).containsExactly("b1", "a1");
        assertThat(lines(DerivedLayer.of(seen, LayerScope.RESOURCE).text())).containsExactly("b shared", "a shared");
        assertThat(seen.coreMemory().read("goal").content()).isEqualTo("a's goal");
    }

    @Test
    void should_refuse_an_append_that_no_longer_fits_the_state_another_instance_saved() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        CoreMemoryConfig small = CoreMemoryConfig.builder().block("progress", 10).build();
        WorkingMemoryProvider a = WorkingMemoryProvider.builder().store(store).coreMemory(small)
                .storeCheckInterval(Duration.ofHours(1)).build();
        WorkingMemoryProvider b = WorkingMemoryProvider.builder().store(store).coreMemory(small).build();
        a.memory("alice").coreMemory().append("progress", "12345");
        b.memory("alice").coreMemory().append("progress", "6789");

        // a has not looked at the store since (long check interval): its save conflicts and the append runs again
        assertThatThrownBy(() -> a.memory("alice").coreMemory().append("progress", "abcd"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over its limit");

        assertThat(a.memory("alice").coreMemory().read("progress").content()).isEqualTo("12345\n6789");
        assertThat(store.version(MemoryKey.of("alice").threadStoreKey())).isEqualTo(2);
    }

    @Test
    void should_lose_no_append_of_two_instances_writing_at_the_same_time() throws Exception {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider a = instance(store).build();
        WorkingMemoryProvider b = instance(store).build();
        int each = 300;
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> writers = new ArrayList<>();
        for (WorkingMemoryProvider instance : List.of(a, b)) {
            String name = instance == a ? "a" : "b";
            writers.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < each; i++) {
                    String line = name + i;
                    instance.withMemory("alice", memory -> memory.coreMemory().append("progress", line));
                    DerivedLayer.of(instance.memory("alice"), LayerScope.THREAD).add(line);
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        a.close();
        b.close();

        WorkingMemory seen = instance(store).build().memory("alice");
        List<String> progress = lines(seen.coreMemory().read("progress").content());
        assertThat(progress).hasSize(2 * each).doesNotHaveDuplicates();
        assertThat(progress.stream().filter(line -> line.startsWith("a"))).containsExactlyElementsOf(
                IntStream.range(0, each).mapToObj(i -> "a" + i).toList());
        assertThat(lines(DerivedLayer.of(seen, LayerScope.THREAD).text())).hasSize(2 * each).doesNotHaveDuplicates();
    }

    @Test
    void should_start_again_from_empty_when_another_instance_deleted_the_state() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider a = instance(store).build();
        a.memory("alice").coreMemory().replace("goal", "old");

        store.delete(MemoryKey.of("alice").threadStoreKey());

        assertThat(a.memory("alice").render()).doesNotContain("old");
        a.memory("alice").coreMemory().append("progress", "new");
        assertThat(instance(store).build().memory("alice").coreMemory().blocks())
                .extracting(block -> block.content()).containsExactly("", "new", "");
    }

    @Test
    void should_check_the_store_at_most_once_per_interval() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = instance(store).storeCheckInterval(Duration.ofHours(1)).build();
        for (int i = 0; i < 10; i++) {
            memories.get("alice").messages();
        }
        assertThat(store.versionChecks.get()).isZero();

        WorkingMemoryProvider eager = instance(store).build();
        for (int i = 0; i < 10; i++) {
            eager.get("bob").messages();
        }
        assertThat(store.versionChecks.get()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void should_save_derived_changes_at_once_when_a_thousand_wait_to_be_saved() {
        TestStore store = new TestStore();
        WorkingMemoryProvider memories = instance(store).build(); // a save delay of a minute
        DerivedLayer layer = DerivedLayer.of(memories.memory("alice"), LayerScope.THREAD);
        for (int i = 0; i < 999; i++) {
            layer.add("x" + i);
        }
        assertThat(store.version(MemoryKey.of("alice").threadStoreKey())).isZero();

        layer.add("x999");

        assertThat(store.version(MemoryKey.of("alice").threadStoreKey())).isEqualTo(1);
    }

    @Test
    void should_reject_a_missing_or_negative_check_interval() {
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().storeCheckInterval(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("storeCheckInterval");
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().storeCheckInterval(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("storeCheckInterval");
    }

    @Test
    void should_use_a_structured_scratchpad_merge_on_the_state_another_instance_saved() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        ScratchpadConfig json = ScratchpadConfig.builder().json(true).build();
        WorkingMemoryProvider a = instance(store).scratchpad(json).storeCheckInterval(Duration.ofHours(1)).build();
        WorkingMemoryProvider b = instance(store).scratchpad(json).build();
        a.memory("alice").scratchpad().update("{\"goal\":\"ship\"}");
        b.memory("alice").scratchpad().update("{\"owner\":\"bob\"}");

        a.memory("alice").scratchpad().update("{\"due\":\"friday\"}");

        assertThat(instance(store).scratchpad(json).build().memory("alice").scratchpad().json().properties())
                .extracting(java.util.Map.Entry::getKey).containsExactlyInAnyOrder("goal", "owner", "due");
    }
}
