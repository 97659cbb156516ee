package dev.workingmemory.crystal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

class InMemoryEmbeddedCrystalStoreTest implements CrystalStoreContract {

    private EmbeddedCrystalStore store;

    @BeforeEach
    void open() {
        store = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm()).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    public CrystalStore store() {
        return store;
    }
}
