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
 * when it finds the conversation still going), so a message costs a field write.
 *
 * <p>Thread-safe: its state is guarded by the thread scope's lock.
 */
public final class Pauses {

    private static final Logger log = LoggerFactory.getLogger(Pauses.class);

    private final MemoryKey key;
    private final ScopeState thread;
    private final ScopeState resource;
    private final Conversation conversation;
    private final List<LayerSlot> slots;
    private final Clock clock;
    private final long afterMillis;
    /** A check waits on the saver thread. */
    private boolean queued;
    /** Messages were added (or a window loaded) since the layers were last told of a pause. */
    private boolean untold;

    /** Pauses of the memory of {@code conversation}, its window loaded: a check is queued when it holds messages. */
    public Pauses(MemoryKey key, ScopeState thread, ScopeState resource, Conversation conversation,
                  List<LayerSlot> slots, Clock clock, Duration after) {
        this.key = key;
        this.thread = thread;
        this.resource = resource;
        this.conversation = conversation;
        this.slots = slots;
        this.clock = clock;
        // a pause longer than Long.MAX_VALUE milliseconds never comes
        this.afterMillis = Ensure.notNull(after, "after").compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0
                ? Long.MAX_VALUE : after.toMillis();
        if (conversation.window().size() > 0) {
            added(); // a window loaded from the store: a pause before the restart may not have been told
        }
    }

    /** A message was added. Called holding the thread's lock. */
    public void added() {
        untold = true;
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
            }
        }
    }

    private void check() {
        try {
            thread.write(() -> {
                queued = false;
                conversation.refresh();
                WindowMessages window = conversation.window().messages();
                if (window.size() == 0) {
                    return null;
                }
                long newest = newest(window);
                long quiet = Math.max(0, clock.millis() - newest); // a clock set back: not quiet
                if (quiet < afterMillis) {
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
        }
    }
}
