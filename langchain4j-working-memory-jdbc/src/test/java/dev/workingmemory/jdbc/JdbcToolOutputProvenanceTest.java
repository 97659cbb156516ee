package dev.workingmemory.jdbc;

import dev.workingmemory.dream.StoredTextContract;
import dev.workingmemory.dream.ToolOutputProvenanceContract;
import dev.workingmemory.store.WorkingMemoryStore;
import org.junit.jupiter.api.BeforeEach;

/**
 * The core module's {@link ToolOutputProvenanceContract}, unchanged, on a real PostgreSQL server: the dream reads the
 * tool output and the past turn back from the crystal table. And {@link StoredTextContract}: the notes, core memory,
 * scratchpad and state the memory cleaned come back from PostgreSQL exactly as from the other stores (the store itself
 * keeps even a NUL, which a {@code text} column refuses: {@link JdbcWorkingMemoryStoreTest}).
 */
class JdbcToolOutputProvenanceTest extends DatabaseTest implements ToolOutputProvenanceContract, StoredTextContract {

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
