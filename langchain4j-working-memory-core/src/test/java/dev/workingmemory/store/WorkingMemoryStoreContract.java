package dev.workingmemory.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The behaviour every {@link WorkingMemoryStore} implementation must have. An implementation's test
 * implements this interface and returns a fresh, empty store from {@link #store()}.
 */
public interface WorkingMemoryStoreContract {

    /** The store under test: the same instance for the whole test, empty at its start. */
    WorkingMemoryStore store();

    /**
     * A new instance over what {@link #store()} kept, as an application restarted on it would open it (the same
     * directory, the same database); a store that keeps nothing outside itself returns {@link #store()}.
     */
    default WorkingMemoryStore restarted() {
        return store();
    }

    /**
     * Every UTF-16 code unit once, in order (NUL and the other controls, each unpaired surrogate but the two that
     * meet as a pair, noncharacters), then a pair and a low surrogate before a high one.
     */
    static String everyCodeUnit() {
        StringBuilder text = new StringBuilder(0x10000 + 4);
        for (int c = 0; c <= 0xFFFF; c++) {
            text.append((char) c);
        }
        return text.append("\uD83D\uDE00\uDC00\uD800").toString();
    }

    /** Keys that would escape or break a naive mapping to paths, tables or URLs. */
    static Stream<String> hostileKeys() {
        return Stream.of(
                "../../x",
                "/abs/path",
                "C:\\win",
                "a\u0000b",
                "",
                "k".repeat(5_000),
                "Größe 日本語 😀",
                ".",
                "..",
                "a\uD800b", // unpaired surrogate
                "line\nbreak",
                "con");
    }

    /** Documents that must come back exactly as saved, JSON or not. */
    static Stream<String> documents() {
        return Stream.of(
                "{\"goal\":\"ship it\",\"n\":[1,2.5,true,null]}",
                "{\n  \"pretty\" : true\n}",
                "not json at all",
                "",
                "null",
                "\"just a string\"",
                "1.10",
                "{\"a\":1} trailing",
                "{\"a\":1,\"a\":2}",
                "{\"text\":\"Größe 😀 \\u00e9 \\\"quoted\\\" </state>\"}",
                "{\"lone\":\"\uD800\"}");
    }

    @Test
    default void should_return_empty_when_the_key_was_never_saved() {
        assertThat(store().load("absent")).isEmpty();
    }

    @Test
    default void should_give_version_1_to_the_first_save() {
        Snapshot saved = store().save("k", 0, "{\"n\":1}");

        assertThat(saved).isEqualTo(new Snapshot("k", 1, "{\"n\":1}"));
        assertThat(store().load("k")).contains(saved);
    }

    @Test
    default void should_increment_the_version_on_each_save() {
        store().save("k", 0, "{\"n\":1}");
        store().save("k", 1, "{\"n\":2}");
        Snapshot third = store().save("k", 2, "{\"n\":3}");

        assertThat(third.version()).isEqualTo(3);
        assertThat(store().load("k")).contains(new Snapshot("k", 3, "{\"n\":3}"));
    }

    @Test
    default void should_reject_a_wrong_expected_version_and_keep_the_state() {
        store().save("k", 0, "{\"n\":1}");
        store().save("k", 1, "{\"n\":2}");

        VersionConflictException conflict = catchThrowableOfType(VersionConflictException.class,
                () -> store().save("k", 1, "{\"n\":\"lost\"}"));

        assertThat(conflict).isNotNull();
        assertThat(conflict.key()).isEqualTo("k");
        assertThat(conflict.expectedVersion()).isEqualTo(1);
        assertThat(conflict.actualVersion()).isEqualTo(2);
        assertThat(store().load("k")).contains(new Snapshot("k", 2, "{\"n\":2}"));
    }

    @Test
    default void should_conflict_when_expecting_absence_but_the_key_is_present() {
        store().save("k", 0, "{\"n\":1}");

        assertThatThrownBy(() -> store().save("k", 0, "{\"n\":\"again\"}"))
                .isInstanceOfSatisfying(VersionConflictException.class,
                        e -> assertThat(e.actualVersion()).isEqualTo(1));
        assertThat(store().load("k")).contains(new Snapshot("k", 1, "{\"n\":1}"));
    }

    @Test
    default void should_conflict_when_expecting_a_version_of_an_absent_key() {
        assertThatThrownBy(() -> store().save("absent", 3, "{}"))
                .isInstanceOfSatisfying(VersionConflictException.class,
                        e -> assertThat(e.actualVersion()).isZero());
        assertThat(store().load("absent")).isEmpty();
    }

    @Test
    default void should_forget_a_deleted_key_and_start_again_from_version_0() {
        store().save("k", 0, "{\"n\":1}");
        store().save("k", 1, "{\"n\":2}");

        store().delete("k");

        assertThat(store().load("k")).isEmpty();
        assertThatThrownBy(() -> store().save("k", 2, "{}")).isInstanceOf(VersionConflictException.class);
        assertThat(store().save("k", 0, "{\"n\":\"new\"}").version()).isEqualTo(1);
    }

    @Test
    default void should_ignore_the_delete_of_an_absent_key() {
        store().delete("absent");

        assertThat(store().load("absent")).isEmpty();
        assertThat(store().keys()).isEmpty();
    }

    @Test
    default void should_list_saved_keys_and_not_deleted_ones() {
        assertThat(store().keys()).isEmpty();
        store().save("a", 0, "{}");
        store().save("b", 0, "{}");
        store().save("b", 1, "{}");
        store().save("c", 0, "{}");

        store().delete("c");

        assertThat(store().keys()).containsExactlyInAnyOrder("a", "b");
    }

    @ParameterizedTest
    @MethodSource("dev.workingmemory.store.WorkingMemoryStoreContract#hostileKeys")
    default void should_round_trip_hostile_keys(String key) {
        Snapshot saved = store().save(key, 0, "{\"n\":1}");
        assertThat(saved.key()).isEqualTo(key);
        assertThat(store().save(key, 1, "{\"n\":2}").version()).isEqualTo(2);

        assertThat(store().load(key)).contains(new Snapshot(key, 2, "{\"n\":2}"));
        assertThat(store().keys()).containsExactly(key);

        store().delete(key);
        assertThat(store().load(key)).isEmpty();
        assertThat(store().keys()).isEmpty();
    }

    @Test
    default void should_keep_hostile_and_similar_keys_apart() {
        List<String> keys = new ArrayList<>(hostileKeys().toList());
        keys.addAll(List.of("Key", "key", "KEY", "a\u0000c", "a?b", "a\uD801b", "x", "k".repeat(4_999)));
        for (String key : keys) {
            store().save(key, 0, "\"" + keys.indexOf(key) + "\"");
        }

        assertThat(store().keys()).containsExactlyInAnyOrderElementsOf(keys);
        for (String key : keys) {
            assertThat(store().load(key)).contains(new Snapshot(key, 1, "\"" + keys.indexOf(key) + "\""));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.workingmemory.store.WorkingMemoryStoreContract#documents")
    default void should_return_documents_exactly_as_saved(String document) {
        store().save("k", 0, document);

        assertThat(store().load("k")).contains(new Snapshot("k", 1, document));
    }

    @Test
    default void should_give_back_every_code_unit_of_state_notes_messages_documents_and_leases_after_a_restart()
            throws Exception {
        String text = everyCodeUnit();
        String line = "- " + text.replace("\n", "").replace("\r", "");
        String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(java.util.Map.of("text", text));
        String key = "a\uD800b";
        MessageLogEntry said = said(text);
        MessageLogEntry result = new MessageLogEntry.Added(dev.langchain4j.data.message.ToolExecutionResultMessage.from(
                "call\uDC00", "tool\uD800", text), java.time.Instant.parse("2026-03-12T14:30:00Z"));
        store().save(key, 0, text);
        store().save("json", 0, json);
        store().appendNote(key, line);
        store().appendNote("notes-only\uDBFF", "- " + key);
        store().appendMessages(key, 0, List.of(said, result));
        store().putDocument(key, "tool-output-1", text);
        store().putDocument(key, "lone", "\uDC00");
        assertThat(store().acquireLease(key, "dream", "owner\uD800", java.time.Duration.ofMinutes(5))).isTrue();

        WorkingMemoryStore restarted = restarted();

        assertThat(restarted.load(key)).contains(new Snapshot(key, 1, text));
        assertThat(restarted.load("json")).contains(new Snapshot("json", 1, json));
        assertThat(restarted.notes(key)).containsExactly(line);
        assertThat(restarted.notes("notes-only\uDBFF")).containsExactly("- " + key);
        assertThat(restarted.messages(key, 0).entries()).extracting(MessageLog.Entry::entry).containsExactly(said, result);
        assertThat(restarted.getDocument(key, "tool-output-1")).contains(text);
        assertThat(restarted.getDocument(key, "lone")).contains("\uDC00");
        assertThat(restarted.keys()).containsExactlyInAnyOrder(key, "json", "notes-only\uDBFF");
        assertThat(restarted.acquireLease(key, "dream", "owner\uDBFF", java.time.Duration.ofMinutes(5)))
                .as("held by another owner").isFalse();
        assertThat(restarted.acquireLease(key, "dream", "owner\uD800", java.time.Duration.ofMinutes(5)))
                .as("renewed by its owner").isTrue();
    }

    @Test
    default void should_round_trip_a_1_mb_document() {
        String document = "{\"text\":\"" + "0123456789abcdef".repeat(65_536) + "\",\"n\":1}";
        assertThat(document.length()).isGreaterThan(1_000_000);

        store().save("big", 0, document);

        assertThat(store().load("big")).contains(new Snapshot("big", 1, document));
    }

    @Test
    default void should_reject_bad_arguments() {
        assertThatThrownBy(() -> store().load(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().save(null, 0, "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().save("k", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().save("k", -1, "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().delete(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(store().keys()).isEmpty();
    }

    @Test
    default void should_lose_no_update_when_threads_race_on_one_key() throws Exception {
        assertNoLostUpdate(List.of(store()), 8, 20);
    }

    /**
     * Runs {@code threads} threads (spread over {@code stores}, which share their storage), each
     * incrementing a counter document {@code incrementsPerThread} times with load + compare-and-set,
     * retrying on conflict; asserts that every increment landed.
     */
    static void assertNoLostUpdate(List<WorkingMemoryStore> stores, int threads, int incrementsPerThread)
            throws Exception {
        String key = "counter";
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                WorkingMemoryStore store = stores.get(t % stores.size());
                futures.add(executor.submit(() -> {
                    start.await();
                    for (int i = 0; i < incrementsPerThread; i++) {
                        while (true) {
                            Snapshot current = store.load(key).orElse(null);
                            long version = current == null ? 0 : current.version();
                            int count = current == null ? 0 : counter(current.document());
                            try {
                                store.save(key, version, "{\"count\":" + (count + 1) + "}");
                                break;
                            } catch (VersionConflictException e) {
                                // somebody else saved in between: reload and retry
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            executor.shutdownNow();
        }

        int total = threads * incrementsPerThread;
        Snapshot last = stores.get(0).load(key).orElseThrow();
        assertThat(last.version()).isEqualTo(total);
        assertThat(counter(last.document())).isEqualTo(total);
    }

    private static int counter(String document) {
        Matcher matcher = Pattern.compile("\\{\"count\":(\\d+)}").matcher(document);
        assertThat(matcher.matches()).as("counter document %s", document).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    // ---- version and the notes log -----------------------------------------------------------

    @Test
    default void should_report_the_stored_version_and_0_for_an_absent_key() {
        assertThat(store().version("k")).isZero();
        store().save("k", 0, "{}");
        store().save("k", 1, "{}");
        assertThat(store().version("k")).isEqualTo(2);
        store().delete("k");
        assertThat(store().version("k")).isZero();
    }

    @Test
    default void should_see_a_version_saved_through_another_path() {
        store().save("k", 0, "{\"a\":1}");
        assertThat(store().version("k")).isEqualTo(1);
        store().save("k", 1, "{\"a\":2}");
        assertThat(store().version("k")).isEqualTo(2);
        assertThat(store().load("k")).get().extracting(Snapshot::document).isEqualTo("{\"a\":2}");
    }

    @Test
    default void should_append_notes_in_order_and_return_them() {
        assertThat(store().notes("k")).isEmpty();
        assertThat(store().notesVersion("k")).isZero();

        store().appendNote("k", "- [2026-03-12T14:30:00Z] (importance: 0.8) User's name is Douglas");
        long first = store().notesVersion("k");
        store().appendNote("k", "- [2026-03-12T14:45:00Z] (importance: 0.7) Deadline is March 20th");

        assertThat(store().notes("k")).containsExactly(
                "- [2026-03-12T14:30:00Z] (importance: 0.8) User's name is Douglas",
                "- [2026-03-12T14:45:00Z] (importance: 0.7) Deadline is March 20th");
        assertThat(first).isNotZero();
        assertThat(store().notesVersion("k")).isNotZero().isNotEqualTo(first);
        assertThat(store().notes("other")).isEmpty();
        assertThat(store().keys()).contains("k");
    }

    @Test
    default void should_give_back_a_note_that_starts_like_a_heading_or_an_escape_as_it_was_appended() {
        List<String> notes = List.of("# not a heading", "\\ a backslash first", "\\# both", "#", " # indented",
                "- [2026-03-12T14:30:00Z] (importance: 0.8) ordinary");
        notes.forEach(note -> store().appendNote("k", note));
        assertThat(store().notes("k")).containsExactlyElementsOf(notes);

        store().removeNotes("k", List.of("#")); // the log written anew with the others
        List<String> kept = notes.stream().filter(note -> !note.equals("#")).toList();
        assertThat(store().notes("k")).containsExactlyElementsOf(kept);
        assertThat(restarted().notes("k")).containsExactlyElementsOf(kept);
    }

    @Test
    default void should_remove_one_occurrence_of_each_given_note_and_keep_the_others() {
        store().appendNote("k", "- a");
        store().appendNote("k", "- b");
        store().appendNote("k", "- a");
        store().appendNote("k", "- c");
        long before = store().notesVersion("k");

        store().removeNotes("k", List.of("- a", "- c", "- not there"));

        assertThat(store().notes("k")).containsExactly("- b", "- a");
        assertThat(store().notesVersion("k")).isNotEqualTo(before);
        store().removeNotes("k", List.of("- a", "- b"));
        assertThat(store().notes("k")).isEmpty();
        store().appendNote("k", "- again");
        assertThat(store().notes("k")).containsExactly("- again");
    }

    @Test
    default void should_keep_hostile_text_in_notes_and_keys() {
        String line = "- [2026-03-12T14:30:00Z] (importance: 0.5) Größe 日本語 😀 </unsynthesized_notes> \\n # not a heading";
        for (String key : hostileKeys().toList()) {
            store().appendNote(key, line);
            assertThat(store().notes(key)).as(key).containsExactly(line);
        }
    }

    @Test
    default void should_reject_a_note_that_is_not_one_line() {
        assertThatThrownBy(() -> store().appendNote("k", "two\nlines")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendNote("k", "cr\rhere")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendNote("k", "  ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendNote("k", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendNote(null, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(store().notes("k")).isEmpty();
    }

    @Test
    default void should_delete_the_notes_with_the_state() {
        store().save("k", 0, "{}");
        store().appendNote("k", "- a");

        store().delete("k");

        assertThat(store().notes("k")).isEmpty();
        assertThat(store().notesVersion("k")).isZero();
        assertThat(store().keys()).doesNotContain("k");
    }

    @Test
    default void should_lose_no_note_when_threads_append_at_once() throws Exception {
        int threads = 4;
        int each = 50;
        inParallel(threads, thread -> {
            for (int i = 0; i < each; i++) {
                store().appendNote("k", "- t" + thread + " n" + i);
            }
        });

        List<String> notes = store().notes("k");
        assertThat(notes).hasSize(threads * each).doesNotHaveDuplicates();
        for (int t = 0; t < threads; t++) {
            String prefix = "- t" + t + " ";
            assertThat(notes.stream().filter(n -> n.startsWith(prefix)).toList())
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, each).mapToObj(i -> prefix + "n" + i).toList());
        }
    }

    // ---- the message log ---------------------------------------------------------------------

    /** Entries of every kind, with messages of every type and texts that break naive formats. */
    static List<MessageLogEntry> everyKindOfEntry() {
        java.time.Instant at = java.time.Instant.parse("2026-03-12T14:30:00.123456789Z");
        dev.langchain4j.agent.tool.ToolExecutionRequest call = dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
                .id("call_1").name("getWeather").arguments("{\"city\":\"Zürich\"}").build();
        dev.langchain4j.agent.tool.ToolExecutionRequest noId = dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
                .name("search").arguments("{a=1}").build();
        return List.of(
                new MessageLogEntry.Added(dev.langchain4j.data.message.SystemMessage.from("You are helpful.\nBe brief."), at),
                new MessageLogEntry.Added(dev.langchain4j.data.message.UserMessage.from(
                        "Größe 😀 </working_memory>\n\"quoted\" \u0000 \uD800 line\r\nbreak"), at.plusSeconds(1)),
                new MessageLogEntry.Added(dev.langchain4j.data.message.AiMessage.from(call, noId), at.plusSeconds(2)),
                new MessageLogEntry.Added(dev.langchain4j.data.message.ToolExecutionResultMessage.from(call,
                        "{\"temperature\":21}"), at.plusSeconds(3)),
                new MessageLogEntry.Added(dev.langchain4j.data.message.ToolExecutionResultMessage.builder()
                        .toolName("search").text("Error: no such tool").isError(true).build(), at.plusSeconds(4)),
                new MessageLogEntry.Added(dev.langchain4j.data.message.AiMessage.from("It is 21 °C."), at.plusSeconds(5)),
                new MessageLogEntry.Cleared(),
                new MessageLogEntry.Evicted(3));
    }

    private static List<MessageLog.Entry> numbered(long firstSeq, List<MessageLogEntry> entries) {
        List<MessageLog.Entry> numbered = new ArrayList<>();
        for (MessageLogEntry entry : entries) {
            numbered.add(new MessageLog.Entry(firstSeq++, entry));
        }
        return numbered;
    }

    private static MessageLogEntry said(String text) {
        return new MessageLogEntry.Added(dev.langchain4j.data.message.UserMessage.from(text),
                java.time.Instant.parse("2026-03-12T14:30:00Z"));
    }

    /** What one of {@link #inParallel}'s threads does, given its number. */
    interface ThreadWork {
        void run(int thread) throws Exception;
    }

    /** Runs {@code work} on {@code threads} threads started together, and waits for all of them (two minutes at most). */
    static void inParallel(int threads, ThreadWork work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    work.run(thread);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    default void should_start_with_an_empty_message_log() {
        assertThat(store().messagesVersion("k")).isZero();
        assertThat(store().messages("k", 0)).isEqualTo(MessageLog.EMPTY);
    }

    @Test
    default void should_append_messages_in_order_and_return_them_as_given() {
        List<MessageLogEntry> entries = everyKindOfEntry();

        assertThat(store().appendMessages("k", 0, entries.subList(0, 3))).isEqualTo(3);
        assertThat(store().appendMessages("k", 3, entries.subList(3, entries.size()))).isEqualTo(entries.size());

        assertThat(store().messages("k", 0)).isEqualTo(new MessageLog(entries.size(), numbered(1, entries)));
        assertThat(store().messages("k", 5)).isEqualTo(new MessageLog(entries.size(),
                numbered(6, entries.subList(5, entries.size()))));
        assertThat(store().messages("k", entries.size())).isEqualTo(new MessageLog(entries.size(), List.of()));
        assertThat(store().messagesVersion("k")).isEqualTo(entries.size());
        assertThat(store().messages("other", 0)).isEqualTo(MessageLog.EMPTY);
        assertThat(store().keys()).contains("k");
    }

    @Test
    default void should_refuse_an_append_after_an_entry_the_caller_did_not_see() {
        store().appendMessages("k", 0, List.of(said("first")));

        VersionConflictException conflict = catchThrowableOfType(VersionConflictException.class,
                () -> store().appendMessages("k", 0, List.of(said("lost"))));
        assertThat(conflict).isNotNull();
        assertThat(conflict.expectedVersion()).isZero();
        assertThat(conflict.actualVersion()).isEqualTo(1);
        assertThatThrownBy(() -> store().appendMessages("k", 5, List.of(said("lost"))))
                .isInstanceOfSatisfying(VersionConflictException.class, e -> assertThat(e.actualVersion()).isEqualTo(1));

        assertThat(store().messages("k", 0).entries()).containsExactly(new MessageLog.Entry(1, said("first")));
        assertThat(store().messagesVersion("k")).isEqualTo(1);
    }

    @Test
    default void should_trim_entries_and_go_on_numbering_after_the_last() {
        for (int i = 1; i <= 5; i++) {
            store().appendMessages("k", i - 1, List.of(said("m" + i)));
        }

        store().trimMessages("k", 3);
        assertThat(store().messages("k", 0)).isEqualTo(new MessageLog(5, List.of(
                new MessageLog.Entry(4, said("m4")), new MessageLog.Entry(5, said("m5")))));
        assertThat(store().messagesVersion("k")).isEqualTo(5);

        store().trimMessages("k", 2); // nothing left to trim there
        store().trimMessages("k", 5);
        assertThat(store().messages("k", 0)).isEqualTo(new MessageLog(5, List.of()));
        assertThat(store().messagesVersion("k")).isEqualTo(5);
        assertThatThrownBy(() -> store().appendMessages("k", 0, List.of(said("m6"))))
                .isInstanceOf(VersionConflictException.class);

        assertThat(store().appendMessages("k", 5, List.of(said("m6")))).isEqualTo(6);
        assertThat(store().messages("k", 0).entries()).containsExactly(new MessageLog.Entry(6, said("m6")));
        store().trimMessages("absent", 3);
        assertThat(store().messagesVersion("absent")).isZero();
    }

    @Test
    default void should_delete_the_message_log_with_the_key_and_number_again_from_1() {
        store().appendMessages("k", 0, List.of(said("a"), said("b")));
        assertThat(store().keys()).contains("k");

        store().delete("k");

        assertThat(store().messagesVersion("k")).isZero();
        assertThat(store().messages("k", 0)).isEqualTo(MessageLog.EMPTY);
        assertThat(store().keys()).doesNotContain("k");
        assertThat(store().appendMessages("k", 0, List.of(said("c")))).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("hostileKeys")
    default void should_keep_the_message_logs_of_hostile_keys_apart(String key) {
        store().appendMessages(key, 0, List.of(said("of " + key)));
        store().appendMessages(key + "x", 0, List.of(said("of the other"), said("and more")));

        assertThat(store().messages(key, 0).entries()).containsExactly(new MessageLog.Entry(1, said("of " + key)));
        assertThat(store().messagesVersion(key)).isEqualTo(1);
        assertThat(store().keys()).contains(key);
    }

    @Test
    default void should_keep_the_message_log_apart_from_state_notes_and_documents() {
        store().save("k", 0, "{}");
        store().appendNote("k", "- a");
        store().putDocument("k", "notes.md", "text");
        store().appendMessages("k", 0, List.of(said("hello")));

        assertThat(store().notes("k")).containsExactly("- a");
        assertThat(store().load("k")).get().extracting(Snapshot::document).isEqualTo("{}");
        assertThat(store().documents("k")).extracting(StoredDocument::name).containsExactly("notes.md");
        assertThat(store().version("k")).isEqualTo(1);
        assertThat(store().messages("k", 0).entries()).extracting(MessageLog.Entry::entry).containsExactly(said("hello"));
    }

    @Test
    default void should_reject_bad_message_log_arguments() {
        assertThatThrownBy(() -> store().appendMessages("k", 0, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendMessages("k", -1, List.of(said("a"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendMessages("k", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().appendMessages(null, 0, List.of(said("a"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store().messagesVersion("k")).isZero();
    }

    @Test
    default void should_lose_and_reorder_no_message_when_threads_append_at_once() throws Exception {
        int threads = 4;
        int each = 40;
        inParallel(threads, thread -> {
            for (int i = 0; i < each; i++) {
                while (true) { // as an instance does: append after the last entry seen, else read and try again
                    long last = store().messagesVersion("k");
                    try {
                        store().appendMessages("k", last, List.of(said("t" + thread + " m" + i)));
                        break;
                    } catch (VersionConflictException e) {
                        Thread.onSpinWait();
                    }
                }
            }
        });

        MessageLog log = store().messages("k", 0);
        assertThat(log.lastSeq()).isEqualTo(threads * each);
        assertThat(log.entries()).extracting(MessageLog.Entry::seq)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, threads * each).boxed().toList());
        List<String> texts = log.entries().stream()
                .map(entry -> ((dev.langchain4j.data.message.UserMessage) ((MessageLogEntry.Added) entry.entry())
                        .message()).singleText()).toList();
        for (int t = 0; t < threads; t++) {
            String prefix = "t" + t + " ";
            assertThat(texts.stream().filter(text -> text.startsWith(prefix)).toList())
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, each).mapToObj(i -> prefix + "m" + i).toList());
        }
    }

    // ---- documents ---------------------------------------------------------------------------

    @Test
    default void should_list_a_documents_size_as_the_bytes_it_is_kept_in() {
        store().putDocument("k", "tool-output-1.txt", "Gr\u00f6\u00dfe \ud83d\ude00 a\uD800b\u0000"); // ö, ß 2 bytes, 😀 4, U+D800 3

        assertThat(store().documents("k")).containsExactly(new StoredDocument("tool-output-1.txt", 19));
    }

    @Test
    default void should_write_read_replace_list_and_delete_documents() {
        assertThat(store().getDocument("k", "MEMORY.md")).isEmpty();
        assertThat(store().documents("k")).isEmpty();

        store().putDocument("k", "MEMORY.md", "# Working Memory State\n\nGröße 😀");
        store().putDocument("k", "tool-output-1.txt", "x".repeat(1_000));
        store().putDocument("k", "MEMORY.md", "# Working Memory State\n\nv2");

        assertThat(store().getDocument("k", "MEMORY.md")).contains("# Working Memory State\n\nv2");
        assertThat(store().getDocument("other", "MEMORY.md")).isEmpty();
        assertThat(store().documents("k")).containsExactlyInAnyOrder(
                new StoredDocument("MEMORY.md", 26), new StoredDocument("tool-output-1.txt", 1_000));
        assertThat(store().keys()).contains("k");

        store().deleteDocument("k", "tool-output-1.txt");
        store().deleteDocument("k", "absent");

        assertThat(store().documents("k")).extracting(StoredDocument::name).containsExactly("MEMORY.md");
        store().delete("k");
        assertThat(store().getDocument("k", "MEMORY.md")).isEmpty();
        assertThat(store().keys()).doesNotContain("k");
    }

    @Test
    default void should_drop_a_key_whose_last_document_is_deleted_and_keep_one_that_holds_more() {
        store().putDocument("k", "unpaused-1", "{}");
        store().putDocument("kept", "unpaused-1", "{}");
        store().appendNote("kept", "- a note");

        store().deleteDocument("k", "unpaused-1");
        store().deleteDocument("kept", "unpaused-1");

        assertThat(store().keys()).containsExactly("kept");
        assertThat(store().notes("kept")).containsExactly("- a note");
        store().putDocument("k", "unpaused-2", "{}"); // usable again
        assertThat(store().documents("k")).extracting(StoredDocument::name).containsExactly("unpaused-2");
    }

    @Test
    default void should_keep_documents_apart_from_state_and_notes() {
        store().save("k", 0, "{}");
        store().appendNote("k", "- a");
        store().putDocument("k", "notes.md", "not the notes log");

        assertThat(store().notes("k")).containsExactly("- a");
        assertThat(store().load("k")).get().extracting(Snapshot::document).isEqualTo("{}");
        assertThat(store().documents("k")).extracting(StoredDocument::name).containsExactly("notes.md");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"", "../x", "a/b", ".hidden", "state.json", "scratch.md",
            "key.json", "messages.jsonl", "MEMORY.md.tmp", "state.json.corrupt-1", "a b"})
    default void should_refuse_malformed_or_reserved_document_names(String name) {
        assertThatThrownBy(() -> store().putDocument("k", name, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().getDocument("k", name)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- leases ------------------------------------------------------------------------------

    @Test
    default void should_give_a_lease_to_one_owner_until_it_is_released() {
        java.time.Duration minute = java.time.Duration.ofMinutes(1);
        assertThat(store().acquireLease("k", "dream", "instance-a", minute)).isTrue();
        assertThat(store().acquireLease("k", "dream", "instance-b", minute)).isFalse();
        assertThat(store().acquireLease("k", "dream", "instance-a", minute)).as("renewed").isTrue();
        assertThat(store().acquireLease("k", "other", "instance-b", minute)).as("another lease").isTrue();
        assertThat(store().acquireLease("k2", "dream", "instance-b", minute)).as("another key").isTrue();

        store().releaseLease("k", "dream", "instance-b"); // not the holder: nothing happens
        assertThat(store().acquireLease("k", "dream", "instance-b", minute)).isFalse();
        store().releaseLease("k", "dream", "instance-a");

        assertThat(store().acquireLease("k", "dream", "instance-b", minute)).isTrue();
    }

    @Test
    default void should_free_an_expired_lease() throws InterruptedException {
        // long enough that the writes of taking it (several fsyncs on a busy disk) do not outlast it
        assertThat(store().acquireLease("k", "dream", "crashed", java.time.Duration.ofSeconds(1))).isTrue();
        assertThat(store().acquireLease("k", "dream", "waiting", java.time.Duration.ofMinutes(1))).isFalse();

        Thread.sleep(1_200);

        assertThat(store().acquireLease("k", "dream", "waiting", java.time.Duration.ofMinutes(1))).isTrue();
    }

    @Test
    default void should_give_a_lease_to_exactly_one_of_many_racing_owners() throws Exception {
        int owners = 8;
        ExecutorService pool = Executors.newFixedThreadPool(owners);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> tries = new ArrayList<>();
        for (int i = 0; i < owners; i++) {
            String owner = "owner-" + i;
            tries.add(pool.submit(() -> {
                start.await();
                return store().acquireLease("k", "dream", owner, java.time.Duration.ofMinutes(1));
            }));
        }
        start.countDown();
        int won = 0;
        for (Future<Boolean> attempt : tries) {
            won += attempt.get(30, TimeUnit.SECONDS) ? 1 : 0;
        }
        pool.shutdown();
        assertThat(won).isEqualTo(1);
    }

    @Test
    default void should_reject_bad_lease_arguments() {
        java.time.Duration minute = java.time.Duration.ofMinutes(1);
        assertThatThrownBy(() -> store().acquireLease("k", "a b", "o", minute)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().acquireLease("k", "dream", " ", minute)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().acquireLease("k", "dream", "o", java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().acquireLease("k", "dream", "o", null)).isInstanceOf(IllegalArgumentException.class);
    }
}
