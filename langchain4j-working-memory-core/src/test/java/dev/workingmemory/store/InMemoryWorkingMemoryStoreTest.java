package dev.workingmemory.store;

import org.junit.jupiter.api.BeforeEach;

class InMemoryWorkingMemoryStoreTest implements WorkingMemoryStoreContract {

    private WorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new InMemoryWorkingMemoryStore();
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }
}
