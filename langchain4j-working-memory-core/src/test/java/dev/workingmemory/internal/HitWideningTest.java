package dev.workingmemory.internal;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.MemoryHit;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The rest of the budget spent on the neighbouring passages of each hit's whole. */
class HitWideningTest {

    private static final CharsPerTokenEstimator TOKENS = CharsPerTokenEstimator.INSTANCE;
    private static final Instant TIME = Instant.parse("2026-03-01T10:00:00Z");
    private final Map<String, Crystal> stored = new HashMap<>();

    private void passage(String id, String text) {
        stored.put(id, new Crystal(id, "alice", CrystalKind.TURN, TIME, 0.5, List.of(), text, null));
    }

    private MemoryHit hit(String id) {
        String text = stored.get(id).text();
        return new MemoryHit(id, CrystalKind.TURN, TIME, text, 1, TOKENS.estimateTokenCountInText(text));
    }

    private List<MemoryHit> widen(int budget, MemoryHit... hits) {
        return HitWidening.widen(List.of(hits), id -> Optional.ofNullable(stored.get(id)), TOKENS, budget);
    }

    private static int tokens(List<MemoryHit> hits) {
        return hits.stream().mapToInt(MemoryHit::tokens).sum();
    }

    @Test
    void should_widen_a_hit_with_the_passages_around_it_in_order_within_the_budget() {
        passage("turn-a#0", "user: Caroline: I went to a support group yesterday.");
        passage("turn-a#1", "assistant: Melanie: That sounds brave. How did it feel?");
        passage("turn-a#2", "user: Caroline: It was powerful, I felt accepted there.");

        List<MemoryHit> all = widen(600, hit("turn-a#1"));
        assertThat(all).singleElement().satisfies(hit -> {
            assertThat(hit.id()).isEqualTo("turn-a#1");
            assertThat(hit.text()).isEqualTo(stored.get("turn-a#0").text() + "\n" + stored.get("turn-a#1").text()
                    + "\n" + stored.get("turn-a#2").text());
            assertThat(hit.tokens()).isEqualTo(TOKENS.estimateTokenCountInText(hit.text()));
        });

        // room for one more passage: the one after comes first
        int one = hit("turn-a#1").tokens() + hit("turn-a#2").tokens() + 1;
        assertThat(widen(one, hit("turn-a#1"))).singleElement().extracting(MemoryHit::text)
                .isEqualTo(stored.get("turn-a#1").text() + "\n" + stored.get("turn-a#2").text());
        // the one after does not fit: the shorter one before does
        assertThat(widen(one - 1, hit("turn-a#1"))).singleElement().extracting(MemoryHit::text)
                .isEqualTo(stored.get("turn-a#0").text() + "\n" + stored.get("turn-a#1").text());
        assertThat(widen(hit("turn-a#1").tokens(), hit("turn-a#1"))).singleElement().extracting(MemoryHit::text)
                .isEqualTo(stored.get("turn-a#1").text());
    }

    @Test
    void should_widen_the_best_hit_first_a_passage_per_round_and_stay_within_the_budget() {
        passage("turn-a#0", "user: first exchange, first line of it");
        passage("turn-a#1", "assistant: first exchange, the answer to it");
        passage("turn-b#0", "user: second exchange, first line of it");
        passage("turn-b#1", "assistant: second exchange, the answer to it");
        MemoryHit a = hit("turn-a#0");
        MemoryHit b = hit("turn-b#0");
        int room = a.tokens() + b.tokens() + hit("turn-a#1").tokens() + 1;

        List<MemoryHit> hits = widen(room, a, b);

        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-a#0", "turn-b#0");
        assertThat(hits.get(0).text()).contains("the answer to it");
        assertThat(hits.get(1).text()).isEqualTo(b.text());
        assertThat(tokens(hits)).isLessThanOrEqualTo(room);
    }

