package dev.workingmemory.crystal;

import dev.workingmemory.crystal.PendingQueue.Pending;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

/**
 * The recorder thread of an embedded crystal store with a directory: appends every crystal added to its scope's
 * record file, in the order of adds, moments after the add and independently of the indexer, which may be far
 * behind (embedding is what takes time). So a crystal survives the process being killed once it is recorded (the
 * records are forced to disk before each index commit), and crystals beyond the queue's bound leave memory.
 * A failing write is retried (WARN) until it succeeds or the store closes; what is left then is recorded by
 * {@code close}.
 *
 * <p>Runs on one thread; {@link #unfinished()} is read after that thread ended.
 */
final class Recorder implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Recorder.class);
    static final String THREAD_NAME = "working-memory-recorder";
    /** Crystals recorded at once at most. */
    private static final int BATCH = 512;
    private static final Duration IDLE = Duration.ofSeconds(10);

    private final PendingQueue queue;
    private final CrystalWriter writer;
    private final Retries retries = new Retries();
    private volatile List<Pending> unfinished = List.of();

    Recorder(PendingQueue queue, CrystalWriter writer) {
        this.queue = queue;
        this.writer = writer;
    }

    @Override
    public void run() {
        try {
            while (true) {
                List<Pending> batch = queue.takeUnrecorded(BATCH, IDLE);
                if (batch == null) {
                    return;
                }
                if (!batch.isEmpty() && !retries.retry("record " + batch.size() + " crystals",
                        () -> writer.record(batch))) {
                    unfinished = batch;
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            log.error("The crystal recorder stopped: {}", e.toString(), e);
            throw e;
        }
    }

    /** Asks the thread to stop retrying (the queue is closed separately). */
    void stop() {
        retries.stop();
    }

    /** @return the batch the thread could not record before it stopped */
    List<Pending> unfinished() {
        return unfinished;
    }
}
