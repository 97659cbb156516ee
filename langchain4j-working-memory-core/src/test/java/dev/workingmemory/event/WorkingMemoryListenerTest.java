package dev.workingmemory.event;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.testing.TestStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkingMemoryListenerTest {

    /** Records every event it hears. */
    static final class Recorder implements WorkingMemoryListener {
        final List<Object> events = new CopyOnWriteArrayList<>();

        @Override
        public void onEntityTracked(EntityTracked event) {
            events.add(event);
        }

        @Override
        public void onNoteAppended(NoteAppended event) {
            events.add(event);
        }

        @Override
        public void onBlockRendered(BlockRendered event) {
            events.add(event);
        }

        @Override
        public void onSaveFailed(SaveFailed event) {
            events.add(event);
        }

        <E> List<E> of(Class<E> type) {
            return events.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    private static ToolExecutionResultMessage pageResult(String id, String title) {
        return ToolExecutionResultMessage.from("call-" + id, "createPage",
                "{\"page\":{\"id\":\"" + id + "\",\"title\":\"" + title + "\"}}");
    }

    @Test
    void should_report_entities_notes_and_renders() {
        Recorder recorder = new Recorder();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().listener(recorder).build()) {
            memories.get("alice").add(pageResult("page-123", "About Us"));
            WorkingMemory memory = memories.memory("alice");
            memory.notes().note("Deadline is March 20th", 0.8, List.of("decision"));
            String block = memory.render();

            assertThat(recorder.of(EntityTracked.class)).singleElement().satisfies(event -> {
                assertThat(event.key()).isEqualTo(MemoryKey.of("alice"));
                assertThat(event.entities()).containsExactly(new Entity("page-123", "About Us", "page"));
            });
            assertThat(recorder.of(NoteAppended.class)).singleElement().satisfies(event -> {
                assertThat(event.resource()).isEqualTo("alice");
                assertThat(event.note().text()).isEqualTo("Deadline is March 20th");
                assertThat(event.pending()).isEqualTo(1);
            });
            assertThat(recorder.of(BlockRendered.class)).last().satisfies(event -> {
                assertThat(event.chars()).isEqualTo(block.length());
                assertThat(event.time()).isPositive();
            });
            int renders = recorder.of(BlockRendered.class).size();
            memory.render();
            assertThat(recorder.of(BlockRendered.class)).as("nothing changed: no new render").hasSize(renders);
        }
    }

    @Test
    void should_go_on_when_a_listener_throws() {
        Recorder recorder = new Recorder();
        WorkingMemoryListener failing = new WorkingMemoryListener() {
            @Override
            public void onEntityTracked(EntityTracked event) {
                throw new IllegalStateException("listener bug (test)");
            }

            @Override
            public void onBlockRendered(BlockRendered event) {
                throw new IllegalStateException("listener bug (test)");
            }
        };
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().listener(failing).listener(recorder).build()) {
            memories.get("alice").add(pageResult("page-123", "About Us"));

            assertThat(memories.get("alice").messages()).isNotEmpty();
            assertThat(memories.memory("alice").render()).contains("\"About Us\" (page-123)");
            assertThat(recorder.of(EntityTracked.class)).hasSize(1);
            assertThat(recorder.of(BlockRendered.class)).isNotEmpty();
        }
    }

    @Test
    void should_report_a_failed_save() {
        Recorder recorder = new Recorder();
        TestStore store = new TestStore();
        store.failing = true;
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).saveDelay(Duration.ZERO)
                .listener(recorder).build()) {
            memories.get("alice").add(pageResult("page-123", "About Us"));

            assertThat(recorder.of(SaveFailed.class)).singleElement().satisfies(event -> {
                assertThat(event.scope()).isEqualTo(LayerScope.THREAD);
                assertThat(event.storeKey()).isEqualTo(MemoryKey.of("alice").threadStoreKey());
                assertThat(event.error()).hasMessageContaining("the store is down");
            });
            store.failing = false;
        }
    }

    @Test
    void should_refuse_and_report_a_message_the_store_could_not_keep() {
        Recorder recorder = new Recorder();
        TestStore store = new TestStore();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).listener(recorder).build()) {
            memories.memory("alice");
            store.failingMessages = true;

            assertThatThrownBy(() -> memories.get("alice").add(pageResult("page-123", "About Us")))
                    .isInstanceOf(WorkingMemoryStoreException.class).hasMessageContaining("the store is down");

            assertThat(recorder.of(SaveFailed.class)).singleElement().satisfies(event -> {
                assertThat(event.scope()).isEqualTo(LayerScope.THREAD);
                assertThat(event.storeKey()).isEqualTo(MemoryKey.of("alice").threadStoreKey());
            });
            store.failingMessages = false;
            assertThat(memories.get("alice").messages()).as("not half added").isEmpty();
            assertThat(memories.memory("alice").entities()).as("not observed").isEmpty();
        }
    }

    @Test
    void should_report_a_durable_write_that_could_not_be_saved() {
        Recorder recorder = new Recorder();
        TestStore store = new TestStore();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).listener(recorder).build()) {
            WorkingMemory memory = memories.memory("alice");
            store.failing = true;

            assertThatThrownBy(() -> memory.coreMemory().replace("goal", "Ship v2"))
                    .isInstanceOf(WorkingMemoryStoreException.class);
            assertThat(recorder.of(SaveFailed.class)).singleElement()
                    .satisfies(event -> assertThat(event.scope()).isEqualTo(LayerScope.THREAD));
            store.failing = false;
        }
    }

    @Test
    void should_report_a_write_once_when_it_is_applied_again_after_a_conflict() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        Recorder first = new Recorder();
        try (WorkingMemoryProvider one = WorkingMemoryProvider.builder().store(store).saveDelay(Duration.ofHours(1))
                .listener(first).build();
             WorkingMemoryProvider other = WorkingMemoryProvider.builder().store(store).saveDelay(Duration.ZERO).build()) {
            one.get("alice").add(pageResult("page-1", "Home"));       // unsaved in one
            other.get("alice").add(pageResult("page-2", "Pricing"));  // saved by the other instance

            one.flush(); // conflicts, reloads and tracks page-1 again on the stored state

            assertThat(one.memory("alice").entities()).extracting(Entity::id).containsExactly("page-1", "page-2");
            assertThat(first.of(EntityTracked.class)).hasSize(1);
        }
    }
}
