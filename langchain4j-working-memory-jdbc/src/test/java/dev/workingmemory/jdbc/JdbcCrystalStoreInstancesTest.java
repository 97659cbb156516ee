package dev.workingmemory.jdbc;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static dev.workingmemory.crystal.CrystalStoreContract.background;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances with their own {@link JdbcCrystalStore} on one database, sharing one vector store (an
 * {@link InMemoryEmbeddingStore} here, since pgvector is not installable on the test machines).
 */
class JdbcCrystalStoreInstancesTest extends DatabaseTest {

    private final InMemoryEmbeddingStore<TextSegment> vectors = new InMemoryEmbeddingStore<>();

    private JdbcCrystalStore instance(CrystalRanking ranking) {
        return JdbcCrystalStore.builder().dataSource(database.dataSource()).embeddingStore(vectors)
                .embeddingModel(TestEmbeddingModels.miniLm()).ranking(ranking).build();
    }

    private static List<String> ids(List<CrystalHit> hits) {
        return hits.stream().map(hit -> hit.crystal().id()).toList();
    }

    @Test
    void should_find_by_keyword_at_once_what_another_instance_added() {
        JdbcCrystalStore a = instance(CrystalRanking.defaults());
        JdbcCrystalStore keywordOnly = instance(new CrystalRanking(1, 0, 0.5, 20));
        a.add(background("alice"));
        a.add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));

        assertThat(ids(keywordOnly.search(new CrystalQuery("alice", "migration deadline", 3)))).first().isEqualTo("deadline");
        assertThat(keywordOnly.count("alice")).isEqualTo(11);
        a.close();
        keywordOnly.close();
    }

    @Test
    void should_keep_text_that_postgresql_text_columns_refuse_and_still_index_it() {
        JdbcCrystalStore store = instance(CrystalRanking.defaults());
        String text = "Quarterly \u0000 report with an unpaired surrogate \uD800 and 😀";
        Crystal crystal = new Crystal("c", "alice", CrystalKind.NOTE, Instant.parse("2026-03-12T14:30:00.123456Z"), 0.4,
                List.of("tag \u0000", "decision"), text, "source \uD800", "context \u0000 about revenue");
        store.add(List.of(crystal));

        assertThat(store.get("c")).contains(crystal);
        assertThat(ids(store.search(new CrystalQuery("alice", "quarterly", 1)))).containsExactly("c");
        assertThat(ids(store.search(new CrystalQuery("alice", "revenue", 1)))).as("context is searched").containsExactly("c");
        store.close();
    }

    @Test
    void should_find_by_meaning_what_an_instance_closed_before_embedding_it_left_behind() {
        JdbcCrystalStore a = instance(CrystalRanking.defaults());
        a.add(background("alice"));
        a.add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));
        a.close(); // its embedder may not have run

        JdbcCrystalStore vectorOnly = instance(new CrystalRanking(0, 1, 0.5, 20));

        assertThat(ids(vectorOnly.search(new CrystalQuery("alice", "when is the migration due", 3)))).contains("deadline");
        assertThat(vectors.search(dev.langchain4j.store.embedding.EmbeddingSearchRequest.builder()
                .queryEmbedding(TestEmbeddingModels.miniLm().embed("migration").content()).maxResults(100).build())
                .matches()).hasSize(11);
        vectorOnly.close();
    }

    @Test
    void should_embed_what_an_instance_without_an_embedding_store_added_once_one_with_it_searches() {
        JdbcCrystalStore keywordOnly = JdbcCrystalStore.builder().dataSource(database.dataSource()).build();
        keywordOnly.add(background("alice"));
        keywordOnly.add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));

        assertThat(ids(keywordOnly.search(new CrystalQuery("alice", "migration deadline", 3)))).first().isEqualTo("deadline");
        assertThat(ids(keywordOnly.search(new CrystalQuery("alice", "when is it due", 3))))
                .as("no vectors: only words the note contains find it").doesNotContain("deadline");
        assertThat(vectors.search(dev.langchain4j.store.embedding.EmbeddingSearchRequest.builder()
                .queryEmbedding(TestEmbeddingModels.miniLm().embed("migration").content()).maxResults(100).build())
                .matches()).isEmpty();

        JdbcCrystalStore vectorOnly = instance(new CrystalRanking(0, 1, 0.5, 20));
        assertThat(ids(vectorOnly.search(new CrystalQuery("alice", "when is the migration due", 3)))).contains("deadline");
        keywordOnly.close();
        vectorOnly.close();
    }
}
