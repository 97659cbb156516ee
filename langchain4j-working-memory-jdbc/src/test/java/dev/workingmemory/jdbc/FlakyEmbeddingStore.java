package dev.workingmemory.jdbc;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.TestEmbeddingModels;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An application's embedding store that can be down (every call fails, as when unreachable) or refuse the entries of
 * chosen crystals every time (as a store refuses an entry it finds invalid), and counts what it took. Thread-safe.
 */
final class FlakyEmbeddingStore extends InMemoryEmbeddingStore<TextSegment> {

    private volatile boolean down;
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failedCalls = new AtomicInteger();
    private final Map<String, AtomicInteger> refusals = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> adds = new ConcurrentHashMap<>();

    /** Down (every call fails) or up again. */
    FlakyEmbeddingStore down(boolean down) {
        this.down = down;
        return this;
    }

    /** Refuses every entry of this crystal, whatever else the call holds. */
    FlakyEmbeddingStore refusing(String crystalId) {
        refused.add(crystalId);
        return this;
    }

    private void checkUp() {
        if (down) {
            failedCalls.incrementAndGet();
            throw new IllegalStateException("Connection refused: the embedding store is unreachable");
        }
    }

    @Override
    public void addAll(List<String> ids, List<Embedding> embeddings, List<TextSegment> embedded) {
        checkUp();
        for (TextSegment segment : embedded) {
            String crystalId = segment.metadata().getString("crystal_id");
            if (refused.contains(crystalId)) {
                refusals.computeIfAbsent(crystalId, id -> new AtomicInteger()).incrementAndGet();
                throw new IllegalArgumentException("400: entry " + crystalId + " refused");
            }
        }
        super.addAll(ids, embeddings, embedded);
        embedded.forEach(segment -> adds.computeIfAbsent(segment.metadata().getString("crystal_id"),
                id -> new AtomicInteger()).incrementAndGet());
    }

    @Override
    public void removeAll(Collection<String> ids) {
        checkUp();
        super.removeAll(ids);
    }

    @Override
    public void removeAll(Filter filter) {
        checkUp();
        super.removeAll(filter);
    }

    /** The crystal ids of the entries it holds, sorted. */
    List<String> crystalIds() {
        return search(EmbeddingSearchRequest.builder().queryEmbedding(TestEmbeddingModels.hashing().embed("turn")
                .content()).maxResults(10_000).minScore(0.0).build()).matches().stream()
                .map(match -> match.embedded().metadata().getString("crystal_id")).sorted().toList();
    }

    /** Calls that failed because it was down. */
    int failedCalls() {
        return failedCalls.get();
    }

    /** Calls that refused the crystal's entry. */
    int refusals(String crystalId) {
        AtomicInteger count = refusals.get(crystalId);
        return count == null ? 0 : count.get();
    }

    /** How many times each crystal's entry was added. */
    Map<String, Integer> adds() {
        return adds.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                entry -> entry.getValue().get()));
    }
}
