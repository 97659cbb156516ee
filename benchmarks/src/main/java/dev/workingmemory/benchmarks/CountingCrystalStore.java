package dev.workingmemory.benchmarks;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A crystal store that counts what it is given and keeps nothing: measures what making crystals costs the caller
 * (the past-turns layer on {@code add()}), apart from the embedding and indexing a real store runs behind it.
 * Thread-safe.
 */
final class CountingCrystalStore implements CrystalStore {

    private final LongAdder added = new LongAdder();

    long added() {
        return added.sum();
    }

    @Override
    public void add(List<Crystal> crystals) {
        added.add(crystals.size());
    }

    @Override
    public List<CrystalHit> search(CrystalQuery query) {
        return List.of();
    }

    @Override
    public Optional<Crystal> get(String id) {
        return Optional.empty();
    }

    @Override
    public List<Crystal> recent(String scope, Instant after, int limit) {
        return List.of();
    }

    @Override
    public int count(String scope) {
        return 0;
    }

    @Override
    public List<String> keywords(String crystalId, int max) {
        return List.of();
    }

    @Override
    public void delete(String scope, Collection<String> ids) {
    }

    @Override
    public void deleteScope(String scope) {
    }

    @Override
    public void close() {
    }
}
