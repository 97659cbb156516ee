package dev.workingmemory.dream;

import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** {@link ToolOutputProvenanceContract} on the file store and the crystal directory a provider opens beside it. */
class FileStoreToolOutputProvenanceTest implements ToolOutputProvenanceContract {

    @TempDir
    Path dir;
    private WorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new FileWorkingMemoryStore(dir);
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }
}
