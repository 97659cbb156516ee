package dev.workingmemory.dream;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.jdbc.DatabaseTest;
import dev.workingmemory.jdbc.JdbcWorkingMemoryStore;
import org.junit.jupiter.api.Test;

/**
 * Dreams in PostgreSQL mode read the crystals as in the embedded one ({@link DreamCrystalsTest}, whose scenarios run
 * here on a provider given a {@link JdbcWorkingMemoryStore}): the crystals made since the last dream ({@code recent}),
 * the pointer check's searches and keywords, the topics a dream moves out of the state found again by their pointer.
 */
class JdbcDreamCrystalsTest extends DatabaseTest {

    private WorkingMemoryProvider.Builder provider() {
        return WorkingMemoryProvider.builder().store(new JdbcWorkingMemoryStore(database.dataSource()))
                .embeddingModel(TestEmbeddingModels.miniLm()).dreams(DreamConfig.builder().scheduled(false).build());
    }

    @Test
    void should_read_the_new_crystals_and_commit_pointers_whose_keywords_find_their_crystal() {
        DreamCrystalsTest.commitsPointersWhoseKeywordsFindTheirCrystal(provider());
    }

    @Test
    void should_keep_what_a_dream_moves_out_of_the_state_searchable_for_its_pointer() {
        DreamCrystalsTest.keepsWhatADreamMovesOutSearchableForItsPointer(provider());
    }
}
