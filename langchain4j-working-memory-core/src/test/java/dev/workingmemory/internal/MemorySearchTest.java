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

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
                    + filler.repeat(6), Passages.MAX_CHARS);
            List<Crystal> crystals = new ArrayList<>();
            for (int i = 0; i < pieces.size(); i++) {
                crystals.add(new Crystal(Passages.id("note-a", i), "alice", CrystalKind.NOTE, T0, 0.7,
                        Passages.pieceTags(List.of()), pieces.get(i), null));
            }
            store.add(crystals);
            MemorySearch search = new MemorySearch(store, CharsPerTokenEstimator.INSTANCE, 600, 1_000,
                    WorkingMemoryListener.NONE);

            List<MemoryHit> hits = search.search("alice", "security audit June", 1);

            assertThat(pieces).hasSizeGreaterThan(2);
            assertThat(hits).singleElement().extracting(MemoryHit::text).asString()
                    .contains("The security audit ends on June 14th").doesNotContain("…");
            assertThat(search.search("alice", "security audit June", 10)).isNotEmpty() // windows shown whole again
                    .allMatch(hit -> !hit.text().contains("…"));
            assertThat(reads).as("every piece was a candidate: none read again").hasValue(0);
        }
    }
}
