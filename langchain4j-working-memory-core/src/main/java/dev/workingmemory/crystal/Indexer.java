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
import dev.workingmemory.internal.Attempts;
import dev.workingmemory.internal.OneEmbedding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The indexer thread of an embedded crystal store: takes batches from the {@link PendingQueue}, embeds them
 * ({@link EmbeddingModel#embedAll}), has the {@link CrystalWriter} index them (recording those the {@link Recorder}
 * has not recorded yet), reads deferred crystals back from the records, reconciles scopes after a restart, and
 * commits every {@code commitInterval}.
 *
 * <p>Failures are logged and retried, never thrown at anyone. A batch whose embedding fails is embedded crystal by
 * crystal, each tried {@link Retries#SINGLE_ATTEMPTS} times with a growing pause, so that a text the model refuses
 * (too long for it, a content filter, a provider's 400) keeps no other from its vector. Whether the model is up is
 * asked by embedding again the last text it embedded (before any, a text of the indexer's own): a crystal counts as
 * refused only when the model embeds that text when the batch failed and again after the crystal's last try; it is
 * then indexed for keywords only (ERROR log; it is embedded again when the index is rebuilt). When the model fails
 * that text it is down, and nothing is refused: the batch waits for it like a failing write (a growing pause up to
 * {@value Retries#MAX_PAUSE_MILLIS} ms, a WARN and two calls each time, the vectors made so far kept), reads do not
 * wait for it meanwhile ({@link PendingQueue#modelDown(boolean)}), and a close records what waits, indexed after the
 * next open. So a remote model down for seconds or hours costs no crystal its vector.
 *
 * <p>A crystal the index refuses ({@link RefusedByIndex}: the same document is refused every time) is left out with
 * an ERROR, its vector alone refused makes it indexed for keywords only, and the rest of its batch is written:
 * retried, it would hold back every user's crystals. An
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
    /** What the model is asked to embed to tell whether it is up, before it embedded any crystal's text. */
    static final TextSegment PROBE = TextSegment.from("Is the embedding model up?");

    private final PendingQueue queue;
    private final CrystalWriter writer;
    private final EmbeddingModel model;
    private final int batchSize;
    private final Duration commitInterval;
    private final WorkingMemoryListener listener;
    private final Retries retries = new Retries();
    /** The last text the model embedded, or null: asked for again to tell a refused text from a model that is down. */
    private TextSegment lastEmbedded;
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
     * The vectors of the batch's crystals, in order: null for a crystal that is {@link Crystal#keywordsOnly()}, was
     * cancelled meanwhile, or whose text the model refuses ({@link #embedMissing}). While the model is down, the batch
     * waits for it like a failing write (a growing pause up to {@value Retries#MAX_PAUSE_MILLIS} ms, WARN each time),
     * keeping the vectors it got, until the model embeds again or the store closes.
     *
     * @return the vectors, or null when the store closed first
     */
    private List<Embedding> embed(List<Pending> batch) throws InterruptedException {
        List<Embedding> embeddings = new ArrayList<>(Collections.nCopies(batch.size(), null));
        long pause = Retries.FIRST_PAUSE_MILLIS;
        while (true) {
            RuntimeException down = embedMissing(batch, embeddings);
            if (down == null) {
                queue.modelDown(false);
                return embeddings;
            }
            if (retries.stopping()) {
                return null;
            }
            queue.modelDown(true);
            log.warn("The embedding model embeds no text ({}): {} crystals wait for it; retrying in {} ms",
                    down.toString(), missing(batch, embeddings).size(), pause);
            if (!retries.pause(pause)) {
                return null;
            }
            pause = Retries.next(pause);
        }
    }

    /** The positions of the crystals still to embed: no vector yet, not keywords only, not cancelled. */
    private static List<Integer> missing(List<Pending> batch, List<Embedding> embeddings) {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Pending pending = batch.get(i);
            if (embeddings.get(i) == null && !pending.crystal.keywordsOnly() && !pending.cancelled) {
                missing.add(i);
            }
        }
        return missing;
    }

    /**
     * Embeds the batch's crystals that have no vector yet: all at once and, when that fails, text by text, so that a
     * text the model refuses (too long for it, a content filter, a provider's 400) keeps no other from its vector. A
     * text failing alone is tried {@value Attempts#ATTEMPTS} times, with pauses from
     * {@value Attempts#FIRST_PAUSE_MILLIS} ms doubling ({@link Attempts}). It counts as refused only while the model
     * is up: the model embeds the last text it embedded ({@link #up}) when the batch failed, before each pause that
     * follows an attempt in which it embedded no text, and after the last attempt; a refused crystal is indexed for keywords only (ERROR).
     * When the model fails that text, it is down and nothing is refused (so a model going down mid-batch refuses
     * nothing): the vectors made so far stay in {@code embeddings}, and the failure is returned. While the model is
     * down a round costs two calls: the batch's and that text's.
     *
     * @param embeddings the vectors so far, in the batch's order; filled in here
     * @return null when every crystal to embed has its vector or was refused; else why the model embeds nothing (it
     *         is down, or the store closes during a pause)
     */
    private RuntimeException embedMissing(List<Pending> batch, List<Embedding> embeddings) throws InterruptedException {
        List<Integer> missing = missing(batch, embeddings);
        if (missing.isEmpty()) {
            return null;
        }
        List<TextSegment> segments = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            segments.add(TextSegment.from(pending.crystal.textToIndex()));
        }
        RuntimeException failure;
        try {
            List<Embedding> some = model.embedAll(missing.stream().map(segments::get).toList()).content();
            if (some != null && some.size() == missing.size()) {
                for (int i = 0; i < missing.size(); i++) {
                    embeddings.set(missing.get(i), some.get(i));
                }
                lastEmbedded = segments.get(missing.get(0));
                return null;
            }
            failure = new IllegalStateException("The embedding model returned " + (some == null ? 0 : some.size())
                    + " embeddings for " + missing.size() + " texts");
        } catch (RuntimeException e) {
            failure = e;
        }
        RuntimeException down = up();
        if (down != null) {
            return down;
        }
        log.warn("Embedding {} crystals failed ({}); embedding them one by one", missing.size(), failure.toString());
        // the model just embedded the last text again: it is not asked before the first pause
        Attempts.Outcome<Integer> outcome = Attempts.oneByOne(missing, failure, true, new Attempts.Service<>() {
            @Override
            public void work(Integer text) {
                embeddings.set(text, OneEmbedding.of(model, segments.get(text)));
                lastEmbedded = segments.get(text);
            }

            @Override
            public RuntimeException down(boolean last, RuntimeException failure) {
                return up();
            }

            @Override
            public boolean pause(long millis) throws InterruptedException {
                return retries.pause(millis);
            }

            @Override
            public boolean wanted(Integer text) {
                return !batch.get(text).cancelled;
            }
        });
        if (outcome.down() != null) {
            return outcome.down(); // the model is down, or went down meanwhile: it refused nothing
        }
        for (Map.Entry<Integer, RuntimeException> text : outcome.refused().entrySet()) {
            Crystal crystal = batch.get(text.getKey()).crystal;
            log.error("The embedding model refused crystal '{}' of scope '{}' {} times ({}) while it embedded other"
                    + " texts: it is indexed for keywords only (embedded again when the index is rebuilt)",
                    crystal.id(), crystal.scope(), Attempts.ATTEMPTS, text.getValue().toString());
        }
        return null;
    }

    /**
     * Whether the model is up: it embeds the last text it embedded for this indexer again ({@link #PROBE} before it
     * embedded any, so that a text refused first after the store opens is told from a model that is down).
     *
     * @return null when it is up, else its failure
     */
    private RuntimeException up() {
        TextSegment text = lastEmbedded != null ? lastEmbedded : PROBE;
        try {
            OneEmbedding.of(model, text);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
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
