package dev.workingmemory.jdbc;

import dev.workingmemory.ScopeContract;
import dev.workingmemory.store.WorkingMemoryStore;
import org.junit.jupiter.api.BeforeEach;

/** The core module's {@link ScopeContract}, unchanged, on a real PostgreSQL server and its crystal table. */
class JdbcScopeTest extends DatabaseTest implements ScopeContract {

    private WorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new JdbcWorkingMemoryStore(database.dataSource());
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }
}
