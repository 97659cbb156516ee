package dev.workingmemory;

import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;

/** {@link ScopeContract} on the in-memory store and the in-memory crystal store a provider opens for it. */
class InMemoryStoreScopeTest implements ScopeContract {

    private final WorkingMemoryStore store = new InMemoryWorkingMemoryStore();

    @Override
    public WorkingMemoryStore store() {
        return store;
    }
}
