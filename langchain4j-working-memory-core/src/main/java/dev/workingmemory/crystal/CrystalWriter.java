package dev.workingmemory.crystal;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.CrystalIndex.Marker;
import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.crystal.PendingQueue.Pending;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

/**
 * Every change of an embedded crystal store's records, index and vectors, made under one lock so that the three
 * agree: the recorder's appends, the indexer's batches, reconciliations and read backs, and the callers' deletes.
 * Records come first: a crystal is recorded before it is indexed (by the recorder, or by the indexer when it gets to
 * the crystal first), and the index commits only after the records it holds are forced to disk. A record older
 * than the indexed crystal of its id (by seq, the order of adds) never replaces it.
 *
 * <p>Thread-safe: every method takes {@link #lock}.
 */
final class CrystalWriter {

    private static final Logger log = LoggerFactory.getLogger(CrystalWriter.class);

    static final String CRYSTAL_ID = "crystal_id";
    static final String SCOPE = "scope";
    static final String KIND = "kind";

    final ReentrantLock lock = new ReentrantLock();

    private final CrystalIndex index;
    private final RecordLog records; // null in memory
    private final EmbeddingStore<TextSegment> vectors;
    private final boolean ownVectors;
    private final PendingQueue queue;
    /** Scopes whose records changed since their marker was last written. */
    private final Set<String> touched = new HashSet<>();
    private boolean dirty;

    CrystalWriter(CrystalIndex index, RecordLog records, EmbeddingStore<TextSegment> vectors, PendingQueue queue) {
        this.index = index;
        this.records = records;
        this.vectors = vectors;
        this.ownVectors = vectors instanceof LuceneEmbeddingStore;
        this.queue = queue;
    }

    /** The most crystals written that the searchers may not show before the writer refreshes them itself. */
    static final int UNSHOWN_LIMIT = 10_000;

    static String vectorId(String crystalId) {
        return UUID.nameUUIDFromBytes(("crystal:" + crystalId).getBytes(StandardCharsets.UTF_8)).toString();
    }

    static TextSegment segment(Crystal crystal) {
        Metadata metadata = new Metadata()
                .put(CRYSTAL_ID, crystal.id())
                .put(SCOPE, crystal.scope())
                .put(KIND, crystal.kind().textName());
        return TextSegment.from(crystal.textToIndex(), metadata);
    }

    /** Makes the batches written so far visible to searches (a read does it too, when none has). */
    void showWritten() throws IOException {
        index.refreshIfWritten();
    }

    /**
     * Records (unless recovered), indexes and stores the vectors of a batch; skips the crystals cancelled by a
     * delete. {@code embeddings} is aligned with the batch; a null embedding indexes that crystal for keywords only.
     */
    void write(List<Pending> batch, List<Embedding> embeddings) throws IOException {
        lock.lock();
        try {
            Map<String, List<Integer>> byScope = new LinkedHashMap<>();
            for (int i = 0; i < batch.size(); i++) {
                if (!batch.get(i).cancelled && !batch.get(i).refused) {
                    byScope.computeIfAbsent(batch.get(i).crystal.scope(), s -> new ArrayList<>()).add(i);
                }
            }
            Attempt attempt = new Attempt();
            for (Map.Entry<String, List<Integer>> group : byScope.entrySet()) {
                writeScope(group.getKey(), group.getValue(), batch, embeddings, attempt);
            }
            settle(attempt);
            index.written(); // visible to the next read, which refreshes once for every batch before it
            if (index.unshownCount() > UNSHOWN_LIMIT) {
                index.refreshIfWritten(); // what the index remembers of them stays bounded
            }
        } finally {
            lock.unlock();
        }
    }

