package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.CrystalStoreContract;
import dev.workingmemory.crystal.TestEmbeddingModels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

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

    /**
     * A row written before tags were bounded, with a tool's 40,000-character name as its tag: the crystal is read with
     * its tag cut as a tag is now made, and the scope's other crystals with it.
     */
    @Test
    void should_read_a_row_whose_tag_is_over_the_limit_with_the_tag_cut() throws SQLException {
        Crystal tagged = new Crystal("deadline", "alice", CrystalKind.TOOL_OUTPUT, Instant.parse("2026-03-12T14:30:00Z"),
                0.3, List.of("from-tool"), "Deadline for the API migration is March 20th", null, null);
        store.add(List.of(tagged, CrystalStoreContract.note("later", "alice", "Tabs over spaces in the style guide")));
        store.count("alice");
        store.close();
        String longName = "t".repeat(40_000);
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement update = connection.prepareStatement("UPDATE wm_crystal SET tags = ? WHERE tags = ?")) {
            update.setBytes(1, Texts.encode("[\"" + longName + "\"]"));
            update.setBytes(2, Texts.encode("[\"from-tool\"]"));
            assertThat(update.executeUpdate()).isOne();
        }

        store = newStore();

        Crystal cut = new Crystal("deadline", "alice", CrystalKind.TOOL_OUTPUT, tagged.time(), 0.3,
                List.of(longName.substring(0, Crystal.MAX_TAG_LENGTH)), tagged.text(), null, null);
        assertThat(store.get("deadline")).contains(cut);
        assertThat(store.search(new CrystalQuery("alice", "when is the migration due", 1)))
                .extracting(CrystalHit::crystal).containsExactly(cut);
        assertThat(CrystalStoreContract.ids(store.search(new CrystalQuery("alice", "tabs or spaces", 1))))
                .containsExactly("later");
    }
}
