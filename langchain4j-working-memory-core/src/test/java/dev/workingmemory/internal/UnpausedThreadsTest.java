package dev.workingmemory.internal;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.internal.UnpausedThreads.Marked;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class UnpausedThreadsTest {

    private final InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
    private final SaveScheduler inline = new SaveScheduler(Duration.ZERO);

    @Test
    void should_list_a_marked_thread_with_the_string_id_it_was_asked_for_by_until_it_is_unmarked() {
        UnpausedThreads marks = new UnpausedThreads(store, false, inline);
        MemoryKey monday = MemoryKey.of("maya", "monday");
        MemoryKey tuesday = MemoryKey.of("maya", "tuesday");

        assertThat(marks.mark(monday, "maya/monday")).isTrue();
        assertThat(marks.mark(tuesday, tuesday)).isTrue();
        assertThat(marks.mark(MemoryKey.of("ben", "monday"), "ben/monday")).isTrue();

        assertThat(marks.marked("maya")).containsExactlyInAnyOrder(new Marked(monday, "maya/monday"),
                new Marked(tuesday, tuesday));
        marks.unmark(monday);
        marks.unmark(monday); // unmarking twice is no error
        assertThat(marks.marked("maya")).containsExactly(new Marked(tuesday, tuesday));
        assertThat(marks.marked("ben")).extracting(Marked::key).containsExactly(MemoryKey.of("ben", "monday"));
    }

    @Test
    void should_keep_each_providers_mark_of_a_thread_until_the_thread_is_unmarked_whole() {
        UnpausedThreads one = new UnpausedThreads(store, false, inline);
        UnpausedThreads other = new UnpausedThreads(store, false, inline);
        MemoryKey monday = MemoryKey.of("maya", "monday");
        one.mark(monday, "maya/monday");
        other.mark(monday, "maya/monday");
        one.mark(MemoryKey.of("maya", "tuesday"), "maya/tuesday");

        assertThat(store.documents(monday.resourceStoreKey())).hasSize(3);
        assertThat(one.marked("maya")).extracting(Marked::key).containsExactlyInAnyOrder(monday,
                MemoryKey.of("maya", "tuesday")); // monday once
        one.unmark(monday);
        assertThat(other.marked("maya")).extracting(Marked::key).contains(monday); // the other's mark stays

        one.mark(monday, "maya/monday");
        one.unmarkThread(monday);
        assertThat(other.marked("maya")).extracting(Marked::key).containsExactly(MemoryKey.of("maya", "tuesday"));
    }

    @Test
    void should_keep_threads_of_any_name_apart() {
        UnpausedThreads marks = new UnpausedThreads(store, false, inline);
        List<String> threads = List.of("", "a/../b", "x".repeat(2_000), "tab\there", "\u0000", "ünï\uD83D\uDE00");
        for (String thread : threads) {
            marks.mark(MemoryKey.of("maya", thread), MemoryKey.of("maya", thread));
        }
        assertThat(marks.marked("maya")).extracting(marked -> marked.key().thread())
                .containsExactlyInAnyOrderElementsOf(threads);
    }

    @Test
    void should_not_mark_a_thread_whose_messages_an_application_keeps_under_an_id_it_cannot_name() {
        UnpausedThreads byId = new UnpausedThreads(store, true, inline);
        MemoryKey key = MemoryKey.of("maya", "monday");

        assertThat(byId.mark(key, UUID.randomUUID())).isFalse();
        assertThat(byId.marked("maya")).isEmpty();
        // the key itself names the messages wherever they are kept; with the store's own log any id does
        assertThat(byId.mark(key, key)).isTrue();
        assertThat(new UnpausedThreads(store, false, inline).mark(MemoryKey.of("maya", "x"), 42L)).isTrue();
        assertThat(byId.marked("maya")).extracting(Marked::memoryId)
                .containsExactlyInAnyOrder(key, MemoryKey.of("maya", "x"));
    }

    @Test
    void should_leave_out_a_mark_it_cannot_read() {
        UnpausedThreads marks = new UnpausedThreads(store, false, inline);
        MemoryKey monday = MemoryKey.of("maya", "monday");
        marks.mark(monday, "maya/monday");
        String name = store.documents(monday.resourceStoreKey()).get(0).name();
        store.putDocument(monday.resourceStoreKey(), name.substring(0, name.length() - 8) + "00000000",
                "{\"thread\":\"tuesday\"}"); // named for monday
        store.putDocument(monday.resourceStoreKey(), name, "not json");

        assertThat(marks.marked("maya")).isEmpty();
    }

    @Test
    void should_sweep_a_users_marks_once_per_load_of_its_state() {
        UnpausedThreads marks = new UnpausedThreads(store, false, inline);
        marks.mark(MemoryKey.of("maya", "monday"), "maya/monday");
        Object loaded = new Object();
        List<Marked> handed = new ArrayList<>();
        marks.handOverWith(handed::add);

        marks.sweepOnce(loaded, "maya");
        marks.sweepOnce(loaded, "maya");
        assertThat(handed).hasSize(1);

        marks.sweepOnce(new Object(), "maya"); // loaded again after it was dropped
        assertThat(handed).hasSize(2);
        marks.sweepLater("maya"); // saves are not deferred here: no saver thread to sweep on
        assertThat(handed).hasSize(2);
    }
}
