package dev.workingmemory.dream;

import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;

/**
 * {@link ToolOutputProvenanceContract} on the in-memory store and the crystal store a provider keeps beside it, and
 * {@link StoredTextContract} on the in-memory store, which two providers share.
 */
class InMemoryStoreToolOutputProvenanceTest implements ToolOutputProvenanceContract, StoredTextContract {

    private final WorkingMemoryStore store = new InMemoryWorkingMemoryStore();

    @Override
    public WorkingMemoryStore store() {
        return store;
    }
}
