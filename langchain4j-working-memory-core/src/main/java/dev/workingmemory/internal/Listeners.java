package dev.workingmemory.internal;

import dev.workingmemory.event.BlockRendered;
import dev.workingmemory.event.CrystalsDeferred;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.DreamFinished;
import dev.workingmemory.event.EntityTracked;
import dev.workingmemory.event.NoteAppended;
import dev.workingmemory.event.OutputPruned;
import dev.workingmemory.event.PressureChanged;
import dev.workingmemory.event.SaveFailed;
import dev.workingmemory.event.SearchRun;
import dev.workingmemory.event.WorkingMemoryListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The listeners of one provider as one: each event goes to every listener in turn, and one that throws is logged and
 * skipped. Thread-safe (immutable).
 */
public final class Listeners implements WorkingMemoryListener {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);
    public static final Listeners NONE = new Listeners(List.of(), () -> false);

    private final List<WorkingMemoryListener> listeners;
    /** While true, events are dropped: a write is being applied again and has reported them already. */
    private final BooleanSupplier muted;

    private Listeners(List<WorkingMemoryListener> listeners, BooleanSupplier muted) {
        this.listeners = listeners;
        this.muted = muted;
    }

    public static Listeners of(List<WorkingMemoryListener> listeners) {
        return listeners.isEmpty() ? NONE : new Listeners(List.copyOf(listeners), () -> false);
    }

    /** These listeners, deaf while {@code muted} says so. */
    public Listeners mutedWhile(BooleanSupplier muted) {
        return listeners.isEmpty() ? this : new Listeners(listeners, muted);
    }

    public boolean isEmpty() {
        return listeners.isEmpty();
    }

    private void fire(String event, Consumer<WorkingMemoryListener> call) {
        if (listeners.isEmpty() || muted.getAsBoolean()) {
            return;
        }
        for (int i = 0; i < listeners.size(); i++) { // indexed: this runs on every render
            WorkingMemoryListener listener = listeners.get(i);
            try {
                call.accept(listener);
            } catch (RuntimeException | LinkageError e) {
                log.warn("Working memory listener {} failed on {}; ignored", listener, event, e);
            }
        }
    }

    @Override
    public void onEntityTracked(EntityTracked event) {
        fire("entity tracked", l -> l.onEntityTracked(event));
    }

    @Override
    public void onNoteAppended(NoteAppended event) {
        fire("note appended", l -> l.onNoteAppended(event));
    }

    @Override
    public void onBlockRendered(BlockRendered event) {
        fire("block rendered", l -> l.onBlockRendered(event));
    }

    @Override
    public void onSaveFailed(SaveFailed event) {
        fire("save failed", l -> l.onSaveFailed(event));
    }

    @Override
    public void onCrystalsIndexed(CrystalsIndexed event) {
        fire("crystals indexed", l -> l.onCrystalsIndexed(event));
    }

    @Override
    public void onCrystalsDeferred(CrystalsDeferred event) {
        fire("crystals deferred", l -> l.onCrystalsDeferred(event));
    }

    @Override
    public void onSearchRun(SearchRun event) {
        fire("search run", l -> l.onSearchRun(event));
    }

    @Override
    public void onDreamFinished(DreamFinished event) {
        fire("dream finished", l -> l.onDreamFinished(event));
    }

    @Override
    public void onOutputPruned(OutputPruned event) {
        fire("output pruned", l -> l.onOutputPruned(event));
    }

    @Override
    public void onPressureChanged(PressureChanged event) {
        fire("pressure changed", l -> l.onPressureChanged(event));
    }
}
