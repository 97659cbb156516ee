package dev.workingmemory.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.internal.Utf16;
import dev.workingmemory.internal.VectorModel;

import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import static dev.workingmemory.jdbc.Database.batch;
import static dev.workingmemory.jdbc.Database.query;
import static dev.workingmemory.jdbc.Database.queryOne;
import static dev.workingmemory.jdbc.Database.update;

/**
 * The SQL of {@link JdbcCrystalStore}.
 *
 * <ul>
 *   <li>{@code wm_crystal}: a row per crystal, with {@code revision} (a new number whenever its text or context
 *       changes), the vector of its text ({@code vector}: float4s, big-endian; the current text's when
 *       {@code embedded_revision = revision}), {@code embed_claim} (until when an instance is embedding it) and
 *       {@code change} (the change of its scope that last wrote it).</li>
 *   <li>{@code wm_crystal_scope}: a row per scope with the number of its last {@code change}, and {@code reset}: where
 *       its history starts (a cache that has not seen that change loads the scope whole).</li>
 *   <li>{@code wm_crystal_removed}: the crystals removed from a scope, with the change that removed them; past
 *       {@value #MAX_REMOVED} of a scope they are forgotten and the scope's {@code reset} moves to that change.</li>
 *   <li>{@code wm_crystal_forgotten}: when each scope was last deleted whole (its user forgotten), in the database's
 *       clock; kept after the scope is gone.</li>
 *   <li>For an application's embedding store ({@code copies}): {@code wm_crystal.copy_pending}, the number of a vector
 *       not copied there yet (null: copied, or nothing to copy), and {@code copy_claim} (until when an instance is
 *       copying it); {@code wm_crystal_copy_removal}, the copies still to be removed from it: a crystal's, or (no id)
 *       every one of a scope. Both are written in the transaction that stores the vector or deletes the crystals, so
 *       that no copy and no removal is lost when that store is down.</li>
 * </ul>
 * Every write of a scope first takes the next change number (of the sequence {@code wm_crystal_revision}) on its
 * {@code wm_crystal_scope} row, which stays locked until the write commits: one scope's writes commit in the order of
 * their numbers, so an instance that has seen a scope up to change {@code n} finds every later write by its number.
 *
 * <p>Thread-safe (holds no connection).
 */
final class CrystalTable {

    /** The removed crystals remembered per scope; an instance behind more removals than this loads the scope whole. */
    static final int MAX_REMOVED = 1_000;
    private static final int LOAD_CHUNK = 500;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, scope, kind, time, importance, tags, text, source, context";
    /** Any fixed number: the advisory lock under which an instance records the model of the vectors. */
    private static final long MODEL_LOCK = 0x776d_566d_6f64_656cL;
    /** The vector of a row's current text, or null. */
    private static final String CURRENT_VECTOR = "CASE WHEN embedded_revision = revision THEN vector END";
    /** Whether a row's current text gets no vector: done for its revision, without one ({@link #markKeywordsOnly}). */
    private static final String KEYWORDS_ONLY = "(embedded_revision = revision AND vector IS NULL)";
    /** The columns of a {@link Row} ({@link #row}). */
    private static final String ROW_COLUMNS = COLUMNS + ", revision, " + CURRENT_VECTOR + ", " + KEYWORDS_ONLY;
    /** A crystal's vector is of its text alone ({@code Crystal#textToIndex}): a new context keeps it. */
    private static final String SAME_TEXT = "wm_crystal.text = EXCLUDED.text";

    private final Database database;
    /** Whether the vectors are copied into an application's embedding store (which this table then keeps in step). */
    private final boolean copies;

    CrystalTable(Database database, boolean copies) {
        this.database = database;
        this.copies = copies;
    }

    /**
     * A crystal as its row holds it.
     *
     * @param revision     the revision of its text
     * @param vector       the vector of that text, or null when it has none
     * @param keywordsOnly whether its text gets no vector (tagged {@link Crystal#KEYWORDS_ONLY}, or refused by the
     *                     model: {@link #markKeywordsOnly}); false while one is to be made
     */
    record Row(Crystal crystal, long revision, float[] vector, boolean keywordsOnly) {
    }

