package dev.workingmemory.event;

/**
 * Hears what a {@link dev.workingmemory.WorkingMemoryProvider} does: entities tracked, notes appended, blocks rendered,
 * saves that failed, and (once those parts report them) crystals indexed, searches, dreams, pruned tool outputs and
 * changes of context pressure. Register one or several with {@code WorkingMemoryProvider.builder().listener(…)};
 * {@link dev.workingmemory.metrics.WorkingMemoryMetrics} is one that feeds Micrometer.
 *
 * <p>Every method does nothing by default, so a listener overrides only what it needs and keeps compiling as events
 * are added. A listener is called on the thread that caused the event, often holding the lock of the memory concerned:
 * keep it quick and hand slow work to another thread. An exception it throws is logged and never reaches the memory
 * or the model call. An event is reported once, also when a write is applied again after a conflict with another
 * application instance.
 *
 * <p>Implementations must be thread-safe: memories of different users report events concurrently.
 */
public interface WorkingMemoryListener {

    /** A listener that ignores everything. */
    WorkingMemoryListener NONE = new WorkingMemoryListener() {
    };

    /** Entities taken from a tool result (or tracked by a caller) moved to the front of a memory's entities. */
    default void onEntityTracked(EntityTracked event) {
    }

    /** A note was appended to a resource's notes log (durable when this is called). */
    default void onNoteAppended(NoteAppended event) {
    }

    /** A memory rendered its {@code <working_memory>} block again because a layer changed. */
    default void onBlockRendered(BlockRendered event) {
    }

    /**
     * Saving a scope's state failed. State the memory derived by itself stays in memory and is saved again later; a
     * durable write (a tool's) was undone and its caller told.
     */
    default void onSaveFailed(SaveFailed event) {
    }

    /** Crystals were embedded and indexed for long-term search. */
    default void onCrystalsIndexed(CrystalsIndexed event) {
    }

    /**
     * Crystals were added while the indexer was behind by its whole queue, so they are indexed later from the
     * records (the caller does not wait). Called on the adding thread.
     */
    default void onCrystalsDeferred(CrystalsDeferred event) {
    }

    /** A long-term memory search ran. */
    default void onSearchRun(SearchRun event) {
    }

    /** A dream ended, committed or rejected. */
    default void onDreamFinished(DreamFinished event) {
    }

    /** A tool output was pruned before the model saw it. */
    default void onOutputPruned(OutputPruned event) {
    }

    /** The context pressure of a memory moved to another level. */
    default void onPressureChanged(PressureChanged event) {
    }
}