    private void writeScope(String scope, List<Integer> positions, List<Pending> batch, List<Embedding> embeddings,
                            Attempt attempt) throws IOException {
        List<Stored> toRecord = new ArrayList<>();
        List<String> crystalIds = new ArrayList<>();
        for (int i : positions) {
            Pending pending = batch.get(i);
            if (!pending.recorded) {
                toRecord.add(new Stored(pending.seq, pending.crystal));
            }
            crystalIds.add(pending.crystal.id());
        }
        if (records != null && !toRecord.isEmpty()) {
            records.append(scope, toRecord);
            for (int i : positions) {
                batch.get(i).recorded = true; // neither a retry nor the recorder records it again
            }
        }
        Map<String, CrystalIndex.Indexed> previous = index.indexed(crystalIds);
        List<Copy> copies = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (int i : positions) {
            Pending pending = batch.get(i);
            CrystalIndex.Indexed indexed = previous.get(pending.crystal.id());
            if (indexed != null && indexed.seq() > pending.seq) {
                continue; // a later add of the id is indexed already (this one was read back from the records)
            }
            if (indexed != null && !indexed.scope().equals(scope) && records != null) {
                // the id moves to another scope: its old record goes
                records.rewrite(indexed.scope(), stored -> !stored.crystal().id().equals(pending.crystal.id()));
                queue.rewritten(indexed.scope());
                touched.add(indexed.scope());
            }
            String vectorId = vectorId(pending.crystal.id());
            try {
                index.put(new Stored(pending.seq, pending.crystal));
            } catch (RefusedByIndex e) {
                if (refused(pending, e)) {
                    stale.add(vectorId);
                }
                continue;
            }
            Embedding embedding = pending.vectorRefused ? null : embeddings.get(i);
            if (embedding != null && ownVectors) {
                // one entry at a time, each refusal its crystal's own (an application's store takes a scope's entries
                // at once, and one at a time only when that fails: see copy)
                try {
                    ((LuceneEmbeddingStore) vectors).put(vectorId, embedding, segment(pending.crystal));
                } catch (RefusedByIndex e) {
                    pending.vectorRefused = true;
                    log.error("The crystal index refuses the vector of crystal '{}' of scope '{}' ({}): the crystal"
                            + " is indexed for keywords only (its vector is made again when the index is rebuilt)",
                            pending.crystal.id(), scope, e.getMessage());
                    embedding = null;
                }
            } else if (embedding != null) {
                copies.add(new Copy(pending, vectorId, embedding, segment(pending.crystal)));
                if (indexed != null) {
                    stale.add(vectorId); // most stores add a second entry under an id they hold
                }
            }
            if (embedding == null && indexed != null) {
                stale.add(vectorId);
            }
        }
        copy(stale, copies, attempt);
        touched.add(scope);
        dirty = true;
    }

    /** A crystal's vector to add to an application's embedding store. */
    private record Copy(Pending pending, String vectorId, Embedding embedding, TextSegment segment) {
    }

    /**
     * What one write of a batch (an attempt: the indexer retries the batch while the write throws) learned of an
     * application's embedding store: whether it took any entry or answered a read, and which entries it refused.
     */
    private static final class Attempt {
        /** Whether the store took an entry or answered a read in this attempt: it works, its refusals are real. */
        boolean working;
        /** What the store threw for each entry it refused (by identity: one entry per pending). */
        final Map<Pending, RuntimeException> refused = new LinkedHashMap<>();
    }

