package dev.workingmemory.crystal;

import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The embedded store with its vectors in LangChain4j's own {@link InMemoryEmbeddingStore}: any store plugs in. */
class LangChain4jVectorsCrystalStoreTest implements CrystalStoreContract {

    private EmbeddedCrystalStore store;

    @BeforeEach
    void open() {
        store = EmbeddedCrystalStore.builder()
                .embeddingModel(TestEmbeddingModels.miniLm())
                .embeddingStore(new InMemoryEmbeddingStore<>())
                .build();
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