    /** Where a scope's history stands: the number of its last change, and the change its history starts from. */
    record Version(long change, long reset) {
    }

    /**
     * What changed in a scope after a change number: the crystals added or replaced (with their vectors) and the ids
     * of those removed, apart from each other.
     */
    record Changes(List<Row> rows, List<String> removed) {
    }

    /** A crystal's new vector (null: none, {@link #markKeywordsOnly}), for the revision of the text it was made of. */
    record Embedded(String id, String scope, long revision, float[] vector) {
    }

    /** A vector to copy into the application's embedding store, and its number ({@code copy_pending}). */
    record Copy(Crystal crystal, float[] vector, long number) {
    }

    /** A copy to remove from the application's embedding store: a crystal's, or every one of the scope (id null). */
    record Uncopy(long seq, String scope, String crystalId) {
    }

    static byte[] hash(String text) {
        return Texts.hash(Texts.encode(text));
    }

    /**
     * Inserts or replaces the crystals in one transaction; a crystal whose text changed needs a vector again. A crystal
     * of a scope deleted whole ({@link #deleteScope}) since it was queued is left out: it was made from what was
     * deleted (by an instance that did not know yet).
     *
     * @param queuedAt when each crystal was queued, by {@link System#nanoTime()}
     * @return how many crystals were left out so
     */
    int upsert(List<Crystal> queued, long[] queuedAt) {
        List<Crystal> batch = lastOfEachId(queued);
        return database.write("store " + batch.size() + " crystals", connection -> {
            Map<ByteBuffer, Long> changes = new HashMap<>();
            Map<ByteBuffer, List<Crystal>> byScope = new TreeMap<>();
            for (Crystal crystal : batch) {
                byScope.computeIfAbsent(ByteBuffer.wrap(hash(crystal.scope())), s -> new ArrayList<>()).add(crystal);
            }
            for (ByteBuffer scope : byScope.keySet()) { // in one order, so that two writers never wait for each other
                changes.put(scope, nextChange(connection, scope.array()));
            }
            List<Crystal> crystals = notForgotten(connection, batch, queuedAt(queued, batch, queuedAt),
                    byScope.keySet());
            if (crystals.isEmpty()) {
                return batch.size();
            }
            removeFromOtherScopes(connection, crystals, changes);
            List<Object[]> rows = new ArrayList<>(crystals.size());
            for (Crystal crystal : crystals) {
                byte[] scopeHash = hash(crystal.scope());
                rows.add(new Object[] {hash(crystal.id()), Texts.encode(crystal.id()), Texts.encode(crystal.scope()),
                        crystal.kind().textName(), OffsetDateTime.ofInstant(crystal.time(), ZoneOffset.UTC),
                        crystal.importance(), tags(crystal.tags()), Texts.encode(crystal.text()),
                        encodeOrNull(crystal.source()), encodeOrNull(crystal.context()), scopeHash,
                        changes.get(ByteBuffer.wrap(scopeHash))});
            }
            batch(connection, "INSERT INTO wm_crystal (id_hash, " + COLUMNS + ", scope_hash, revision, change)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, nextval('wm_crystal_revision'), ?)"
                    + " ON CONFLICT (id_hash) DO UPDATE SET id = EXCLUDED.id, scope = EXCLUDED.scope,"
                    + " kind = EXCLUDED.kind, time = EXCLUDED.time, importance = EXCLUDED.importance,"
                    + " tags = EXCLUDED.tags, source = EXCLUDED.source, scope_hash = EXCLUDED.scope_hash,"
                    + " change = EXCLUDED.change, text = EXCLUDED.text, context = EXCLUDED.context,"
                    // every right-hand side reads the row as it was: the same text keeps its revision and vector
                    + " revision = CASE WHEN " + SAME_TEXT + " THEN wm_crystal.revision ELSE EXCLUDED.revision END,"
                    + " vector = CASE WHEN " + SAME_TEXT + " THEN wm_crystal.vector END,"
                    + " embed_claim = CASE WHEN " + SAME_TEXT + " THEN wm_crystal.embed_claim END", rows);
            return batch.size() - crystals.size();
        });
    }

