package dev.workingmemory.jdbc;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.store.MessageLog;
import dev.workingmemory.store.MessageLogEntry;
import dev.workingmemory.store.Snapshot;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.VersionConflictException;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static dev.workingmemory.jdbc.Database.query;
import static dev.workingmemory.jdbc.Database.queryOne;
import static dev.workingmemory.jdbc.Database.update;

/**
 * A {@link WorkingMemoryStore} in PostgreSQL, for several application instances sharing their users' memories.
 *
 * <pre>{@code
 * WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
 *         .store(new JdbcWorkingMemoryStore(dataSource))
 *         .build();
 * }</pre>
 *
 * <p>The constructor creates the tables ({@code wm_*}, in the connection's current schema) if they are absent and
 * checks their schema version: an older one is migrated, a newer one refused with a {@link WorkingMemoryStoreException}.
 *
 * <ul>
 *   <li>{@link #save} is a compare-and-set in one statement: {@code UPDATE … WHERE version = ?}, or for version 0 an
 *       {@code INSERT … ON CONFLICT DO NOTHING}; no row changed means a {@link VersionConflictException}.</li>
 *   <li>A note is a row: {@link #appendNote} inserts it, never reading or rewriting the others. Appends to one key are
 *       ordered by a per-key row that each append and removal stamps with the next number of a sequence; that number
 *       is {@link #notesVersion} and orders the notes.</li>
 *   <li>A message log is a row per entry ({@code wm_message}) and one per key ({@code wm_message_log}) holding the
 *       seq of its last entry: {@link #appendMessages} is a compare-and-set on that row ({@code UPDATE … WHERE last_seq =
 *       ?}, which also locks it until commit) and inserts the entries in the same transaction; {@link #messagesVersion}
 *       reads that row by its primary key; {@link #trimMessages} deletes entry rows and leaves it.</li>
 *   <li>A lease is a row with an expiry in the database's clock, taken by one {@code INSERT … ON CONFLICT DO UPDATE …
 *       WHERE} statement, so the instances' clocks do not matter.</li>
 *   <li>Every write is one transaction: a connection lost in the middle leaves nothing half-written and is reported
 *       as a {@link WorkingMemoryStoreException}. Each call asks the DataSource for a connection, so the store works
 *       again as soon as the database does; give it a pooled DataSource with connect and socket timeouts.</li>
 *   <li>Keys, documents and notes are stored as bytes ({@code bytea}, UTF-8), so any Java string comes back exactly,
 *       NUL and unpaired surrogates included.</li>
 * </ul>
 *
 * <p>Thread-safe; holds no connection between calls.
 */
public final class JdbcWorkingMemoryStore implements WorkingMemoryStore {

    private static final Pattern LEASE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Longer leases are cut to this, which keeps the interval arithmetic far from overflow. */
    private static final long MAX_LEASE_MICROS = Duration.ofDays(365L * 100).toNanos() / 1_000;

    private final Database database;
    private final DataSource dataSource;

    /**
     * @param dataSource where the tables are (its connections' current schema); created there if absent
     * @throws WorkingMemoryStoreException when the database cannot be reached or holds a newer schema
     */
    public JdbcWorkingMemoryStore(DataSource dataSource) {
        this.database = Schema.open(dataSource);
        this.dataSource = dataSource;
    }

    /**
     * A {@link JdbcCrystalStore} on this store's database, so that every instance finds the notes and past turns the
     * others indexed, by keyword and by meaning, ranked as the embedded store ranks (crystals and vectors in the
     * tables, no extension needed). An {@code embeddingStore} of the application's receives a copy of every vector.
     */
    @Override
    public Optional<CrystalStore> openCrystalStore(EmbeddingModel embeddingModel,
                                                   EmbeddingStore<TextSegment> embeddingStore,
                                                   WorkingMemoryListener listener) {
        JdbcCrystalStore.Builder crystals = JdbcCrystalStore.builder().dataSource(dataSource)
                .embeddingStore(embeddingStore).listener(listener);
        if (embeddingModel != null) {
            crystals.embeddingModel(embeddingModel);
        }
        return Optional.of(crystals.build());
    }

    @Override
    public Optional<Snapshot> load(String key) {
        Key k = Key.of(key);
        return database.read("load key " + k, connection -> queryOne(connection,
                "SELECT version, document FROM wm_state WHERE key_hash = ?",
                row -> new Snapshot(key, row.getLong(1), Texts.decode(row.getBytes(2))), k.hash()));
    }

