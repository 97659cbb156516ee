package dev.workingmemory.layer;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.MemoryKey;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A {@link LayerContext} for testing a layer on its own: one lock, a counter of changes.
 */
public final class TestLayerContext implements LayerContext {

    private final ReentrantLock lock = new ReentrantLock();
    private final MemoryKey key;
    private final Clock clock;
    private int changes;
    private int refreshes;
    private Set<String> memoryTools = Set.of();
    private int maxAnalyzedChars = DEFAULT_MAX_ANALYZED_CHARS;
    /** Null: {@link #runLater} runs nothing (saves within each call); else the tasks queued, oldest first. */
    private List<Runnable> later;

    public TestLayerContext() {
        this(MemoryKey.of("test-user"), Clock.fixed(Instant.parse("2026-03-12T14:30:00Z"), ZoneOffset.UTC));
    }

    public TestLayerContext(MemoryKey key, Clock clock) {
        this.key = key;
        this.clock = clock;
    }

    @Override
    public MemoryKey key() {
        return key;
    }

    @Override
    public <T> T read(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public <T> T write(Supplier<T> action) {
        return read(action);
    }

    @Override
    public <T> T writeDurably(Supplier<T> action) {
        return read(action);
    }

    @Override
    public void changed() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("changed() must be called inside write()");
        }
        changes++;
    }

    @Override
    public void refreshed() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("refreshed() must be called holding the lock");
        }
        refreshes++;
    }

    /** How many times the layer said its rendering is out of date without a change to save. */
    public int refreshes() {
        return refreshes;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    /** Makes the results of these tools the memory's own answers ({@link #isMemoryToolResult}). */
    public TestLayerContext memoryTools(String... toolNames) {
        this.memoryTools = Set.of(toolNames);
        return this;
    }

    public TestLayerContext maxAnalyzedChars(int chars) {
        this.maxAnalyzedChars = chars;
        return this;
    }

    @Override
    public boolean isMemoryToolResult(ChatMessage message) {
        return message instanceof ToolExecutionResultMessage result && result.toolName() != null
                && memoryTools.contains(result.toolName());
    }

    @Override
    public int maxAnalyzedChars() {
        return maxAnalyzedChars;
    }

    /** Queues the tasks of {@link #runLater} until {@link #runQueuedTasks()}, as a saver thread would run them. */
    public TestLayerContext deferring() {
        this.later = new ArrayList<>();
        return this;
    }

    @Override
    public boolean runLater(Runnable task, Duration delay) {
        if (later == null) {
            return false;
        }
        synchronized (later) {
            later.add(task);
        }
        return true;
    }

    /** How many tasks wait for {@link #runQueuedTasks()}. */
    public int queuedTasks() {
        synchronized (later) {
            return later.size();
        }
    }

    /** Runs the tasks queued so far, oldest first, on the calling thread. */
    public void runQueuedTasks() {
        List<Runnable> due;
        synchronized (later) {
            due = List.copyOf(later);
            later.clear();
        }
        due.forEach(Runnable::run);
    }

    /** How many times the layer reported a change. */
    public int changes() {
        return changes;
    }
}