    /**
     * The last crystal added of each id, in the order they were added. A crystal added again replaces the one before,
     * as two statements would; and one statement must not write a row twice, which it does when the driver rewrites a
     * batch into a multi-row {@code INSERT} ({@code reWriteBatchedInserts=true}): PostgreSQL refuses such an
     * {@code INSERT … ON CONFLICT DO UPDATE} every time, and the writer retried the batch, every user's crystals
     * queued behind it, for ever.
     */
    private static List<Crystal> lastOfEachId(List<Crystal> queued) {
        Map<String, Crystal> last = new LinkedHashMap<>();
        for (Crystal crystal : queued) {
            last.remove(crystal.id());
            last.put(crystal.id(), crystal);
        }
        return last.size() == queued.size() ? queued : List.copyOf(last.values());
    }

    /** When each crystal of {@code batch}, taken from {@code queued}, was queued. */
    private static long[] queuedAt(List<Crystal> queued, List<Crystal> batch, long[] queuedAt) {
        if (batch == queued) {
            return queuedAt;
        }
        Map<Crystal, Long> at = new IdentityHashMap<>();
        for (int i = 0; i < queued.size(); i++) {
            at.put(queued.get(i), queuedAt[i]);
        }
        return batch.stream().mapToLong(at::get).toArray();
    }

