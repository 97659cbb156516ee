package dev.workingmemory.jdbc;

import dev.workingmemory.dream.ToolOutputProvenanceContract;
import dev.workingmemory.store.WorkingMemoryStore;
import org.junit.jupiter.api.BeforeEach;

/**
 * The core module's {@link ToolOutputProvenanceContract}, unchanged, on a real PostgreSQL server: the dream reads the
 * tool output and the past turn back from the crystal table.
 */
class JdbcToolOutputProvenanceTest extends DatabaseTest implements ToolOutputProvenanceContract {

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
