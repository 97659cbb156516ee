package dev.workingmemory.internal;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.WindowMessages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Tells a memory's layers when its conversation pauses ({@link MemoryLayer#onPause}): {@code after} passed on the
 * provider's clock since the window's newest message, or the memory is unloaded. One check waits on the provider's
 * saver thread per memory while messages come (queued by the first message after a pause, and again for the time left
 * when it finds the conversation still going), so a message costs a field write. The first message after a pause
 * marks the thread in the store ({@link UnpausedThreads}), and the pause unmarks it, so that a process that dies
 * between the two leaves the pause to the next provider that loads the user; a memory loaded with messages takes every
 * provider's mark of its thread at its first pause, and each check that finds the conversation going on marks it
 * again, so that a mark another provider took is back within {@code after}.
 *
 * <p>Thread-safe: its state is guarded by the thread scope's lock.
 */
public final class Pauses {

    private static final Logger log = LoggerFactory.getLogger(Pauses.class);
    /** Whether a layer class overrides {@link MemoryLayer#onPause}, the SPI's default doing nothing. */
    private static final ClassValue<Boolean> TAKES_PAUSES = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("onPause", WindowMessages.class).getDeclaringClass() != MemoryLayer.class;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };

    private final MemoryKey key;
    private final Object memoryId;
    private final UnpausedThreads marks;
    private final ScopeState thread;
    private final ScopeState resource;
    private final Conversation conversation;
    private final List<LayerSlot> slots;
    private final Clock clock;
    private final long afterMillis;
    /** A layer of this memory takes pauses; if none does (no long-term memory), nothing is checked, marked or told. */
    private final boolean listened;
    /** A check waits on the saver thread. */
    private boolean queued;
    /** Messages were added (or a window loaded) since the layers were last told of a pause. */
    private boolean untold;
    /** This memory marked its thread since it last told a pause. */
    private boolean marked;
    /** The window was loaded with messages: marks left before, of any provider, may be kept in the store. */
    private boolean inherited;

    /** Pauses of the memory of {@code conversation}, its window loaded: a check is queued when it holds messages. */
    public Pauses(MemoryKey key, Object memoryId, UnpausedThreads marks, ScopeState thread, ScopeState resource,
                  Conversation conversation, List<LayerSlot> slots, Clock clock, Duration after) {
        this.key = key;
        this.memoryId = memoryId;
        this.marks = marks;
        this.thread = thread;
        this.resource = resource;
        this.conversation = conversation;
        this.slots = slots;
        this.clock = clock;
        // a pause longer than Long.MAX_VALUE milliseconds never comes
        this.afterMillis = Ensure.notNull(after, "after").compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0
                ? Long.MAX_VALUE : after.toMillis();
        this.listened = slots.stream().anyMatch(slot -> TAKES_PAUSES.get(slot.layer().getClass()));
        if (listened && conversation.window().size() > 0) {
            // a window loaded from the store: a pause before the restart may not have been told, and its mark kept
            untold = true;
            inherited = true;
            queue();
        }
    }

    /** A message was added. Called holding the thread's lock. */
    public void added() {
        if (!listened) {
            return;
        }
        untold = true;
        if (!marked) {
            marked = true;
            mark();
        }
        queue();
    }

    private void mark() {
        try {
            marks.mark(key, memoryId);
        } catch (RuntimeException e) {
            log.warn("Could not mark {} as not paused: a process that stops before its pause leaves it to the thread's"
                    + " next load", key, e);
        }
    }

    private void queue() {
        if (!queued) {
            queued = thread.runLater(new Check(this), Duration.ofMillis(afterMillis));
        }
    }

    /**
     * The queued check, holding its memory weakly: a memory evicted from the cache (told of its pause then) is not
     * kept in the heap until its check comes, up to {@code pauseAfter} later.
     */
    private static final class Check implements Runnable {
        private final WeakReference<Pauses> pauses;

        Check(Pauses pauses) {
            this.pauses = new WeakReference<>(pauses);
        }

        @Override
        public void run() {
            Pauses of = pauses.get();
            if (of != null) {
                of.check();
            }
        }
    }

    /** The memory is unloaded: a pause for what was added since the last one. Called holding the thread's lock. */
    public void unloading() {
        if (untold && !thread.forgotten() && !resource.forgotten()) {
            try {
                conversation.refresh(); // what other instances added to the conversation: its crystals replace theirs
            } catch (IllegalStateException e) {
                log.debug("No pause for {} as it unloads: its conversation was deleted elsewhere ({})", key,
                        e.toString());
                return;
            }
            WindowMessages window = conversation.window().messages();
            if (window.size() > 0) {
                tell(window);
            } else {
                unmark();
            }
        }
    }

    /**
     * Tells the layers of a pause now if the conversation is quiet for {@code after} and was not told; unmarks a thread
     * whose window is empty: for a thread a process that stopped left marked ({@link UnpausedThreads}). Called holding
     * the thread's lock.
     */
    public void tellIfQuiet() {
        if (!listened) {
            inherited = true; // marked under a configuration whose layers took pauses: nothing to tell now
            unmark();
            return;
        }
        conversation.refresh();
        WindowMessages window = conversation.window().messages();
        if (window.size() == 0) {
            inherited = true; // the marks that had this thread loaded
            unmark();
        } else if (untold && Math.max(0, clock.millis() - newest(window)) >= afterMillis) {
            tell(window);
        }
    }

    private void check() {
        try {
            thread.write(() -> {
                queued = false;
                conversation.refresh();
                WindowMessages window = conversation.window().messages();
                if (window.size() == 0) {
                    unmark();
                    return null;
                }
                long newest = newest(window);
                long quiet = Math.max(0, clock.millis() - newest); // a clock set back: not quiet
                if (quiet < afterMillis) {
                    if (marked) {
                        mark(); // again: another provider's pause of this thread takes every mark of it
                    }
                    queued = thread.runLater(new Check(this), Duration.ofMillis(afterMillis - quiet));
                } else if (untold) {
                    tell(window);
                }
                return null;
            });
        } catch (IllegalStateException e) {
            // closed meanwhile (unloading told the layers) or forgotten (nothing to keep)
            log.debug("No pause check for {}: {}", key, e.toString());
        }
    }

    private static long newest(WindowMessages window) {
        return window.added(window.size() - 1).toEpochMilli();
    }

    private void tell(WindowMessages window) {
        untold = false;
        try {
            // holding the resource's lock, which forget takes to drop it before it deletes the resource's crystals:
            // what the layers hand over is deleted with the rest, or the resource is gone and nothing is handed over
            resource.write(() -> {
                for (LayerSlot slot : slots) {
                    try {
                        slot.layer().onPause(window);
                    } catch (RuntimeException e) {
                        log.warn("Layer '{}' failed to take the pause of {}", slot.layer().name(), key, e);
                    }
                }
                return null;
            });
        } catch (IllegalStateException e) {
            log.debug("No pause for {}: its resource was closed or forgotten meanwhile ({})", key, e.toString());
            return; // forgotten: the marks went with the resource
        }
        unmark();
        marks.sweepLater(key.resource()); // what other, stopped processes left of this user
    }

    private void unmark() {
        if (!marked && !inherited) {
            return;
        }
        try {
            if (inherited) {
                marks.unmarkThread(key); // told what every mark before the load marked
            } else {
                marks.unmark(key);
            }
        } catch (RuntimeException e) {
            log.warn("Could not unmark {}: the next provider to load its user tells its layers of the pause again"
                    + " (nothing changes)", key, e);
        } finally {
            marked = false;
            inherited = false;
        }
    }
}