    /**
     * Removes the stale vectors of a scope's batch and adds its new ones: all at once, and when that fails, one entry
     * at a time (each removed first: most stores add a second entry under an id they hold, and the failed batch may
     * have added some), so that one entry refused every time (a metadata check, a column too short, a constraint)
     * holds back no other. An entry refused while the store is unreachable is no refusal of its own: when no add of
     * the attempt succeeded, a read ({@code search}, one result) tells the two apart, and when it fails too the
     * batch's failure is thrown (retried with nothing counted: an unreachable store loses no vector).
     */
    private void copy(List<String> stale, List<Copy> copies, Attempt attempt) {
        try {
            if (!stale.isEmpty()) {
                vectors.removeAll(stale);
            }
            if (!copies.isEmpty()) {
                vectors.addAll(copies.stream().map(Copy::vectorId).toList(),
                        copies.stream().map(Copy::embedding).toList(), copies.stream().map(Copy::segment).toList());
                attempt.working = true;
            }
            return;
        } catch (RuntimeException failure) {
            if (copies.isEmpty()) { // the index's own vectors, or only removals
                throw failure;
            }
            Set<String> adding = new HashSet<>(copies.stream().map(Copy::vectorId).toList());
            List<String> dropped = stale.stream().filter(id -> !adding.contains(id)).toList();
            if (!dropped.isEmpty()) {
                vectors.removeAll(dropped); // what fails here is retried with the batch
            }
            for (Copy copy : copies) {
                try {
                    vectors.removeAll(List.of(copy.vectorId()));
                    vectors.addAll(List.of(copy.vectorId()), List.of(copy.embedding()), List.of(copy.segment()));
                    attempt.working = true;
                } catch (RuntimeException refusal) {
                    if (!attempt.working && !answersRead(copy.embedding(), failure)) {
                        throw failure;
                    }
                    attempt.working = true;
                    attempt.refused.put(copy.pending(), refusal);
                }
            }
        }
    }

    /** Whether the application's store answers a read; what it throws is added to {@code failure}. */
    private boolean answersRead(Embedding anyOfItsDimension, RuntimeException failure) {
        try {
            vectors.search(EmbeddingSearchRequest.builder().queryEmbedding(anyOfItsDimension).maxResults(1).build());
            return true;
        } catch (RuntimeException unreachable) {
            failure.addSuppressed(unreachable);
            return false;
        }
    }

    /**
     * Counts one failure on each entry the application's store refused in this attempt while it worked, once every
     * scope of the batch is written. An entry refused {@link Retries#SINGLE_ATTEMPTS} times is given up: its crystal
     * stays indexed for keywords (the store holds the vectors searched) and its vector is not written again (it is
     * when the index is rebuilt); retried, it would hold back every user's crystals. While others are left, the batch
     * is retried.
     *
     * @throws IOException when an entry refused fewer times is left
     */
    private void settle(Attempt attempt) throws IOException {
        Map.Entry<Pending, RuntimeException> again = null;
        int left = 0;
        for (Map.Entry<Pending, RuntimeException> refused : attempt.refused.entrySet()) {
            Pending pending = refused.getKey();
            if (++pending.vectorFailures < Retries.SINGLE_ATTEMPTS) {
                again = again == null ? refused : again;
                left++;
                continue;
            }
            pending.vectorRefused = true; // a retry of the batch (another crystal's failure) removes it, if there
            log.error("The embedding store refuses the vector of crystal '{}' of scope '{}' ({}), {} times while it is"
                    + " reachable: the crystal is indexed for keywords only and its vector is not written again (it is"
                    + " when the index is rebuilt)", pending.crystal.id(), pending.crystal.scope(),
                    refused.getValue().toString(), Retries.SINGLE_ATTEMPTS);
        }
        if (again != null) {
            Pending pending = again.getKey();
            throw new IOException("The embedding store refuses the vector of crystal '" + pending.crystal.id()
                    + "' of scope '" + pending.crystal.scope() + "' (failure " + pending.vectorFailures + " of "
                    + Retries.SINGLE_ATTEMPTS + " before it is given up)" + (left > 1 ? ", and " + (left - 1)
                    + " other(s)" : "") + ": " + again.getValue(), again.getValue());
        }
    }

