package dev.workingmemory.jdbc;

import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreContract;
import org.junit.jupiter.api.BeforeEach;

/** The store contract of the core module, unchanged, on a real PostgreSQL server. */
class JdbcWorkingMemoryStoreContractTest extends DatabaseTest implements WorkingMemoryStoreContract {

    private WorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new JdbcWorkingMemoryStore(database.dataSource());
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }

    @Override
    public WorkingMemoryStore restarted() {
        return new JdbcWorkingMemoryStore(database.dataSource());
    }
}
