package dev.workingmemory.jdbc;

import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.Snapshot;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaTest extends DatabaseTest {

    private int storedVersion() throws Exception {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            return Schema.version(statement);
        }
    }

    private List<String> tables() throws Exception {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
                     + " WHERE table_schema = '" + database.schema() + "' ORDER BY table_name")) {
            List<String> tables = new ArrayList<>();
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
            return tables;
        }
    }

    @Test
    void should_create_the_tables_and_record_the_schema_version_in_an_empty_database() throws Exception {
        new JdbcWorkingMemoryStore(database.dataSource());

        assertThat(storedVersion()).isEqualTo(Schema.CURRENT);
        assertThat(tables()).containsExactly("wm_chat_messages", "wm_crystal", "wm_crystal_copy_removal",
                "wm_crystal_forgotten", "wm_crystal_removed", "wm_crystal_scope", "wm_document", "wm_key", "wm_lease", "wm_message",
                "wm_message_log", "wm_note", "wm_notes_log", "wm_schema", "wm_state", "wm_vector_model");
    }

    @Test
    void should_keep_the_data_when_instances_open_the_tables_again() {
        new JdbcWorkingMemoryStore(database.dataSource()).save("k", 0, "{}");

        new JdbcChatMemoryStore(database.dataSource());

        assertThat(new JdbcWorkingMemoryStore(database.dataSource()).version("k")).isEqualTo(1);
    }

    @Test
    void should_create_the_tables_once_when_instances_start_together() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<JdbcWorkingMemoryStore>> started = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Callable<JdbcWorkingMemoryStore> start = () -> new JdbcWorkingMemoryStore(database.dataSource());
                started.add(pool.submit(start));
            }
            for (Future<JdbcWorkingMemoryStore> store : started) {
                assertThat(store.get()).isNotNull();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(storedVersion()).isEqualTo(Schema.CURRENT);
    }

    @Test
    void should_migrate_a_database_whose_version_table_says_it_has_no_tables_yet() throws Exception {
        database.execute("CREATE TABLE wm_schema (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL)");
        database.execute("INSERT INTO wm_schema (id, version) VALUES (1, 0)");

        new JdbcWorkingMemoryStore(database.dataSource()).appendNote("k", "- a");

        assertThat(storedVersion()).isEqualTo(Schema.CURRENT);
    }

    @Test
    void should_migrate_a_version_1_database_to_the_current_version_keeping_its_data() throws Exception {
        Schema.migrate(new Database(database.dataSource()), 1);
        assertThat(tables()).doesNotContain("wm_crystal");
        // a state saved by version 1: the key hash is the SHA-256 of the key's UTF-8
        database.execute("INSERT INTO wm_state (key_hash, version, document) VALUES (sha256('k'::bytea), 3, '{}'::bytea)");

        JdbcWorkingMemoryStore store = new JdbcWorkingMemoryStore(database.dataSource());

        assertThat(storedVersion()).isEqualTo(Schema.CURRENT).isEqualTo(7);
        assertThat(tables()).contains("wm_crystal", "wm_message_log", "wm_message", "wm_crystal_scope",
                "wm_vector_model", "wm_crystal_forgotten", "wm_crystal_copy_removal");
        assertThat(store.load("k")).contains(new Snapshot("k", 3, "{}"));
    }

    @ParameterizedTest(name = "from version {0}")
    @ValueSource(ints = {2, 3})
    void should_migrate_crystals_of_versions_2_and_3_into_rows_that_every_instance_finds_by_meaning(int version)
            throws Exception {
        Schema.migrate(new Database(database.dataSource()), version);
        // a crystal as versions 2 and 3 wrote it: its vector in an embedding store, its keywords in a tsvector
        database.execute("INSERT INTO wm_crystal (id_hash, id, scope_hash, scope, kind, time, importance, tags, text,"
                + " search, revision, embedded_revision) VALUES (sha256('deadline'::bytea), 'deadline'::bytea,"
                + " sha256('alice'::bytea), 'alice'::bytea, 'note', '2026-03-12T14:30:00Z', 0.7, '[]'::bytea,"
                + " 'Deadline for the API migration is March 20th'::bytea, to_tsvector('english', 'deadline'),"
                + " nextval('wm_crystal_revision'), currval('wm_crystal_revision'))");

        try (JdbcCrystalStore crystals = JdbcCrystalStore.builder().dataSource(database.dataSource())
                .embeddingModel(TestEmbeddingModels.miniLm()).ranking(new CrystalRanking(0, 1, 0.5, 30)).build()) {
            assertThat(storedVersion()).isEqualTo(Schema.CURRENT);
            assertThat(tables()).contains("wm_crystal_scope", "wm_crystal_removed");
            assertThat(crystals.search(new CrystalQuery("alice", "when is the cut-off for moving the interface", 1)))
                    .extracting(hit -> hit.crystal().id()).containsExactly("deadline");
            assertThat(crystals.count("alice")).isEqualTo(1);
        }
    }

    @Test
    void should_refuse_a_database_of_a_newer_schema_version_and_leave_it_alone() throws Exception {
        new JdbcWorkingMemoryStore(database.dataSource());
        database.execute("UPDATE wm_schema SET version = 99");

        assertThatThrownBy(() -> new JdbcWorkingMemoryStore(database.dataSource()))
                .isInstanceOf(WorkingMemoryStoreException.class)
                .hasMessageContaining("schema version 99, newer than version " + Schema.CURRENT)
                .hasMessageContaining("upgrade langchain4j-working-memory-jdbc");
        assertThatThrownBy(() -> new JdbcChatMemoryStore(database.dataSource()))
                .isInstanceOf(WorkingMemoryStoreException.class);
        assertThat(storedVersion()).isEqualTo(99);
    }

    @Test
    void should_report_an_unreachable_database_as_a_store_failure() {
        String url = "jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2";

        assertThatThrownBy(() -> new JdbcWorkingMemoryStore(TestDatabase.unpooled(url, "public")))
                .isInstanceOf(WorkingMemoryStoreException.class)
                .hasMessageStartingWith("Cannot create or check the working-memory tables in the database")
                .hasMessageContaining("SQLState 08");
    }
}
