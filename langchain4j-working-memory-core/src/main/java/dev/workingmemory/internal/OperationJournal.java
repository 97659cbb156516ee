package dev.workingmemory.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The layer writes of one scope made since its last save, in order, so that they can run again on a state that
 * another instance saved meanwhile. Bounded: a full journal makes its scope save at once; past {@link #CAPACITY}
 * writes all the same (a store that keeps failing) the journal stops recording and says it cannot be replayed until
 * the next save.
 *
 * <p>Not thread-safe: guarded by the scope's lock.
 */
final class OperationJournal {

    static final int CAPACITY = 1_000;
    private static final Logger log = LoggerFactory.getLogger(OperationJournal.class);

    private final String storeKey;
    private final List<Operation> operations = new ArrayList<>();
    private boolean overflowed;

    OperationJournal(String storeKey) {
        this.storeKey = storeKey;
    }

    void add(LayerSlot slot, Supplier<?> action) {
        if (overflowed) {
            return;
        }
        if (operations.size() == CAPACITY) {
            log.warn("More than {} unsaved changes of '{}': they can no longer be applied again after a conflict "
                    + "with another instance until the next save", CAPACITY, storeKey);
            operations.clear();
            overflowed = true;
            return;
        }
        operations.add(new Operation(slot, action));
    }

    /** Whether the next {@link #add} would overflow: time to save. */
    boolean isFull() {
        return operations.size() >= CAPACITY;
    }

    void removeLast() {
        if (!operations.isEmpty()) {
            operations.remove(operations.size() - 1);
        }
    }

    /** Whether there is nothing unsaved: no operation, and none forgotten by an overflow. */
    boolean isEmpty() {
        return operations.isEmpty() && !overflowed;
    }

    boolean isReplayable() {
        return !overflowed;
    }

    int size() {
        return operations.size();
    }

    void clear() {
        operations.clear();
        overflowed = false;
    }

    /**
     * Runs every operation again, in order, on the layers' reloaded state. One that fails now (a limit the stored
     * state leaves no room for) is dropped with a warning; the others still run.
     */
    void replay() {
        List<Operation> again = new ArrayList<>(operations.size());
        for (Operation operation : operations) {
            try {
                operation.action().get();
                again.add(operation);
            } catch (RuntimeException e) {
                log.warn("A change to layer '{}' of '{}' no longer applies to the state saved by another instance and "
                        + "is dropped: {}", operation.slot().layer().name(), storeKey, e.getMessage());
            }
        }
        operations.clear();
        operations.addAll(again);
    }

    private record Operation(LayerSlot slot, Supplier<?> action) {
    }
}
