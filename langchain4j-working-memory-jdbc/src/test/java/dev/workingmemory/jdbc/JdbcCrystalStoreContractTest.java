package dev.workingmemory.jdbc;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The crystal store contract of the core module, unchanged, on a real PostgreSQL server. pgvector is not installable
 * here, so the vectors are in one LangChain4j {@link InMemoryEmbeddingStore} that the store shares with its reopened
 * successor, as instances share a vector database.
 */
class JdbcCrystalStoreContractTest extends DatabaseTest implements CrystalStoreContract {

    private final InMemoryEmbeddingStore<TextSegment> vectors = new InMemoryEmbeddingStore<>();
    private JdbcCrystalStore store;

    @BeforeEach
    void open() {
        store = newStore();
    }

    private JdbcCrystalStore newStore() {
        return JdbcCrystalStore.builder()
                .dataSource(database.dataSource())
                .embeddingStore(vectors)
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
