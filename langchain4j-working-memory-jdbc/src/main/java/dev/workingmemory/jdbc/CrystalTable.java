package dev.workingmemory.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.workingmemory.jdbc.Database.query;
import static dev.workingmemory.jdbc.Database.queryOne;
import static dev.workingmemory.jdbc.Database.update;

/**
 * The SQL of {@link JdbcCrystalStore}: crystals as rows of {@code wm_crystal}, with a {@code tsvector} of their text
 * (weight A) and context (weight B) under a GIN index for PostgreSQL's full-text search.
 *
 * <p>Thread-safe (holds no connection).
 */
final class CrystalTable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, scope, kind, time, importance, tags, text, source, context";
    /** The query text's lexemes, OR-ed: a crystal matching any of them is a candidate, ranked by ts_rank. */
    private static final String ANY_LEXEME = "(SELECT string_agg('''' || replace(replace(l, '\\', '\\\\'), '''', '''''')"
            + " || '''', ' | ') FROM unnest(tsvector_to_array(to_tsvector(CAST(? AS regconfig), ?))) l)::tsquery";
    private static final Pattern WORD_SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}]+");

    private final Database database;
    private final String textSearchConfig;

    CrystalTable(Database database, String textSearchConfig) {
        this.database = database;
        this.textSearchConfig = textSearchConfig;
    }

    /** A crystal waiting for its vector. */
    record Unembedded(Crystal crystal, long revision) {
    }

    static byte[] hash(String text) {
        return Texts.hash(Texts.encode(text));
    }

    /** Inserts or replaces the crystals in one transaction; their vectors are then due. */
    void upsert(List<Crystal> crystals) {
        database.write("store " + crystals.size() + " crystals", connection -> {
            for (Crystal crystal : crystals) {
                update(connection, "INSERT INTO wm_crystal (id_hash, " + COLUMNS + ", scope_hash, search, revision)"
                                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, setweight(to_tsvector(CAST(? AS regconfig), ?), 'A')"
                                + " || setweight(to_tsvector(CAST(? AS regconfig), ?), 'B'), nextval('wm_crystal_revision'))"
                                + " ON CONFLICT (id_hash) DO UPDATE SET id = EXCLUDED.id, scope = EXCLUDED.scope,"
                                + " kind = EXCLUDED.kind, time = EXCLUDED.time, importance = EXCLUDED.importance,"
                                + " tags = EXCLUDED.tags, text = EXCLUDED.text, source = EXCLUDED.source,"
                                + " context = EXCLUDED.context, scope_hash = EXCLUDED.scope_hash, search = EXCLUDED.search,"
                                + " revision = EXCLUDED.revision, embedded_revision = 0",
                        hash(crystal.id()), Texts.encode(crystal.id()), Texts.encode(crystal.scope()), crystal.kind().textName(),
                        OffsetDateTime.ofInstant(crystal.time(), ZoneOffset.UTC), crystal.importance(), tags(crystal.tags()),
                        Texts.encode(crystal.text()), encodeOrNull(crystal.source()), encodeOrNull(crystal.context()),
                        hash(crystal.scope()), textSearchConfig, searchable(crystal.text()), textSearchConfig,
                        crystal.context() == null ? "" : searchable(crystal.context()));
            }
            return null;
        });
    }

    Optional<Crystal> get(String id) {
        return database.read("read a crystal", connection -> queryOne(connection,
                "SELECT " + COLUMNS + " FROM wm_crystal WHERE id_hash = ?", CrystalTable::crystal, hash(id)));
    }

    /** The crystals with these ids that belong to the scope, by id. */
    Map<String, Crystal> get(String scope, Collection<String> ids) {
        return database.read("read crystals", connection -> {
            Map<String, Crystal> found = new LinkedHashMap<>();
            Array hashes = connection.createArrayOf("bytea", ids.stream().map(CrystalTable::hash).toArray(byte[][]::new));
            for (Crystal crystal : query(connection, "SELECT " + COLUMNS + " FROM wm_crystal WHERE id_hash = ANY (?)"
                    + " AND scope_hash = ?", CrystalTable::crystal, hashes, hash(scope))) {
                found.put(crystal.id(), crystal);
            }
            return found;
        });
    }

    /** Crystal ids of the scope matching any word of {@code text}, best first. */
    List<String> keywordSearch(String scope, Set<CrystalKind> kinds, String text, int limit) {
        return database.read("search crystals by keyword", connection -> query(connection,
                "SELECT c.id FROM wm_crystal c, (SELECT " + ANY_LEXEME + " AS q) query"
                        + " WHERE query.q IS NOT NULL AND c.scope_hash = ? AND (cardinality(?) = 0 OR c.kind = ANY (?))"
                        + " AND c.search @@ query.q ORDER BY ts_rank(c.search, query.q) DESC, c.revision DESC LIMIT ?",
                row -> Texts.decode(row.getBytes(1)), textSearchConfig, searchable(text), hash(scope),
                kindArray(connection, kinds), kindArray(connection, kinds), limit));
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
     * The words of the crystal's text whose lexemes the fewest crystals of its scope hold, longest first among equals,
     * in the form they have in the text; stop words have no lexeme and are left out.
     */
    List<String> keywords(String id, int max) {
        Optional<Crystal> crystal = get(id);
        if (crystal.isEmpty()) {
            return List.of();
        }
        List<String> words = new ArrayList<>();
        for (String word : WORD_SEPARATOR.split(crystal.get().text())) {
            if (!word.isEmpty() && words.stream().noneMatch(word::equalsIgnoreCase)) {
                words.add(word);
            }
        }
        List<String[]> ranked = database.read("rank the words of a crystal", connection -> query(connection,
                "SELECT w, lexeme FROM (SELECT w, ord, (tsvector_to_array(to_tsvector(CAST(? AS regconfig), w)))[1] AS lexeme"
                        + " FROM unnest(?) WITH ORDINALITY AS t(w, ord)) x WHERE lexeme IS NOT NULL"
                        + " ORDER BY (SELECT count(*) FROM wm_crystal c WHERE c.scope_hash = ?"
                        + " AND c.search @@ ('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery),"
                        + " length(w) DESC, ord",
                row -> new String[] {row.getString(1), row.getString(2)}, textSearchConfig,
                connection.createArrayOf("text", words.stream().map(CrystalTable::searchable).toArray(String[]::new)),
                hash(crystal.get().scope())));
        List<String> keywords = new ArrayList<>();
        List<String> lexemes = new ArrayList<>();
        for (String[] word : ranked) {
            if (keywords.size() < max && !lexemes.contains(word[1])) {
                keywords.add(word[0]);
                lexemes.add(word[1]);
            }
        }
        return keywords;
    }

    /** Crystals whose vector is missing or older than their text, oldest change first; only the scope's if given. */
    List<Unembedded> unembedded(String scope, int limit) {
        return database.read("find crystals to embed", connection -> query(connection,
                "SELECT " + COLUMNS + ", revision FROM wm_crystal WHERE embedded_revision <> revision"
                        + (scope == null ? "" : " AND scope_hash = ?") + " ORDER BY revision LIMIT ?",
                row -> new Unembedded(crystal(row), row.getLong(10)),
                scope == null ? new Object[] {limit} : new Object[] {hash(scope), limit}));
    }

    /** Records that the vector of this revision is stored; false when the crystal changed or went meanwhile. */
    boolean markEmbedded(String id, long revision) {
        return database.write("mark a crystal embedded", connection -> update(connection,
                "UPDATE wm_crystal SET embedded_revision = revision WHERE id_hash = ? AND revision = ?",
                hash(id), revision)) == 1;
    }

    /** Deletes the scope's crystals among these ids and returns the ids deleted. */
    List<String> delete(String scope, Collection<String> ids) {
        return database.write("delete crystals", connection -> query(connection,
                "DELETE FROM wm_crystal WHERE id_hash = ANY (?) AND scope_hash = ? RETURNING id",
                row -> Texts.decode(row.getBytes(1)),
                connection.createArrayOf("bytea", ids.stream().map(CrystalTable::hash).toArray(byte[][]::new)), hash(scope)));
    }

    void deleteScope(String scope) {
        database.write("delete the crystals of a scope", connection ->
                update(connection, "DELETE FROM wm_crystal WHERE scope_hash = ?", hash(scope)));
    }

    private static Array kindArray(Connection connection, Set<CrystalKind> kinds) throws SQLException {
        return connection.createArrayOf("text", kinds.stream().map(CrystalKind::textName).toArray(String[]::new));
    }

    private static Crystal crystal(ResultSet row) throws SQLException {
        return new Crystal(Texts.decode(row.getBytes(1)), Texts.decode(row.getBytes(2)),
                CrystalKind.fromTextName(row.getString(3)), row.getObject(4, OffsetDateTime.class).toInstant(),
                row.getDouble(5), tags(row.getBytes(6)), Texts.decode(row.getBytes(7)), decodeOrNull(row.getBytes(8)),
                decodeOrNull(row.getBytes(9)));
    }

    /** Text PostgreSQL's text type accepts: NUL is the one character it refuses. */
    private static String searchable(String text) {
        return text.replace('\u0000', ' ');
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
            return JSON.readValue(Texts.decode(json), new TypeReference<List<String>>() {
            });
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
