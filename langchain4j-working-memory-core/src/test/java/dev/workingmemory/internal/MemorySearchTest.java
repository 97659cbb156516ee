package dev.workingmemory.internal;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.event.WorkingMemoryListener;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code WorkingMemory.search}'s pipeline: the store's candidates, the choice, the widening. */
class MemorySearchTest {

    private static final Instant T0 = Instant.parse("2026-03-12T14:30:00Z");

    /** A store that counts the crystals it gave one by one (a read past a whole's last passage finds none). */
    private record CountingReads(CrystalStore store, AtomicInteger reads) implements CrystalStore {
        public void add(List<Crystal> crystals) { store.add(crystals); }
        public List<CrystalHit> search(CrystalQuery query) { return store.search(query); }
        public Optional<Crystal> get(String id) {
            Optional<Crystal> found = store.get(id);
            found.ifPresent(crystal -> reads.incrementAndGet());
            return found;
        }
        public List<Crystal> recent(String scope, Instant after, int limit) { return store.recent(scope, after, limit); }
        public int count(String scope) { return store.count(scope); }
        public List<String> keywords(String crystalId, int max) { return store.keywords(crystalId, max); }
        public void delete(String scope, Collection<String> ids) { store.delete(scope, ids); }
        public void deleteScope(String scope) { store.deleteScope(scope); }
        public int pendingCount() { return store.pendingCount(); }
        public void close() { store.close(); }
    }

    @Test
    void should_widen_from_the_candidates_in_hand_without_reading_them_again() {
        AtomicInteger reads = new AtomicInteger();
        try (CrystalStore store = new CountingReads(EmbeddedCrystalStore.builder()
                .embeddingModel(TestEmbeddingModels.hashing()).build(), reads)) {
            String filler = "The team met in the large room and went through the open tickets one by one. ";
            List<String> pieces = Passages.of(filler.repeat(6) + "The security audit ends on June 14th. "
                    + filler.repeat(6), Passages.MAX_SIZE);
            List<Crystal> crystals = new ArrayList<>();
            for (int i = 0; i < pieces.size(); i++) {
                crystals.add(new Crystal(Passages.id("note-a", i), "alice", CrystalKind.NOTE, T0, 0.7,
                        Passages.pieceTags(List.of()), pieces.get(i), null));
            }
            store.add(crystals);
            MemorySearch search = new MemorySearch(store, CharsPerTokenEstimator.INSTANCE, 600, 1_000,
                    WorkingMemoryListener.NONE, Clock.systemUTC());

            List<MemoryHit> hits = search.search("alice", "security audit June", 1);

            assertThat(pieces).hasSizeGreaterThan(2);
            assertThat(hits).singleElement().extracting(MemoryHit::text).asString()
                    .contains("The security audit ends on June 14th").doesNotContain("…");
            assertThat(search.search("alice", "security audit June", 10)).isNotEmpty() // windows shown whole again
                    .allMatch(hit -> !hit.text().contains("…"));
            assertThat(reads).as("every piece was a candidate: none read again").hasValue(0);
        }
    }

    @Test
    void should_find_first_what_was_said_on_the_day_asked_about_even_far_down_the_text_order() {
        try (CrystalStore store = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.hashing()).build()) {
            List<Crystal> crystals = new ArrayList<>();
            Instant day = Instant.parse("2022-01-01T12:00:00Z");
            for (int i = 0; i < 150; i++) {
                String text = i == 97 ? "user: Here it is, the little dog I promised"
                        : "user: Nate and Joanna talked about games, turtles and screenplays, part " + i;
                crystals.add(new Crystal("turn-" + i + "#0", "alice", CrystalKind.TURN, day.plus(Duration.ofDays(3L * i)),
                        0.5, List.of(), text, null));
            }
            store.add(crystals);
            MemorySearch search = new MemorySearch(store, CharsPerTokenEstimator.INSTANCE, 600, 1_000,
                    WorkingMemoryListener.NONE, Clock.systemUTC());
            String dayOf97 = DateTimeFormatter.ofPattern("MMMM d, yyyy", Locale.ENGLISH)
                    .format(day.plus(Duration.ofDays(3L * 97)).atZone(ZoneOffset.UTC));

            String query = "What did Nate do for Joanna on " + dayOf97 + "?";
            List<String> textOrder = store.search(new CrystalQuery("alice", query, 150)).stream()
                    .map(hit -> hit.crystal().id()).toList();
            assertThat(textOrder.indexOf("turn-97#0")).as("beyond the usual 50 candidates").isGreaterThan(50);

            assertThat(search.search("alice", query, 10))
                    .extracting(MemoryHit::id).first().isEqualTo("turn-97#0");
            assertThat(search.search("alice", "What did Nate do for Joanna?", 10)).extracting(MemoryHit::id)
                    .as("no day asked about: the pup shares no word with the question").doesNotContain("turn-97#0");
        }
    }
}
