package dev.workingmemory.jdbc;

import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The tables of the JDBC stores and their version, kept in {@code wm_schema}. {@link #open} brings a database (the
 * connection's current schema) to {@link #CURRENT} by running the migrations it lacks, in one transaction under an
 * advisory lock, so instances starting together do not race; a database of a newer version is refused.
 *
 * <p>Texts are {@code bytea} in {@link Texts WTF-8}; keys and memory ids are looked up by their SHA-256
 * ({@code key_hash}), since a key may be longer than an index entry allows.
 *
 * <p>Thread-safe (stateless).
 */
final class Schema {

    private static final Logger log = LoggerFactory.getLogger(Schema.class);

    /** Any fixed number: the advisory lock that serializes schema changes of every instance. */
    private static final long LOCK = 0x776d_5363_6865_6d61L;

    /** Migration {@code i} brings the schema from version {@code i} to {@code i + 1}. */
    private static final List<List<String>> MIGRATIONS = List.of(
            // 0 -> 1: the working-memory store and the chat memory store
            List.of(
                    "CREATE TABLE wm_key (key_hash BYTEA PRIMARY KEY, key_text BYTEA NOT NULL)",
                    "CREATE TABLE wm_state (key_hash BYTEA PRIMARY KEY, version BIGINT NOT NULL, document BYTEA NOT NULL,"
                            + " updated_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                    // Every change of any notes log takes the next number, so a notes version never comes back.
                    "CREATE SEQUENCE wm_notes_change",
                    "CREATE TABLE wm_notes_log (key_hash BYTEA PRIMARY KEY, version BIGINT NOT NULL)",
                    "CREATE TABLE wm_note (key_hash BYTEA NOT NULL, seq BIGINT NOT NULL, line BYTEA NOT NULL,"
                            + " created_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (key_hash, seq))",
                    "CREATE TABLE wm_document (key_hash BYTEA NOT NULL, name TEXT NOT NULL, body BYTEA NOT NULL,"
                            + " PRIMARY KEY (key_hash, name))",
                    "CREATE TABLE wm_lease (key_hash BYTEA NOT NULL, name TEXT NOT NULL, owner BYTEA NOT NULL,"
                            + " expires_at TIMESTAMPTZ NOT NULL, PRIMARY KEY (key_hash, name))",
                    "CREATE TABLE wm_chat_messages (memory_id_hash BYTEA PRIMARY KEY, memory_id BYTEA NOT NULL,"
                            + " messages BYTEA NOT NULL)"),
            // 1 -> 2: crystals, with their full-text index; embedded_revision lags revision until the vector is stored.
            List.of(
                    "CREATE SEQUENCE wm_crystal_revision",
                    "CREATE TABLE wm_crystal (id_hash BYTEA PRIMARY KEY, id BYTEA NOT NULL, scope_hash BYTEA NOT NULL,"
                            + " scope BYTEA NOT NULL, kind TEXT NOT NULL, time TIMESTAMPTZ NOT NULL,"
                            + " importance DOUBLE PRECISION NOT NULL, tags BYTEA NOT NULL, text BYTEA NOT NULL,"
                            + " source BYTEA, context BYTEA, search TSVECTOR NOT NULL, revision BIGINT NOT NULL,"
                            + " embedded_revision BIGINT NOT NULL DEFAULT 0)",
                    "CREATE INDEX wm_crystal_search ON wm_crystal USING GIN (search)",
                    "CREATE INDEX wm_crystal_scope_time ON wm_crystal (scope_hash, time)",
                    "CREATE INDEX wm_crystal_unembedded ON wm_crystal (revision) WHERE embedded_revision <> revision"),
            // 2 -> 3: the message log of each thread's window; last_seq is its compare-and-set, kept through trims.
            List.of(
                    "CREATE TABLE wm_message_log (key_hash BYTEA PRIMARY KEY, last_seq BIGINT NOT NULL)",
                    "CREATE TABLE wm_message (key_hash BYTEA NOT NULL, seq BIGINT NOT NULL, entry BYTEA NOT NULL,"
                            + " PRIMARY KEY (key_hash, seq))"),
            // 3 -> 4: each crystal's vector in its row (the vectors were in an EmbeddingStore: every row is embedded
            // again); a change number per scope, taken under the scope's row lock so that one scope's changes commit
            // in order, which instances compare with their cache's; removed crystals remembered by their change; the
            // full-text column goes (keywords are searched by the same Lucene index in every store now)
            List.of(
                    "ALTER TABLE wm_crystal ADD COLUMN vector BYTEA",
                    "ALTER TABLE wm_crystal ADD COLUMN change BIGINT NOT NULL DEFAULT 0",
                    "ALTER TABLE wm_crystal ADD COLUMN embed_claim TIMESTAMPTZ",
                    "UPDATE wm_crystal SET embedded_revision = 0",
                    "DROP INDEX wm_crystal_search",
                    "ALTER TABLE wm_crystal DROP COLUMN search",
                    "CREATE INDEX wm_crystal_scope_change ON wm_crystal (scope_hash, change)",
                    "CREATE TABLE wm_crystal_scope (scope_hash BYTEA PRIMARY KEY, change BIGINT NOT NULL,"
                            + " reset BIGINT NOT NULL)",
                    "INSERT INTO wm_crystal_scope (scope_hash, change, reset) SELECT scope_hash,"
                            + " nextval('wm_crystal_revision'), currval('wm_crystal_revision') FROM wm_crystal"
                            + " GROUP BY scope_hash",
                    "CREATE TABLE wm_crystal_removed (scope_hash BYTEA NOT NULL, id_hash BYTEA NOT NULL,"
                            + " id BYTEA NOT NULL, change BIGINT NOT NULL, PRIMARY KEY (scope_hash, id_hash))"),
            // 4 -> 5: the embedding model of the stored vectors (none recorded: the default all-MiniLM-L6-v2's);
            // an instance embedding with another marks them stale at start-up (CrystalTable.recordVectorModel)
            List.of(
                    "CREATE TABLE wm_vector_model (id INT PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL)"),
            // 5 -> 6: when each scope's crystals were last deleted whole (a user forgotten), in the database's clock,
            // so that an instance does not write crystals it had queued before that (CrystalTable.upsert)
            List.of(
                    "CREATE TABLE wm_crystal_forgotten (scope_hash BYTEA PRIMARY KEY,"
                            + " forgotten_at TIMESTAMPTZ NOT NULL)"),
            // 6 -> 7: an application's EmbeddingStore kept in step with the rows when it is down for a while: the
            // vectors not copied there yet, claimed like embed_claim, and the copies still to remove from it (a
            // crystal's, or with no id a whole scope's). The rows of a version 6 database count as copied: whether
            // an instance had such a store is not known, and a store configured later is not filled with every
            // vector at once (CrystalTable)
            List.of(
                    "ALTER TABLE wm_crystal ADD COLUMN copy_pending BIGINT",
                    "ALTER TABLE wm_crystal ADD COLUMN copy_claim TIMESTAMPTZ",
                    "CREATE INDEX wm_crystal_uncopied ON wm_crystal (copy_pending) WHERE copy_pending IS NOT NULL",
                    "CREATE TABLE wm_crystal_copy_removal (seq BIGSERIAL PRIMARY KEY, scope_hash BYTEA NOT NULL,"
                            + " scope BYTEA NOT NULL, id_hash BYTEA, id BYTEA, claim TIMESTAMPTZ)"));

    /** The schema version this library reads and writes. */
    static final int CURRENT = MIGRATIONS.size();

    private Schema() {
    }

    /** The database behind {@code dataSource}, its tables created or migrated. */
    static Database open(DataSource dataSource) {
        Database database = new Database(dataSource);
        migrate(database, CURRENT);
        return database;
    }

    /** Brings the schema to version {@code target} (tests build older schemas with it). */
    static void migrate(Database database, int target) {
        database.write("create or check the working-memory tables", connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
                statement.execute("CREATE TABLE IF NOT EXISTS wm_schema"
                        + " (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL)");
                int found = version(statement);
                if (found > CURRENT) {
                    throw new WorkingMemoryStoreException("The database holds working-memory tables of schema version "
                            + found + ", newer than version " + CURRENT + " that this library knows: upgrade"
                            + " langchain4j-working-memory-jdbc, or give it another database or schema");
                }
                for (int version = found; version < target; version++) {
                    for (String sql : MIGRATIONS.get(version)) {
                        statement.execute(sql);
                    }
                }
                if (found < target) {
                    statement.execute("INSERT INTO wm_schema (id, version) VALUES (1, " + target + ")"
                            + " ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version");
                    log.info("Working-memory tables migrated from schema version {} to {}", found, target);
                }
            }
            return null;
        });
    }

    /** The stored schema version, 0 when the tables were never created. */
    static int version(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT version FROM wm_schema WHERE id = 1")) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }
}