    /**
     * The crystals of {@code batch} queued after their scope was last deleted whole. Read holding the scopes' rows
     * (a deletion of one commits before, or waits for this write). How long ago the deletion was is measured by the
     * database's clock, how long ago a crystal was queued by this JVM's, right after: a crystal queued before the
     * deletion always looks older than it, one queued after it looks older only by the time the answer took to come.
     */
    private static List<Crystal> notForgotten(Connection connection, List<Crystal> batch, long[] queuedAt,
                                              Collection<ByteBuffer> scopes) throws SQLException {
        Map<ByteBuffer, Long> forgottenNanosAgo = new HashMap<>();
        for (Object[] row : query(connection, "SELECT scope_hash, (extract(epoch FROM clock_timestamp() - forgotten_at)"
                        + " * 1000000000)::bigint FROM wm_crystal_forgotten WHERE scope_hash = ANY (?)",
                row -> new Object[] {row.getBytes(1), row.getLong(2)},
                connection.createArrayOf("bytea", scopes.stream().map(ByteBuffer::array).toArray(byte[][]::new)))) {
            forgottenNanosAgo.put(ByteBuffer.wrap((byte[]) row[0]), (Long) row[1]);
        }
        if (forgottenNanosAgo.isEmpty()) {
            return batch;
        }
        long now = System.nanoTime();
        List<Crystal> kept = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Long ago = forgottenNanosAgo.get(ByteBuffer.wrap(hash(batch.get(i).scope())));
            if (ago == null || now - queuedAt[i] < ago) {
                kept.add(batch.get(i));
            }
        }
        return kept;
    }

    /** The ids that another scope holds leave it (a crystal id is unique across scopes): removed there. */
    private void removeFromOtherScopes(Connection connection, List<Crystal> crystals, Map<ByteBuffer, Long> changes)
            throws SQLException {
        Map<ByteBuffer, byte[]> scopeOf = new HashMap<>();
        for (Crystal crystal : crystals) {
            scopeOf.put(ByteBuffer.wrap(hash(crystal.id())), hash(crystal.scope()));
        }
        Array ids = connection.createArrayOf("bytea",
                scopeOf.keySet().stream().map(ByteBuffer::array).toArray(byte[][]::new));
        List<Object[]> moved = new ArrayList<>();
        for (Object[] row : query(connection, "SELECT id_hash, scope_hash, id FROM wm_crystal WHERE id_hash = ANY (?)"
                + " FOR UPDATE", row -> new Object[] {row.getBytes(1), row.getBytes(2), row.getBytes(3)}, ids)) {
            ByteBuffer oldScope = ByteBuffer.wrap((byte[]) row[1]);
            if (!oldScope.equals(ByteBuffer.wrap(scopeOf.get(ByteBuffer.wrap((byte[]) row[0]))))) {
                Long change = changes.get(oldScope);
                if (change == null) {
                    change = nextChange(connection, oldScope.array());
                    changes.put(oldScope, change);
                }
                moved.add(new Object[] {row[1], row[0], row[2], change});
            }
        }
        remember(connection, moved);
    }

    /** Takes the scope's next change number, locking its row until commit. */
    private static long nextChange(Connection connection, byte[] scopeHash) throws SQLException {
        return queryOne(connection, "INSERT INTO wm_crystal_scope AS s (scope_hash, change, reset)"
                        + " VALUES (?, nextval('wm_crystal_revision'), currval('wm_crystal_revision'))"
                        + " ON CONFLICT (scope_hash) DO UPDATE SET change = nextval('wm_crystal_revision')"
                        + " RETURNING s.change", row -> row.getLong(1), scopeHash)
                .orElseThrow(() -> new SQLException("No change number returned for a scope"));
    }

    /** Records removed crystals: (scope_hash, id_hash, id, change) each. */
    private static void remember(Connection connection, List<Object[]> removed) throws SQLException {
        batch(connection, "INSERT INTO wm_crystal_removed (scope_hash, id_hash, id, change) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (scope_hash, id_hash) DO UPDATE SET id = EXCLUDED.id, change = EXCLUDED.change", removed);
    }

    Optional<Crystal> get(String id) {
        return database.read("read a crystal", connection -> queryOne(connection,
                "SELECT " + COLUMNS + " FROM wm_crystal WHERE id_hash = ?", CrystalTable::crystal, hash(id)));
    }

    /** @return where the scope's history stands; empty when the scope has no crystals and never had */
    Optional<Version> version(String scope) {
        return database.read("read the version of a scope's crystals", connection -> queryOne(connection,
                "SELECT change, reset FROM wm_crystal_scope WHERE scope_hash = ?",
                row -> new Version(row.getLong(1), row.getLong(2)), hash(scope)));
    }

    /** Hands every crystal of the scope to {@code chunks}, a few hundred at a time, about in the order they were added. */
    void load(String scope, Consumer<List<Row>> chunks) {
        database.stream("load the crystals of a scope", LOAD_CHUNK, "SELECT " + ROW_COLUMNS
                + " FROM wm_crystal WHERE scope_hash = ? ORDER BY revision", CrystalTable::row, chunks, hash(scope));
    }

    /** @return what changed in the scope after change {@code since} */
    Changes changes(String scope, long since) {
        return database.read("read what changed in a scope's crystals", connection -> {
            Map<String, Long> rowChanges = new HashMap<>();
            List<Row> rows = query(connection, "SELECT " + ROW_COLUMNS + ", change"
                    + " FROM wm_crystal WHERE scope_hash = ? AND change > ? ORDER BY change", row -> {
                Row read = row(row);
                rowChanges.put(read.crystal().id(), row.getLong(13));
                return read;
            }, hash(scope), since);
            List<String> removed = new ArrayList<>();
            for (Object[] tombstone : query(connection, "SELECT id, change FROM wm_crystal_removed"
                    + " WHERE scope_hash = ? AND change > ?", row -> new Object[] {Texts.decode(row.getBytes(1)),
                    row.getLong(2)}, hash(scope), since)) {
                Long added = rowChanges.get((String) tombstone[0]);
                if (added == null || added < (Long) tombstone[1]) {
                    removed.add((String) tombstone[0]);
                }
            }
            Set<String> gone = Set.copyOf(removed);
            rows.removeIf(row -> gone.contains(row.crystal().id()));
            return new Changes(rows, removed);
        });
    }

    List<Crystal> recent(String scope, Instant after, int limit) {
        return database.read("read recent crystals", connection -> query(connection,
                "SELECT " + COLUMNS + " FROM wm_crystal WHERE scope_hash = ? AND time > ?"
                        + " ORDER BY importance DESC, time DESC, revision DESC LIMIT ?",
                CrystalTable::crystal, hash(scope), OffsetDateTime.ofInstant(after, ZoneOffset.UTC), limit));
    }

    int count(String scope) {
        return database.read("count crystals", connection -> queryOne(connection,
                "SELECT count(*) FROM wm_crystal WHERE scope_hash = ?", row -> row.getInt(1), hash(scope)).orElse(0));
    }

    /**
     * Claims crystals without a vector of their current text that no other instance is embedding, oldest change
     * first, for {@code claim}: other instances leave them alone until then.
     */
    List<Row> claimUnembedded(int limit, Duration claim) {
        return database.write("claim crystals to embed", connection -> query(connection,
                "UPDATE wm_crystal SET embed_claim = clock_timestamp() + ? * INTERVAL '1 millisecond'"
                        + " WHERE id_hash IN (SELECT id_hash FROM wm_crystal WHERE embedded_revision <> revision"
                        + " AND (embed_claim IS NULL OR embed_claim < clock_timestamp()) ORDER BY revision LIMIT ?"
                        + " FOR UPDATE SKIP LOCKED) RETURNING " + COLUMNS + ", revision, NULL, false",
                CrystalTable::row, claim.toMillis(), limit));
    }

    /**
     * Stores vectors made from the current revision of their crystals' texts, unless a vector of that revision and
     * of the same dimension is there already (another instance was first) or the text changed meanwhile.
     *
     * @return the ids whose vector was stored
     */
    List<String> storeVectors(List<Embedded> vectors) {
        return writeVectors("store the vectors of " + vectors.size() + " crystals", vectors, 0);
    }

    /**
     * Marks crystals that get no vector as done for their current revision, without one: those tagged
     * {@link Crystal#KEYWORDS_ONLY}, and those the embedding model refused. No instance claims them again (until
     * another model's vectors are asked for: {@link #recordVectorModel}), and the scope's change has every instance's
     * index take them as such. A crystal whose text changed meanwhile is left to be embedded, and one that has a vector
     * of {@code dimension} already, or was marked already (by another instance), is left as it is.
     *
     * @param dimension the model's, or 0 for crystals that get no vector whatever a row holds (tagged so)
     * @return the ids marked
     */
    List<String> markKeywordsOnly(List<Row> rows, int dimension) {
        return writeVectors("mark " + rows.size() + " crystals as found by keyword only", rows.stream().map(row ->
                new Embedded(row.crystal().id(), row.crystal().scope(), row.revision(), null)).toList(), dimension);
    }

    /** Writes vectors (null: none) into their rows, each scope under a new change; @return the ids written. */
    private List<String> writeVectors(String what, List<Embedded> vectors, int dimension) {
        if (vectors.isEmpty()) {
            return List.of();
        }
        return database.write(what, connection -> {
            Map<ByteBuffer, List<Embedded>> byScope = new TreeMap<>();
            for (Embedded embedded : vectors) {
                byScope.computeIfAbsent(ByteBuffer.wrap(hash(embedded.scope())), s -> new ArrayList<>()).add(embedded);
            }
            List<String> written = new ArrayList<>();
            for (Map.Entry<ByteBuffer, List<Embedded>> scope : byScope.entrySet()) {
                long change = nextChange(connection, scope.getKey().array());
                List<Object[]> rows = new ArrayList<>();
                for (Embedded embedded : scope.getValue()) {
                    byte[] bytes = embedded.vector() == null ? null : encode(embedded.vector());
                    // a vector to copy takes the change's number, new from the sequence: a copier that claimed an
                    // older one does not mark this one copied (copiesDone)
                    rows.add(new Object[] {bytes, change, copies && bytes != null ? change : null,
                            hash(embedded.id()), embedded.revision(), bytes == null ? dimension * Float.BYTES
                            : bytes.length});
                }
                // a NULL vector of the current revision is done too: octet_length(NULL) <> ? is not true
                int[] updated = batch(connection, "UPDATE wm_crystal SET vector = ?, embedded_revision = revision,"
                        + " embed_claim = NULL, change = ?, copy_pending = ? WHERE id_hash = ? AND revision = ?"
                        + " AND (embedded_revision <> revision OR octet_length(vector) <> ?)", rows);
                for (int i = 0; i < updated.length; i++) {
                    if (updated[i] > 0) {
                        written.add(scope.getValue().get(i).id());
                    }
                }
            }
            return written;
        });
    }

    /**
     * Deletes the scope's crystals among these ids; with copies, records in the same transaction that their copies are
     * to be removed from the application's embedding store.
     *
     * @return those removals (none without copies)
     */
    List<Uncopy> delete(String scope, Collection<String> ids) {
        byte[] scopeHash = hash(scope);
        return database.write("delete crystals", connection -> {
            long change = nextChange(connection, scopeHash);
            List<Object[]> deleted = query(connection,
                    "DELETE FROM wm_crystal WHERE id_hash = ANY (?) AND scope_hash = ? RETURNING id_hash, id",
                    row -> new Object[] {scopeHash, row.getBytes(1), row.getBytes(2), change},
                    connection.createArrayOf("bytea", ids.stream().map(CrystalTable::hash).toArray(byte[][]::new)),
                    scopeHash);
            remember(connection, deleted);
            if (!deleted.isEmpty() && queryOne(connection, "SELECT count(*) FROM wm_crystal_removed WHERE scope_hash = ?",
                    row -> row.getInt(1), scopeHash).orElse(0) > MAX_REMOVED) {
                // instances behind this change load the scope whole instead of reading every removal
                update(connection, "DELETE FROM wm_crystal_removed WHERE scope_hash = ?", scopeHash);
                update(connection, "UPDATE wm_crystal_scope SET reset = change WHERE scope_hash = ?", scopeHash);
            }
            if (!copies || deleted.isEmpty()) {
                return List.of();
            }
            return query(connection, "INSERT INTO wm_crystal_copy_removal (scope_hash, scope, id_hash, id)"
                    + " SELECT ?, ?, h, i FROM unnest(?::bytea[], ?::bytea[]) AS u (h, i) RETURNING seq, id",
                    row -> new Uncopy(row.getLong(1), scope, Texts.decode(row.getBytes(2))), scopeHash,
                    Texts.encode(scope), bytea(connection, deleted, 1), bytea(connection, deleted, 2));
        });
    }

    private static Array bytea(Connection connection, List<Object[]> rows, int column) throws SQLException {
        return connection.createArrayOf("bytea", rows.stream().map(row -> (byte[]) row[column]).toArray(byte[][]::new));
    }

    /**
     * Deletes everything of the scope: its crystals, what was removed from it and its history; and records when, so
     * that no instance writes a crystal of it queued before ({@link #upsert}). With copies, records in the same
     * transaction that the scope's copies are to be removed from the application's embedding store (instead of any
     * removal of some of them still waiting).
     *
     * @return that removal (none without copies)
     */
    List<Uncopy> deleteScope(String scope) {
        byte[] scopeHash = hash(scope);
        return database.write("delete the crystals of a scope", connection -> {
            nextChange(connection, scopeHash); // waits for a write of the scope under way, even of its first crystals
            update(connection, "DELETE FROM wm_crystal_scope WHERE scope_hash = ?", scopeHash);
            update(connection, "INSERT INTO wm_crystal_forgotten (scope_hash, forgotten_at)"
                    + " VALUES (?, clock_timestamp()) ON CONFLICT (scope_hash)"
                    + " DO UPDATE SET forgotten_at = EXCLUDED.forgotten_at", scopeHash);
            update(connection, "DELETE FROM wm_crystal WHERE scope_hash = ?", scopeHash);
            update(connection, "DELETE FROM wm_crystal_removed WHERE scope_hash = ?", scopeHash);
            if (!copies) {
                return List.of();
            }
            update(connection, "DELETE FROM wm_crystal_copy_removal WHERE scope_hash = ?", scopeHash);
            return query(connection, "INSERT INTO wm_crystal_copy_removal (scope_hash, scope) VALUES (?, ?)"
                    + " RETURNING seq", row -> new Uncopy(row.getLong(1), scope, null), scopeHash, Texts.encode(scope));
        });
    }

    /**
     * Claims vectors not copied yet into the application's embedding store that no other instance is copying, oldest
     * first, for {@code claim}: other instances leave them alone until then, so that one instance at a time copies a
     * crystal (and an older vector's copy does not land after a newer one's).
     */
    List<Copy> claimCopies(int limit, Duration claim) {
        return database.write("claim crystal vectors to copy", connection -> query(connection,
                "UPDATE wm_crystal SET copy_claim = clock_timestamp() + ? * INTERVAL '1 millisecond'"
                        + " WHERE id_hash IN (SELECT id_hash FROM wm_crystal WHERE copy_pending IS NOT NULL"
                        + " AND vector IS NOT NULL AND embedded_revision = revision"
                        + " AND (copy_claim IS NULL OR copy_claim < clock_timestamp()) ORDER BY copy_pending LIMIT ?"
                        + " FOR UPDATE SKIP LOCKED) RETURNING " + COLUMNS + ", vector, copy_pending",
                row -> new Copy(crystal(row), decode(row.getBytes(10)), row.getLong(11)), claim.toMillis(), limit));
    }

    /**
     * Ends the claims of {@link #claimCopies}: the {@code copied} are marked so (unless a newer vector was stored
     * meanwhile: that one waits), the {@code waiting} are left for a later pass.
     */
    void copiesDone(List<Copy> copied, List<Copy> waiting) {
        database.write("mark " + copied.size() + " crystal vectors copied", connection -> {
            batch(connection, "UPDATE wm_crystal SET copy_pending = CASE WHEN copy_pending = ? THEN NULL"
                    + " ELSE copy_pending END, copy_claim = NULL WHERE id_hash = ?", copied.stream()
                    .map(copy -> new Object[] {copy.number(), hash(copy.crystal().id())}).toList());
            return batch(connection, "UPDATE wm_crystal SET copy_claim = NULL WHERE id_hash = ?", waiting.stream()
                    .map(copy -> new Object[] {hash(copy.crystal().id())}).toList());
        });
    }

    /** Claims copies to remove from the application's embedding store, oldest first, as {@link #claimCopies} does. */
    List<Uncopy> claimUncopies(int limit, Duration claim) {
        return database.write("claim crystal vector copies to remove", connection -> query(connection,
                "UPDATE wm_crystal_copy_removal SET claim = clock_timestamp() + ? * INTERVAL '1 millisecond'"
                        + " WHERE seq IN (SELECT seq FROM wm_crystal_copy_removal WHERE claim IS NULL"
                        + " OR claim < clock_timestamp() ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)"
                        + " RETURNING seq, scope, id", row -> new Uncopy(row.getLong(1),
                        Texts.decode(row.getBytes(2)), decodeOrNull(row.getBytes(3))), claim.toMillis(), limit));
    }

    /**
     * Ends removals: the {@code removed} are forgotten, the {@code waiting} left for a later pass (their claim ended).
     * A crystal of a removed id or scope that is in the table again (added again meanwhile) is marked to be copied
     * again: its copy may have landed before the removal.
     */
    void uncopiesDone(List<Uncopy> removed, List<Uncopy> waiting) {
        database.write("forget " + removed.size() + " removals of crystal vector copies", connection -> {
            update(connection, "UPDATE wm_crystal_copy_removal SET claim = NULL WHERE seq = ANY (?)",
                    connection.createArrayOf("bigint", waiting.stream().map(Uncopy::seq).toArray()));
            if (removed.isEmpty()) {
                return 0;
            }
            update(connection, "DELETE FROM wm_crystal_copy_removal WHERE seq = ANY (?)",
                    connection.createArrayOf("bigint", removed.stream().map(Uncopy::seq).toArray()));
            return update(connection, "UPDATE wm_crystal SET copy_pending = nextval('wm_crystal_revision')"
                    + " WHERE vector IS NOT NULL AND embedded_revision = revision"
                    + " AND (id_hash = ANY (?) OR scope_hash = ANY (?))", connection.createArrayOf("bytea",
                    removed.stream().filter(removal -> removal.crystalId() != null)
                            .map(removal -> hash(removal.crystalId())).toArray(byte[][]::new)),
                    connection.createArrayOf("bytea", removed.stream().filter(removal -> removal.crystalId() == null)
                            .map(removal -> hash(removal.scope())).toArray(byte[][]::new)));
        });
    }

    /** @return the number of dimensions of some current vector, or empty when there is none */
    Optional<Integer> someVectorDimension() {
        return database.read("read the dimension of the stored vectors", connection -> queryOne(connection,
                "SELECT octet_length(vector) / 4 FROM wm_crystal WHERE vector IS NOT NULL"
                        + " AND embedded_revision = revision LIMIT 1", row -> row.getInt(1)));
    }

    /**
     * Records {@code model} as the embedding model of the stored vectors. When another model made them (a database
     * that never recorded one counts as {@link VectorModel#UNRECORDED}'s), every crystal's vector is marked stale, as
     * the migration to schema 4 did: the instances embed them again, a scope's first when it is searched.
     *
     * @return the model that made the stored vectors and how many crystals now wait for a vector, when that model
     *         was another and some vector was stored
     */
    Optional<Replaced> recordVectorModel(String model) {
        return database.write("record the model of the crystal vectors", connection -> {
            queryOne(connection, "SELECT pg_advisory_xact_lock(" + MODEL_LOCK + ")", row -> true);
            String before = queryOne(connection, "SELECT name FROM wm_vector_model WHERE id = 1",
                    row -> row.getString(1)).orElse(VectorModel.UNRECORDED);
            update(connection, "INSERT INTO wm_vector_model (id, name) VALUES (1, ?)"
                    + " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name", model);
            if (before.equals(model)) {
                return Optional.empty();
            }
            int stale = update(connection, "UPDATE wm_crystal SET embedded_revision = 0"
                    + " WHERE embedded_revision = revision");
            return stale == 0 ? Optional.empty() : Optional.of(new Replaced(before, stale));
        });
    }

    /** The model that made the stored vectors, and how many crystals wait for a vector of the new one. */
    record Replaced(String model, int crystals) {
    }

    static byte[] encode(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES);
        bytes.asFloatBuffer().put(vector);
        return bytes.array();
    }

    static float[] decode(byte[] bytes) {
        float[] vector = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).asFloatBuffer().get(vector);
        return vector;
    }

    private static Row row(ResultSet row) throws SQLException {
        byte[] vector = row.getBytes(11);
        return new Row(crystal(row), row.getLong(10), vector == null ? null : decode(vector), row.getBoolean(12));
    }

    private static Crystal crystal(ResultSet row) throws SQLException {
        return new Crystal(Texts.decode(row.getBytes(1)), Texts.decode(row.getBytes(2)),
                CrystalKind.fromTextName(row.getString(3)), row.getObject(4, OffsetDateTime.class).toInstant(),
                row.getDouble(5), tags(row.getBytes(6)), Texts.decode(row.getBytes(7)), decodeOrNull(row.getBytes(8)),
                decodeOrNull(row.getBytes(9)));
    }

    private static byte[] tags(List<String> tags) {
        try {
            return Texts.encode(JSON.writeValueAsString(tags));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Tags are strings, always writable as JSON", e);
        }
    }

    private static List<String> tags(byte[] json) throws SQLException {
        try {
            List<String> tags = JSON.readValue(Texts.decode(json), new TypeReference<List<String>>() {
            });
            // a row written before tags were bounded keeps its crystal, its tag cut as the tag is now made
            return tags.stream().map(tag -> Utf16.prefix(tag, Crystal.MAX_TAG_LENGTH)).toList();
        } catch (JsonProcessingException e) {
            throw new SQLException("Unreadable tags of a crystal: " + e.getMessage(), e);
        }
    }

    private static byte[] encodeOrNull(String text) {
        return text == null ? null : Texts.encode(text);
    }

    private static String decodeOrNull(byte[] bytes) {
        return bytes == null ? null : Texts.decode(bytes);
    }
}
