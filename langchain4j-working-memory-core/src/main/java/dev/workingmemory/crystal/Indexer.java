package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.PendingQueue.Batch;
import dev.workingmemory.crystal.PendingQueue.CatchUp;
import dev.workingmemory.crystal.PendingQueue.Pending;
import dev.workingmemory.crystal.PendingQueue.Reconcile;
import dev.workingmemory.crystal.PendingQueue.Stop;
import dev.workingmemory.crystal.PendingQueue.Work;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.WorkingMemoryListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * The indexer thread of an embedded crystal store: takes batches from the {@link PendingQueue}, embeds them
 * ({@link EmbeddingModel#embedAll}), has the {@link CrystalWriter} index them (recording those the {@link Recorder}
 * has not recorded yet), reads deferred crystals back from the records, reconciles scopes after a restart, and
 * commits every {@code commitInterval}.
 *
 * <p>Failures are logged and retried, never thrown at anyone: a batch whose embedding fails is embedded crystal by
 * crystal, each retried with a growing pause; a crystal that still cannot be embedded is indexed for keywords only
 * (ERROR log; it is embedded again when the index is rebuilt). A crystal the index refuses ({@link RefusedByIndex}:
 * the same document is refused every time) is left out with an ERROR, its vector alone refused makes it indexed for
 * keywords only, and the rest of its batch is written: retried, it would hold back every user's crystals. An
 * application's embedding store is written one entry at a time when a batch's fails; an entry it refuses while it
 * takes others or answers a read is retried with its batch {@link Retries#SINGLE_ATTEMPTS} times, then its crystal is
 * indexed for keywords only (ERROR; its vector is written again when the index is rebuilt), while a store that
 * answers nothing is retried like I/O, nothing given up. Any other failing write (I/O) is retried until it succeeds
 * or the store closes; what is left then is recorded by {@code close} and indexed after the next open. Crystals read
 * back from the records go through the same batches.
 *
 * <p>Runs on one thread; {@link #unfinished()} is read after that thread ended.
 */
final class Indexer implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Indexer.class);
    static final String THREAD_NAME = "working-memory-indexer";

    private final PendingQueue queue;
    private final CrystalWriter writer;
    private final EmbeddingModel model;
    private final int batchSize;
    private final Duration commitInterval;
    private final WorkingMemoryListener listener;
    private final Retries retries = new Retries();
    private volatile List<Pending> unfinished = List.of();
    private long lastCommit = System.nanoTime();

    Indexer(PendingQueue queue, CrystalWriter writer, EmbeddingModel model, int batchSize, Duration commitInterval,
            WorkingMemoryListener listener) {
        this.listener = listener;
        this.queue = queue;
        this.writer = writer;
        this.model = model;
        this.batchSize = batchSize;
        this.commitInterval = commitInterval;
    }

    @Override
    public void run() {
        try {
            while (true) {
                Work work = queue.take(batchSize, commitInterval);
                if (work instanceof Stop) {
                    return;
                }
                if (work instanceof Batch batch) {
                    if (!index(batch.items())) {
                        unfinished = batch.items();
                        return;
                    }
                    if (queue.size() == 0) {
                        showWritten();
                    }
                } else if (work instanceof Reconcile reconcile) {
                    try {
                        retry("compare the records of scope '" + reconcile.scope() + "' with the index",
                                () -> writer.reconcile(reconcile.scope()));
                    } finally {
                        queue.reconciled(reconcile.scope());
                    }
                } else if (work instanceof CatchUp catchUp) {
                    if (!retry("read back the records of scope '" + catchUp.scope() + "'",
                            () -> writer.readBack(catchUp.scope(), catchUp.offset(), PendingQueue.READ_BACK))) {
                        return; // closed: the scope is not marked as indexed, and is compared again after a restart
                    }
                }
                commitIfDue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            log.error("The crystal indexer stopped: {}", e.toString(), e);
            throw e;
        }
    }

    /**
     * Makes what was indexed visible to searches now that nothing waits, so that a search at a conversation's pace
     * finds the searchers fresh; while crystals keep coming, the next read refreshes instead, once for every batch
     * before it (a refresh per batch flushed a small segment each time and kept Lucene's merges busy).
     */
    private void showWritten() {
        try {
            writer.showWritten();
        } catch (IOException | RuntimeException e) {
            log.debug("Could not make the indexed crystals visible now; the next read does: {}", e.toString());
        }
    }

    /** Asks the thread to stop retrying (the queue is closed separately). */
    void stop() {
        retries.stop();
    }

    /** @return the batch the thread could not finish before it stopped */
    List<Pending> unfinished() {
        return unfinished;
    }

    /** @return false when the store closed before the batch was written */
    private boolean index(List<Pending> batch) throws InterruptedException {
        long start = System.nanoTime();
        try {
            List<Embedding> embeddings = embed(batch);
            if (embeddings == null || !retry("index " + batch.size() + " crystals", () -> writer.write(batch, embeddings))) {
                return false;
            }
            int refused = (int) batch.stream().filter(pending -> pending.refused).count();
            indexed(batch.size() - refused, Duration.ofNanos(System.nanoTime() - start));
            return true;
        } finally {
            queue.finished(batch);
        }
    }

    private void indexed(int count, Duration time) {
        try {
            listener.onCrystalsIndexed(new CrystalsIndexed(count, time));
        } catch (RuntimeException e) {
            log.warn("A listener failed on {} crystals indexed", count, e);
        }
    }

    /**
     * @return the vectors of the batch's crystals, in order (null for a crystal that is {@link Crystal#keywordsOnly()}
     *         or could not be embedded), or null when interrupted
     */
    private List<Embedding> embed(List<Pending> batch) throws InterruptedException {
        List<Pending> toEmbed = batch.stream().filter(pending -> !pending.crystal.keywordsOnly()).toList();
        List<Embedding> some = toEmbed.isEmpty() ? List.of() : embedAll(toEmbed);
        if (some == null || toEmbed.size() == batch.size()) {
            return some;
        }
        List<Embedding> embeddings = new ArrayList<>(batch.size());
        Iterator<Embedding> next = some.iterator();
        for (Pending pending : batch) {
            embeddings.add(pending.crystal.keywordsOnly() ? null : next.next());
        }
        return embeddings;
    }

    private List<Embedding> embedAll(List<Pending> batch) throws InterruptedException {
        List<TextSegment> segments = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            segments.add(TextSegment.from(pending.crystal.textToIndex()));
        }
        try {
            List<Embedding> embeddings = model.embedAll(segments).content();
            if (embeddings != null && embeddings.size() == batch.size()) {
                return embeddings;
            }
            log.warn("The embedding model returned {} embeddings for {} texts; embedding them one by one",
                    embeddings == null ? 0 : embeddings.size(), batch.size());
        } catch (RuntimeException e) {
            log.warn("Embedding {} crystals failed ({}); embedding them one by one", batch.size(), e.toString());
        }
        List<Embedding> embeddings = new ArrayList<>(Collections.nCopies(batch.size(), null));
        for (int i = 0; i < batch.size(); i++) {
            Pending pending = batch.get(i);
            long pause = Retries.FIRST_PAUSE_MILLIS;
            for (int attempt = 1; attempt <= Retries.SINGLE_ATTEMPTS && !pending.cancelled; attempt++) {
                try {
                    embeddings.set(i, model.embed(segments.get(i)).content());
                    break;
                } catch (RuntimeException e) {
                    if (attempt == Retries.SINGLE_ATTEMPTS) {
                        log.error("Cannot embed crystal '{}' of scope '{}' ({}): indexed for keywords only",
                                pending.crystal.id(), pending.crystal.scope(), e.toString());
                    } else if (!retries.pause(pause)) {
                        return null;
                    }
                    pause = Retries.next(pause);
                }
            }
        }
        return embeddings;
    }

    private boolean retry(String what, Retries.Action action) throws InterruptedException {
        return retries.retry(what, action);
    }

    private void commitIfDue() throws InterruptedException {
        if (System.nanoTime() - lastCommit >= commitInterval.toNanos() && writer.dirty()) {
            retry("commit the crystal index", () -> writer.commit(queue::scopesBehind));
            lastCommit = System.nanoTime();
        }
    }
}
