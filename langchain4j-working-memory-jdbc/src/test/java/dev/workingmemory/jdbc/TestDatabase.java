package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real PostgreSQL server for the tests, never a mock: its JDBC URL comes from the system property
 * {@value #PROPERTY} or the environment variable {@value #VARIABLE}, which {@code bash .ci/run} sets after starting a
 * throwaway server. Without it the test is skipped, saying so. Each instance is a fresh schema of that database, so
 * tests start empty and do not see each other; {@link #close()} drops it.
 */
public final class TestDatabase implements AutoCloseable {

    static final String PROPERTY = "workingmemory.test.jdbcUrl";
    static final String VARIABLE = "WORKING_MEMORY_TEST_JDBC_URL";
    /** A script taking {@code stop} or {@code start}, for the outage tests; {@code .ci/run} sets it. */
    static final String SERVER_VARIABLE = "WORKING_MEMORY_TEST_PG_SERVER";

    private static final Logger log = LoggerFactory.getLogger(TestDatabase.class);
    private static final String SKIPPED = "No PostgreSQL server for the JDBC tests: set -D" + PROPERTY
            + "=jdbc:postgresql://… or " + VARIABLE + ", or run every test with 'bash .ci/run', which starts a throwaway"
            + " server";
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final String url;
    private final String schema;
    private final List<HikariDataSource> pools = new ArrayList<>();

    private TestDatabase(String url) {
        this.url = url;
        this.schema = "wm_test_" + UUID.randomUUID().toString().replace("-", "");
        execute("CREATE SCHEMA " + schema);
    }

    /** A fresh schema on the test server; skips the calling test when no server is configured. */
    public static TestDatabase create() {
        String url = configuredUrl();
        if (url == null && !WARNED.getAndSet(true)) {
            log.warn("Skipping the JDBC tests. {}", SKIPPED);
        }
        assumeTrue(url != null, SKIPPED);
        return new TestDatabase(url);
    }

    static String configuredUrl() {
        String url = System.getProperty(PROPERTY);
        if (url == null || url.isBlank()) {
            url = System.getenv(VARIABLE);
        }
        return url == null || url.isBlank() ? null : url;
    }

    String url() {
        return url;
    }

    String schema() {
        return schema;
    }

    /** A pool of connections that work in this schema, as an application would configure one; closed by {@link #close()}. */
    public DataSource dataSource() {
        return dataSource(Duration.ofSeconds(30));
    }

    /** A pool whose calls fail after {@code connectionTimeout} when no connection can be had (the server is down). */
    DataSource dataSource(Duration connectionTimeout) {
        HikariDataSource pool = pool(url, schema, connectionTimeout);
        pools.add(pool);
        return pool;
    }

    /** A DataSource that opens a new connection on each call: no pool between the store and the server. */
    DataSource unpooledDataSource() {
        return unpooled(url, schema);
    }

    static HikariDataSource pool(String url, String schema, Duration connectionTimeout) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(unpooled(url, schema));
        config.setMaximumPoolSize(10);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(connectionTimeout.toMillis());
        return new HikariDataSource(config);
    }

    static DataSource unpooled(String url, String schema) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        dataSource.setCurrentSchema(schema);
        dataSource.setConnectTimeout(10);
        dataSource.setSocketTimeout(60);
        return dataSource;
    }

    void execute(String sql) {
        try (Connection connection = unpooled(url, schema).getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run " + sql + ": " + e.getMessage(), e);
        }
    }

    /** How many crystals have a vector of their current text. */
    int vectorsStored() {
        return countCrystals("vector IS NOT NULL AND embedded_revision = revision", "the stored vectors");
    }

    /** @return the crystals no instance has embedded (or marked keyword-only) for their current text yet */
    int awaitingEmbedding() {
        return countCrystals("embedded_revision <> revision", "the crystals awaiting a vector");
    }

    /** @return the crystals an instance claimed to embed (other instances leave them alone until the claim ends) */
    int claimedForEmbedding() {
        return countCrystals("embed_claim > now()", "the crystals claimed to embed");
    }

    /** @return the crystals whose vector waits to be copied into the application's embedding store */
    int copiesPending() {
        return countCrystals("copy_pending IS NOT NULL", "the vectors to copy");
    }

    /** @return the copies waiting to be removed from the application's embedding store (a crystal's or a scope's) */
    int copyRemovalsPending() {
        return count("SELECT count(*) FROM wm_crystal_copy_removal", "the copies to remove");
    }

    /** @return the copies to remove that an instance claimed (other instances leave them alone until the claim ends) */
    int copyRemovalsClaimed() {
        return count("SELECT count(*) FROM wm_crystal_copy_removal WHERE claim > now()", "the claimed copies to remove");
    }

    private int countCrystals(String condition, String what) {
        return count("SELECT count(*) FROM wm_crystal WHERE " + condition, what);
    }

    private int count(String sql, String what) {
        try (Connection connection = unpooled(url, schema).getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count " + what + ": " + e.getMessage(), e);
        }
    }

    /** @return the ids of the crystals done for their current text without a vector: found by keyword only */
    List<String> keywordsOnly() {
        try (Connection connection = unpooled(url, schema).getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT convert_from(id, 'UTF8') FROM wm_crystal"
                     + " WHERE embedded_revision = revision AND vector IS NULL ORDER BY id")) {
            List<String> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
            return ids;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the crystals found by keyword only: " + e.getMessage(), e);
        }
    }

    /** Waits up to a minute until {@code count} crystals have a vector of their current text. */
    void awaitVectors(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (vectorsStored() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(vectorsStored()).as("vectors stored").isEqualTo(count);
    }

    /** Waits up to a minute until no vector waits to be copied into an application's embedding store. */
    void awaitCopies() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (copiesPending() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(copiesPending()).as("vectors to copy").isZero();
    }

    @Override
    public void close() {
        pools.forEach(HikariDataSource::close);
        execute("DROP SCHEMA " + schema + " CASCADE");
    }
}
