package dev.workingmemory.jdbc;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.testing.Await;
import dev.workingmemory.testing.ChildJvm;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL mode: a conversation an instance held when it was killed (a child JVM, four messages, no pause) is told
 * of its pause by the next instance that loads a memory of its user, and becomes searchable from the user's other
 * conversations there.
 */
class JdbcPauseLeftByAKilledInstanceTest extends DatabaseTest {

    private static final Duration WAIT = Duration.ofMinutes(2);

    private List<String> marks(JdbcWorkingMemoryStore store) {
        return store.documents(MemoryKey.of("maya").resourceStoreKey()).stream().map(StoredDocument::name)
                .filter(name -> name.startsWith("unpaused-")).toList();
    }

    @Test
    void should_make_the_conversation_of_a_killed_instance_searchable_at_the_next_load_of_its_user() throws Exception {
        JdbcWorkingMemoryStore store = new JdbcWorkingMemoryStore(database.dataSource());
        try (ChildJvm killed = ChildJvm.start(JdbcKilledConversationProcess.class, database.url(), database.schema())) {
            killed.awaitLine("added"::equals, WAIT);
            killed.kill();
        }
        assertThat(marks(store)).hasSize(1);

        try (WorkingMemoryProvider next = WorkingMemoryProvider.builder().store(store)
                .embeddingModel(TestEmbeddingModels.hashing()).pauseAfter(Duration.ofMillis(100)).build()) {
            MemoryKey tuesday = MemoryKey.of("maya", "tuesday");
            String question = "when does my sister Lena arrive from Lisbon";
            next.memory(tuesday);
            Await.until("monday's exchanges found from tuesday", WAIT,
                    () -> next.memory(tuesday).search(question, 5).size() == 2);

            assertThat(next.memory(tuesday).search(question, 5)).extracting(MemoryHit::text)
                    .anyMatch(text -> text.contains(JdbcKilledConversationProcess.ARRIVAL));
            assertThat(next.memory(MemoryKey.of("ben", "tuesday")).search(question, 5)).isEmpty();
            assertThat(marks(store)).isEmpty();
        }
    }
}
