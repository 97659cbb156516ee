package dev.workingmemory.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A PostgreSQL schema for a benchmark's JDBC stores: a pool of connections working in it, as an application would
 * configure one (HikariCP), the schema created when missing and dropped by {@link #drop()} if asked.
 *
 * <p>Thread-safe.
 */
final class BenchDatabase implements AutoCloseable {

    /** Where the JDBC benchmarks find their server when not told on the command line. */
    static final String URL_PROPERTY = "workingmemory.bench.jdbcUrl";

    private final String url;
    private final String schema;
    private final HikariDataSource pool;

    private BenchDatabase(String url, String schema) throws SQLException {
        this.url = url;
        this.schema = schema;
        execute(url, "CREATE SCHEMA IF NOT EXISTS " + schema);
        PGSimpleDataSource unpooled = unpooled(url);
        unpooled.setCurrentSchema(schema);
        HikariConfig config = new HikariConfig();
        config.setDataSource(unpooled);
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(2);
        this.pool = new HikariDataSource(config);
    }

    /** A pool on {@code schema} of the database at {@code url} (e.g. {@code jdbc:postgresql://host:5432/db?user=u}). */
    static BenchDatabase open(String url, String schema) throws SQLException {
        if (!schema.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("A schema name of lower-case letters, digits and '_', was " + schema);
        }
        return new BenchDatabase(url, schema);
    }

    /** The JDBC URL given as {@code -D}{@value #URL_PROPERTY}; fails with how to give one when there is none. */
    static String configuredUrl(String what) {
        String url = System.getProperty(URL_PROPERTY);
        if (url == null || url.isBlank()) {
            throw new IllegalStateException(what + " needs a PostgreSQL server: run with -D" + URL_PROPERTY
                    + "=jdbc:postgresql://127.0.0.1:5432/db?user=me (JMH passes it on to its forks)");
        }
        return url;
    }

    HikariDataSource dataSource() {
        return pool;
    }

    String schema() {
        return schema;
    }

    /** The first column of the first row of a query in the schema, as a long. */
    long queryLong(String sql) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** Drops the schema and all in it. */
    void drop() throws SQLException {
        pool.close();
        execute(url, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    @Override
    public void close() {
        pool.close();
    }

    private static PGSimpleDataSource unpooled(String url) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        dataSource.setConnectTimeout(10);
        dataSource.setSocketTimeout(300);
        return dataSource;
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = unpooled(url).getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
