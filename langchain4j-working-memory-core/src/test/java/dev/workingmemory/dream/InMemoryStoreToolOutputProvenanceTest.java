package dev.workingmemory.dream;

import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;

/** {@link ToolOutputProvenanceContract} on the in-memory store and the crystal store a provider keeps beside it. */
class InMemoryStoreToolOutputProvenanceTest implements ToolOutputProvenanceContract {

    private final WorkingMemoryStore store = new InMemoryWorkingMemoryStore();

    @Override
    public WorkingMemoryStore store() {
        return store;
    }
}