    @Test
    void should_merge_a_neighbouring_hit_into_the_wider_one_rather_than_show_it_twice() {
        passage("turn-a#0", "user: the Flask app stores its data in SQLite");
        passage("turn-a#1", "assistant: SQLite keeps the whole database in one file");
        passage("turn-a#2", "user: and backups?");

        List<MemoryHit> hits = widen(600, hit("turn-a#1"), hit("turn-a#0"));

        assertThat(hits).singleElement().satisfies(hit -> {
            assertThat(hit.id()).isEqualTo("turn-a#1");
            assertThat(hit.text()).startsWith(stored.get("turn-a#0").text() + "\n")
                    .endsWith("\n" + stored.get("turn-a#2").text());
        });
    }

    @Test
    void should_keep_an_earlier_value_apart_from_the_newer_one_and_leave_whole_crystals_as_they_are() {
        passage("turn-a#0", "user: the first sprint ends on April 1");
        passage("turn-a#1", "user: the first sprint ends on April 5 now");
        passage("note-x", "Lunch with Ana on Friday");
        MemoryHit newer = hit("turn-a#1");
        MemoryHit older = hit("turn-a#0").markedEarlierThan("turn-a#1");

        List<MemoryHit> hits = widen(600, newer, older, hit("note-x"));

        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-a#1", "turn-a#0", "note-x");
        assertThat(hits).extracting(MemoryHit::text).containsExactly(newer.text(), older.text(),
                "Lunch with Ana on Friday");
        assertThat(hits.get(1).earlierThan()).isEqualTo("turn-a#1");
    }

    @Test
    void should_show_a_windowed_piece_whole_before_widening_it_when_the_budget_allows() {
        String piece = "user: we compared three databases for the tracker. SQLite keeps everything in one file next to"
                + " the jar, which is what we picked for the first release.";
        stored.put("turn-b#1", new Crystal("turn-b#1", "alice", CrystalKind.TURN, TIME, 0.5, List.of(Crystal.PIECE),
                piece, null));
        passage("turn-b#2", "user: backups run nightly, and every backup is copied to a second region within the"
                + " hour, then checked by restoring it into a scratch database.");
        String window = "user: …SQLite keeps everything in one file…";
        MemoryHit windowed = new MemoryHit("turn-b#1", CrystalKind.TURN, TIME, window, 1,
                TOKENS.estimateTokenCountInText(window));
        int whole = TOKENS.estimateTokenCountInText(piece);

        assertThat(widen(whole, windowed)).singleElement().extracting(MemoryHit::text).isEqualTo(piece);
        assertThat(widen(whole - 1, windowed)).as("the whole piece does not fit").singleElement()
                .extracting(MemoryHit::text).isEqualTo(window);
        assertThat(widen(600, windowed)).singleElement().satisfies(hit -> {
            assertThat(hit.text()).isEqualTo(piece + "\n" + stored.get("turn-b#2").text());
            assertThat(hit.tokens()).isEqualTo(TOKENS.estimateTokenCountInText(hit.text()));
        });
    }

    @Test
    void should_not_read_the_store_for_a_whole_crystal_that_was_shown_whole() {
        stored.put("note-x", new Crystal("note-x", "alice", CrystalKind.NOTE, TIME, 0.5, List.of(),
                "Lunch with Ana on Friday", null));
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();

        List<MemoryHit> hits = HitWidening.widen(List.of(hit("note-x")), id -> {
            reads.incrementAndGet();
            return Optional.ofNullable(stored.get(id));
        }, TOKENS, 600);

        assertThat(hits).extracting(MemoryHit::text).containsExactly("Lunch with Ana on Friday");
        assertThat(reads).hasValue(0);
    }

    @Test
    void should_read_nothing_of_a_whole_whose_passages_are_gone() {
        passage("turn-a#3", "assistant: the last passage left");

        assertThat(widen(600, hit("turn-a#3"))).singleElement().extracting(MemoryHit::text)
                .isEqualTo("assistant: the last passage left");
    }
}