    @Override
    public Snapshot save(String key, long expectedVersion, String document) {
        Key k = Key.of(key);
        Ensure.that(expectedVersion >= 0, "expectedVersion must not be negative, was " + expectedVersion);
        Ensure.notNull(document, "document");
        byte[] body = Texts.encode(document);
        return database.write("save key " + k, connection -> {
            touch(connection, k);
            int changed = expectedVersion == 0
                    ? update(connection, "INSERT INTO wm_state (key_hash, version, document) VALUES (?, 1, ?)"
                            + " ON CONFLICT (key_hash) DO NOTHING", k.hash(), body)
                    : update(connection, "UPDATE wm_state SET version = version + 1, document = ?, updated_at = now()"
                            + " WHERE key_hash = ? AND version = ?", body, k.hash(), expectedVersion);
            if (changed == 0) {
                throw new VersionConflictException(key, expectedVersion, version(connection, k));
            }
            return new Snapshot(key, expectedVersion + 1, document);
        });
    }

    @Override
    public long version(String key) {
        Key k = Key.of(key);
        return database.read("read the version of key " + k, connection -> version(connection, k));
    }

    private static long version(Connection connection, Key k) throws SQLException {
        return queryOne(connection, "SELECT version FROM wm_state WHERE key_hash = ?", row -> row.getLong(1), k.hash())
                .orElse(0L);
    }

    @Override
    public void appendNote(String key, String line) {
        Key k = Key.of(key);
        Ensure.notNull(line, "line");
        Ensure.that(!line.isBlank(), "A notes log line must not be blank");
        Ensure.that(line.indexOf('\n') < 0 && line.indexOf('\r') < 0, "A notes log line must not contain a line break");
        byte[] text = Texts.encode(line);
        database.write("append a note to key " + k, connection -> {
            touch(connection, k);
            // The log row stays locked until commit, so one key's appends commit in the order of their numbers.
            long seq = stampNotesLog(connection, k, "INSERT INTO wm_notes_log (key_hash, version)"
                    + " VALUES (?, nextval('wm_notes_change')) ON CONFLICT (key_hash)"
                    + " DO UPDATE SET version = nextval('wm_notes_change') RETURNING version");
            update(connection, "INSERT INTO wm_note (key_hash, seq, line) VALUES (?, ?, ?)", k.hash(), seq, text);
            return null;
        });
    }

    private static long stampNotesLog(Connection connection, Key k, String sql) throws SQLException {
        return queryOne(connection, sql, row -> row.getLong(1), k.hash())
                .orElseThrow(() -> new SQLException("The notes log row of key " + k + " is missing"));
    }

    @Override
    public List<String> notes(String key) {
        Key k = Key.of(key);
        return database.read("read the notes of key " + k,
                connection -> noteRows(connection, k).stream().map(NoteRow::line).toList());
    }

    private record NoteRow(long seq, String line) {
    }

    private static List<NoteRow> noteRows(Connection connection, Key k) throws SQLException {
        return query(connection, "SELECT seq, line FROM wm_note WHERE key_hash = ? ORDER BY seq",
                row -> new NoteRow(row.getLong(1), Texts.decode(row.getBytes(2))), k.hash());
    }

    @Override
    public void removeNotes(String key, Collection<String> lines) {
        Key k = Key.of(key);
        Ensure.notNull(lines, "lines");
        Map<String, Integer> toRemove = new HashMap<>();
        for (String line : lines) {
            toRemove.merge(Ensure.notNull(line, "line"), 1, Integer::sum);
        }
        if (toRemove.isEmpty()) {
            return;
        }
        database.write("remove notes of key " + k, connection -> {
            // Locking the log row keeps appends out until commit; without it there is nothing to remove.
            if (queryOne(connection, "SELECT version FROM wm_notes_log WHERE key_hash = ? FOR UPDATE",
                    row -> row.getLong(1), k.hash()).isEmpty()) {
                return null;
            }
            // The oldest occurrences go first, as with the other stores.
            List<Long> removed = new ArrayList<>();
            for (NoteRow note : noteRows(connection, k)) {
                Integer count = toRemove.get(note.line());
                if (count != null) {
                    removed.add(note.seq());
                    if (count == 1) {
                        toRemove.remove(note.line());
                    } else {
                        toRemove.put(note.line(), count - 1);
                    }
                }
            }
            if (!removed.isEmpty()) {
                update(connection, "DELETE FROM wm_note WHERE key_hash = ? AND seq = ANY (?)", k.hash(),
                        connection.createArrayOf("bigint", removed.toArray()));
                stampNotesLog(connection, k, "UPDATE wm_notes_log SET version = nextval('wm_notes_change')"
                        + " WHERE key_hash = ? RETURNING version");
            }
            return null;
        });
    }

