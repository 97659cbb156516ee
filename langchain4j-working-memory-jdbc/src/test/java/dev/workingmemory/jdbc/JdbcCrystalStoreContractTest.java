package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The crystal store contract of the core module, unchanged, on a real PostgreSQL server with nothing but the
 * DataSource: vectors in the tables, no extension.
 */
class JdbcCrystalStoreContractTest extends DatabaseTest implements CrystalStoreContract {

    private JdbcCrystalStore store;

    @BeforeEach
    void open() {
        store = newStore();
    }

    private JdbcCrystalStore newStore() {
        return JdbcCrystalStore.builder()
                .dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.miniLm())
                .build();
    }

    @AfterEach
    void close() {
        if (store != null) { // null when the test was skipped
            store.close();
        }
    }

    @Override
    public CrystalStore store() {
        return store;
    }

    @Override
    public CrystalStore reopen() {
        store.close();
        store = newStore();
        return store;
    }

    @Override
    public boolean persistent() {
        return true;
    }
}