    /**
     * Leaves a crystal the index refuses out, for good: retried, it would hold back every crystal behind it. Its
     * record stays (the records are the source of truth, and what it holds may be indexed by a later version); its
     * batch goes on, and is then done with it, so no read waits for it. An older version of its id is dropped from
     * the index, as a newer add of the id replaces it: the records no longer hold that one. Read back from the
     * records again (the index rebuilt, its scope compared after a crash), it is refused the same way, once.
     *
     * @return whether an older version was dropped (its vector goes too)
     */
    private boolean refused(Pending pending, RefusedByIndex refusal) throws IOException {
        pending.refused = true; // a retry of the batch (another crystal's I/O failure) passes it by
        log.error("The crystal index refuses crystal '{}' of scope '{}' ({}): it is left out of the index and not"
                        + " retried (its record stays; a search does not find it)", pending.crystal.id(),
                pending.crystal.scope(), refusal.getMessage());
        String id = pending.crystal.id();
        CrystalIndex.Indexed older = index.indexed(List.of(id)).get(id); // perhaps put earlier in this batch
        if (older == null) {
            return false;
        }
        index.delete(older.scope(), List.of(id));
        return true;
    }

    /**
     * Records the recorder's batch (in the order of adds, by scope), skipping what is cancelled or recorded already;
     * the scopes of deferred crystals are marked to be read back from where their records begin.
     */
    void record(List<Pending> batch) throws IOException {
        lock.lock();
        try {
            Map<String, List<Pending>> byScope = new LinkedHashMap<>();
            for (Pending pending : batch) {
                if (!pending.cancelled && !pending.recorded) {
                    byScope.computeIfAbsent(pending.crystal.scope(), s -> new ArrayList<>()).add(pending);
                }
            }
            for (Map.Entry<String, List<Pending>> group : byScope.entrySet()) {
                List<Stored> stored = group.getValue().stream().map(p -> new Stored(p.seq, p.crystal)).toList();
                long start = records.append(group.getKey(), stored);
                group.getValue().forEach(pending -> pending.recorded = true);
                if (group.getValue().stream().anyMatch(pending -> pending.deferred)) {
                    queue.readBackFrom(group.getKey(), start); // at once: a failure on a later scope retries the batch
                }
                touched.add(group.getKey());
                dirty = true;
            }
            queue.recorded(Map.of());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads at most {@code max} records of a scope back from {@code offset} and queues (ahead of everything) those the
     * index lacks or holds in an older version, unless a later add of the id waits in memory.
     */
    void readBack(String scope, long offset, int max) throws IOException {
        lock.lock();
        try {
            RecordLog.Chunk chunk = records.readFrom(scope, offset, max);
            Map<String, Stored> latest = new LinkedHashMap<>();
            long maxSeq = 0;
            for (Stored stored : chunk.records()) {
                latest.merge(stored.crystal().id(), stored, (a, b) -> a.seq() >= b.seq() ? a : b);
                maxSeq = Math.max(maxSeq, stored.seq());
            }
            Map<String, CrystalIndex.Indexed> indexed = index.indexed(latest.keySet());
            List<Pending> missing = new ArrayList<>();
            for (Stored stored : latest.values()) {
                CrystalIndex.Indexed current = indexed.get(stored.crystal().id());
                if ((current == null || current.seq() < stored.seq())
                        && !queue.newerWaiting(stored.crystal().id(), stored.seq())) {
                    missing.add(new Pending(stored));
                }
            }
            queue.advanceSeq(maxSeq + 1);
            queue.addRecovered(missing); // under the lock: a delete cancels them once it has the lock
            queue.readBack(scope, chunk.end(), chunk.all(), chunk.records());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Compares a scope's records with the index: drops what the records no longer hold, and has the indexer read
     * the records back from their start ({@link #readBack}, a bounded number at a time) for what the index lacks.
     */
    void reconcile(String scope) throws IOException {
        lock.lock();
        try {
            RecordLog.Contents contents = records.read(scope);
            Map<String, Stored> latest = contents.latest();
            Map<String, Long> indexed = index.seqs(scope);
            List<String> stale = new ArrayList<>();
            for (String id : indexed.keySet()) {
                if (!latest.containsKey(id)) {
                    stale.add(id);
                }
            }
            if (!stale.isEmpty()) {
                index.delete(scope, stale);
                vectors.removeAll(stale.stream().map(CrystalWriter::vectorId).toList());
            }
            queue.advanceSeq(contents.maxSeq() + 1);
            if (!latest.isEmpty()) {
                queue.readBackFrom(scope, 0);
            }
            touched.add(scope);
            dirty = true;
            index.refresh();
        } finally {
            lock.unlock();
        }
    }

    /** Removes crystals of a scope from what is queued, the records, the index and the vectors. */
    void delete(String scope, Collection<String> ids) throws IOException {
        Set<String> doomed = Set.copyOf(ids);
        lock.lock();
        try {
            queue.cancel(crystal -> crystal.scope().equals(scope) && doomed.contains(crystal.id()));
            if (records != null) {
                records.rewrite(scope, stored -> !doomed.contains(stored.crystal().id()));
                queue.deleted(scope, doomed);
                touched.add(scope);
            }
            List<String> present = new ArrayList<>();
            index.indexed(doomed).forEach((id, owner) -> {
                if (owner.scope().equals(scope)) {
                    present.add(id);
                }
            });
            if (!present.isEmpty()) {
                index.delete(scope, present);
                vectors.removeAll(present.stream().map(CrystalWriter::vectorId).toList());
            }
            dirty = true;
            index.refresh();
        } finally {
            lock.unlock();
        }
    }

    /** Removes everything of a scope; a persistent store also drops it from its files and commits. */
    void deleteScope(String scope) throws IOException {
        lock.lock();
        try {
            queue.cancel(crystal -> crystal.scope().equals(scope));
            queue.forgetScope(scope);
            index.deleteScope(scope);
            vectors.removeAll(metadataKey(SCOPE).isEqualTo(scope));
            dirty = true;
            if (records != null) {
                records.deleteScope(scope);
                touched.add(scope);
                index.expungeScope(scope);
                index.refresh();
                commit(queue::scopesBehind);
            } else {
                index.refresh();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records crystals without indexing them (on close): the next open finds and indexes them. */
    void recordOnly(List<Pending> left) throws IOException {
        if (records == null) {
            return;
        }
        lock.lock();
        try {
            Map<String, List<Stored>> byScope = new LinkedHashMap<>();
            for (Pending pending : left) {
                if (!pending.cancelled && !pending.recorded) {
                    byScope.computeIfAbsent(pending.crystal.scope(), s -> new ArrayList<>())
                            .add(new Stored(pending.seq, pending.crystal));
                    pending.recorded = true;
                }
            }
            for (Map.Entry<String, List<Stored>> scope : byScope.entrySet()) {
                records.append(scope.getKey(), scope.getValue());
                dirty = true;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether anything changed since the last commit. */
    boolean dirty() {
        lock.lock();
        try {
            return dirty || !touched.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Forces the records to disk, then commits the index with the markers of the scopes it holds entirely (not
     * those {@code behind} names, read under the lock: they are compared again after a restart).
     */
    void commit(Supplier<Set<String>> scopesBehind) throws IOException {
        if (records == null) {
            return;
        }
        lock.lock();
        try {
            records.force();
            Set<String> behind = scopesBehind.get();
            for (String scope : List.copyOf(touched)) {
                if (behind.contains(scope)) {
                    continue;
                }
                Path file = records.fileOf(scope);
                String directoryName = RecordLog.directoryName(scope);
                long length = RecordLog.length(file);
                if (length >= 0) {
                    long lastSeq = records.last(file).map(Stored::seq).orElse(0L);
                    index.putMarker(directoryName, new Marker(scope, length, lastSeq));
                } else {
                    index.deleteMarker(directoryName);
                }
                touched.remove(scope);
            }
            index.commit(queue.nextSeq());
            dirty = false;
        } finally {
            lock.unlock();
        }
    }
}