    @Override
    public long notesVersion(String key) {
        Key k = Key.of(key);
        return database.read("read the notes version of key " + k, connection -> queryOne(connection,
                "SELECT log.version FROM wm_notes_log log WHERE log.key_hash = ?"
                        + " AND EXISTS (SELECT 1 FROM wm_note n WHERE n.key_hash = log.key_hash)",
                row -> row.getLong(1), k.hash()).orElse(0L));
    }

    @Override
    public long appendMessages(String key, long expectedLastSeq, List<MessageLogEntry> entries) {
        Key k = Key.of(key);
        MessageLog.checkAppend(expectedLastSeq, entries);
        List<byte[]> texts = entries.stream().map(entry -> Texts.encode(entry.toJson())).toList();
        long lastSeq = expectedLastSeq + entries.size();
        return database.write("append messages to key " + k, connection -> {
            touch(connection, k);
            // The log row is the compare-and-set, and stays locked until commit: appends of one key are serialized.
            int changed = expectedLastSeq == 0
                    ? update(connection, "INSERT INTO wm_message_log (key_hash, last_seq) VALUES (?, ?)"
                            + " ON CONFLICT (key_hash) DO NOTHING", k.hash(), lastSeq)
                    : update(connection, "UPDATE wm_message_log SET last_seq = ? WHERE key_hash = ? AND last_seq = ?",
                            lastSeq, k.hash(), expectedLastSeq);
            if (changed == 0) {
                throw new VersionConflictException(key, expectedLastSeq, messagesVersion(connection, k));
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO wm_message (key_hash, seq, entry) VALUES (?, ?, ?)")) {
                long seq = expectedLastSeq;
                for (byte[] text : texts) {
                    insert.setBytes(1, k.hash());
                    insert.setLong(2, ++seq);
                    insert.setBytes(3, text);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            return lastSeq;
        });
    }

    /** One statement: the entries and the log's last seq read together. */
    @Override
    public MessageLog messages(String key, long afterSeq) {
        Key k = Key.of(key);
        return database.read("read the messages of key " + k, connection -> {
            long[] lastSeq = {0};
            List<MessageLog.Entry> entries = new ArrayList<>();
            query(connection, "SELECT log.last_seq, m.seq, m.entry FROM wm_message_log log"
                    + " LEFT JOIN wm_message m ON m.key_hash = log.key_hash AND m.seq > ?"
                    + " WHERE log.key_hash = ? ORDER BY m.seq", row -> {
                lastSeq[0] = row.getLong(1);
                byte[] entry = row.getBytes(3);
                if (entry != null) {
                    entries.add(new MessageLog.Entry(row.getLong(2), MessageLogEntry.fromJson(Texts.decode(entry))));
                }
                return null;
            }, afterSeq, k.hash());
            return new MessageLog(lastSeq[0], entries);
        });
    }

    @Override
    public long messagesVersion(String key) {
        Key k = Key.of(key);
        return database.read("read the messages version of key " + k, connection -> messagesVersion(connection, k));
    }

    private static long messagesVersion(Connection connection, Key k) throws SQLException {
        return queryOne(connection, "SELECT last_seq FROM wm_message_log WHERE key_hash = ?", row -> row.getLong(1),
                k.hash()).orElse(0L);
    }

    @Override
    public void trimMessages(String key, long throughSeq) {
        Key k = Key.of(key);
        database.write("trim the messages of key " + k, connection -> update(connection,
                "DELETE FROM wm_message WHERE key_hash = ? AND seq <= ?", k.hash(), throughSeq));
    }

    @Override
    public void putDocument(String key, String name, String text) {
        Key k = Key.of(key);
        StoredDocument.checkName(name);
        Ensure.notNull(text, "text");
        byte[] body = Texts.encode(text);
        database.write("write document " + name + " of key " + k, connection -> {
            touch(connection, k);
            return update(connection, "INSERT INTO wm_document (key_hash, name, body) VALUES (?, ?, ?)"
                    + " ON CONFLICT (key_hash, name) DO UPDATE SET body = EXCLUDED.body", k.hash(), name, body);
        });
    }

    @Override
    public Optional<String> getDocument(String key, String name) {
        Key k = Key.of(key);
        StoredDocument.checkName(name);
        return database.read("read document " + name + " of key " + k, connection -> queryOne(connection,
                "SELECT body FROM wm_document WHERE key_hash = ? AND name = ?",
                row -> Texts.decode(row.getBytes(1)), k.hash(), name));
    }

    @Override
    public List<StoredDocument> documents(String key) {
        Key k = Key.of(key);
        return database.read("list the documents of key " + k, connection -> query(connection,
                "SELECT name, octet_length(body) FROM wm_document WHERE key_hash = ?",
                row -> new StoredDocument(row.getString(1), row.getLong(2)), k.hash()));
    }

    @Override
    public void deleteDocument(String key, String name) {
        Key k = Key.of(key);
        StoredDocument.checkName(name);
        database.write("delete document " + name + " of key " + k, connection ->
                update(connection, "DELETE FROM wm_document WHERE key_hash = ? AND name = ?", k.hash(), name));
    }

    @Override
    public boolean acquireLease(String key, String name, String owner, Duration ttl) {
        Key k = Key.of(key);
        checkLeaseName(name);
        Ensure.notBlank(owner, "owner");
        Ensure.notNull(ttl, "ttl");
        Ensure.that(!ttl.isNegative() && !ttl.isZero(), "ttl must be positive, was " + ttl);
        long micros = ttl.compareTo(Duration.ofNanos(MAX_LEASE_MICROS * 1_000)) >= 0
                ? MAX_LEASE_MICROS : Math.max(1, ttl.toNanos() / 1_000);
        return database.write("take lease " + name + " of key " + k, connection -> !query(connection,
                "INSERT INTO wm_lease (key_hash, name, owner, expires_at)"
                        + " VALUES (?, ?, ?, clock_timestamp() + ? * INTERVAL '1 microsecond')"
                        + " ON CONFLICT (key_hash, name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at"
                        + " WHERE wm_lease.owner = EXCLUDED.owner OR wm_lease.expires_at <= clock_timestamp()"
                        + " RETURNING 1",
                row -> true, k.hash(), name, Texts.encode(owner), micros).isEmpty());
    }

    @Override
    public void releaseLease(String key, String name, String owner) {
        Key k = Key.of(key);
        checkLeaseName(name);
        Ensure.notNull(owner, "owner");
        database.write("release lease " + name + " of key " + k, connection -> update(connection,
                "DELETE FROM wm_lease WHERE key_hash = ? AND name = ? AND owner = ?", k.hash(), name, Texts.encode(owner)));
    }

    private static void checkLeaseName(String name) {
        Ensure.notNull(name, "name");
        Ensure.that(LEASE_NAME.matcher(name).matches(),
                "A lease name is 1 to 64 letters, digits, '-' and '_'; was '" + name + "'");
    }

    @Override
    public void delete(String key) {
        Key k = Key.of(key);
        database.write("delete key " + k, connection -> {
            // wm_key first: every write touches it first, so writers of one key lock in the same order.
            for (String table : List.of("wm_key", "wm_state", "wm_notes_log", "wm_note", "wm_message_log", "wm_message",
                    "wm_document", "wm_lease")) {
                update(connection, "DELETE FROM " + table + " WHERE key_hash = ?", k.hash());
            }
            return null;
        });
    }

    @Override
    public List<String> keys() {
        return database.read("list the keys", connection -> query(connection, "SELECT key_text FROM wm_key k WHERE"
                + " EXISTS (SELECT 1 FROM wm_state s WHERE s.key_hash = k.key_hash)"
                + " OR EXISTS (SELECT 1 FROM wm_note n WHERE n.key_hash = k.key_hash)"
                + " OR EXISTS (SELECT 1 FROM wm_message_log l WHERE l.key_hash = k.key_hash)"
                + " OR EXISTS (SELECT 1 FROM wm_document d WHERE d.key_hash = k.key_hash)",
                row -> Texts.decode(row.getBytes(1))));
    }

    /** Records the key's text beside its hash for {@link #keys()}; a row left after its data went is skipped there. */
    private static void touch(Connection connection, Key k) throws SQLException {
        update(connection, "INSERT INTO wm_key (key_hash, key_text) VALUES (?, ?) ON CONFLICT (key_hash) DO NOTHING",
                k.hash(), k.text());
    }

    /** A store key as the tables hold it. */
    private record Key(String key, byte[] text, byte[] hash) {

        static Key of(String key) {
            Ensure.notNull(key, "key");
            byte[] text = Texts.encode(key);
            return new Key(key, text, Texts.hash(text));
        }

        /** The key for messages: control characters replaced, long keys cut. */
        @Override
        public String toString() {
            String shown = key.length() > 100 ? key.substring(0, 100) + "…(" + key.length() + " chars)" : key;
            return "'" + shown.replaceAll("\\p{Cntrl}", "?") + "'";
        }
    }
}
