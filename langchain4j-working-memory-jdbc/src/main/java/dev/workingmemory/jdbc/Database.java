package dev.workingmemory.jdbc;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.postgresql.PGStatement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs work on a connection of the {@link DataSource}: reads in auto-commit, writes in one transaction that is committed
 * whole or rolled back whole. Every {@link SQLException} becomes a {@link WorkingMemoryStoreException} saying what could
 * not be done. A new connection is asked for each time, so the stores recover by themselves when the database comes
 * back after an outage (a pool in the DataSource keeps that cheap). A read or a transaction whose connection is lost
 * before it commits (a pooled connection the server closed: a restart, {@code pg_terminate_backend}, an idle
 * timeout) runs again on another connection, up to {@value #LOST_CONNECTION_ATTEMPTS} times: nothing of it was
 * stored. A connection lost while committing is not retried, since the write may have been stored; the exception
 * says so.
 *
 * <p>Thread-safe.
 */
final class Database {

    private static final Logger log = LoggerFactory.getLogger(Database.class);

    /** Deadlock and serialization failure: the transaction did nothing and may simply run again. */
    private static final Set<String> RETRYABLE = Set.of("40P01", "40001");
    /** The server ended the session: admin shutdown ({@code pg_terminate_backend}), crash shutdown, not yet up. */
    private static final Set<String> SESSION_ENDED = Set.of("57P01", "57P02", "57P03");
    private static final int ATTEMPTS = 3;
    private static final int LOST_CONNECTION_ATTEMPTS = 32;

    private final DataSource dataSource;

    Database(DataSource dataSource) {
        this.dataSource = Ensure.notNull(dataSource, "dataSource");
    }

    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** Runs an INSERT, UPDATE or DELETE with {@code parameters} (byte[], String, Long, arrays) and counts its rows. */
    static int update(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    /** Runs one INSERT, UPDATE or DELETE once per parameter list, in one round trip; @return the rows of each. */
    static int[] batch(Connection connection, String sql, List<Object[]> parameterLists) throws SQLException {
        if (parameterLists.isEmpty()) {
            return new int[0];
        }
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (Object[] parameters : parameterLists) {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                statement.addBatch();
            }
            return statement.executeBatch();
        }
    }

    /**
     * Reads the rows of a query in chunks of {@code chunkSize}, handing each chunk to {@code chunks}, in one read-only
     * transaction (PostgreSQL's driver holds only one chunk of rows at a time only inside a transaction).
     */
    <T> void stream(String what, int chunkSize, String sql, Row<T> row, Consumer<List<T>> chunks,
                    Object... parameters) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = prepare(connection, sql, parameters)) {
                statement.setFetchSize(chunkSize);
                if (statement.isWrapperFor(PGStatement.class)) {
                    // binary from the first execution: bytea (the vectors) as bytes, not as twice as many hex digits
                    statement.unwrap(PGStatement.class).setPrepareThreshold(-1);
                }
                try (ResultSet rows = statement.executeQuery()) {
                    List<T> chunk = new ArrayList<>(chunkSize);
                    while (rows.next()) {
                        chunk.add(row.read(rows));
                        if (chunk.size() == chunkSize) {
                            chunks.accept(chunk);
                            chunk = new ArrayList<>(chunkSize);
                        }
                    }
                    if (!chunk.isEmpty()) {
                        chunks.accept(chunk);
                    }
                }
            } finally {
                rollback(connection);
            }
        } catch (SQLException e) {
            throw failure(what, e, false);
        }
    }

    /** The rows of a query (or of an {@code … RETURNING} statement), each read by {@code row}. */
    static <T> List<T> query(Connection connection, String sql, Row<T> row, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters);
             ResultSet rows = statement.executeQuery()) {
            List<T> read = new ArrayList<>();
            while (rows.next()) {
                read.add(row.read(rows));
            }
            return read;
        }
    }

    /** The first row of a query, if any. */
    static <T> Optional<T> queryOne(Connection connection, String sql, Row<T> row, Object... parameters)
            throws SQLException {
        return query(connection, sql, row, parameters).stream().findFirst();
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    <T> T read(String what, Work<T> work) {
        return retried(what, () -> {
            try (Connection connection = dataSource.getConnection()) {
                try {
                    connection.setAutoCommit(true);
                    return work.run(connection);
                } catch (SQLException e) {
                    if (connectionLost(e)) {
                        throw new RetryableException(e);
                    }
                    throw e;
                }
            } catch (SQLException e) {
                throw failure(what, e, false);
            }
        });
    }

    <T> T write(String what, Work<T> work) {
        return retried(what, () -> transaction(what, work));
    }

    /**
     * Runs {@code attempt} again while it throws a {@link RetryableException}: up to {@value #ATTEMPTS} times after a
     * deadlock or serialization failure, and up to {@value #LOST_CONNECTION_ATTEMPTS} times while the connections it
     * gets are closed ones. A restart closes every pooled connection; each fails at once and the pool drops it, so the
     * attempts go through a pool's dead connections (Hikari keeps up to 10 by default) to a live one.
     */
    private static <T> T retried(String what, Supplier<T> attempt) {
        int conflicts = 0;
        for (int count = 1; ; count++) {
            try {
                return attempt.get();
            } catch (RetryableException e) {
                boolean lost = connectionLost(e.sqlException);
                if (lost ? count >= LOST_CONNECTION_ATTEMPTS : ++conflicts >= ATTEMPTS) {
                    throw failure(what, e.sqlException, false);
                }
                log.debug("Retrying '{}' after {}", what, e.sqlException.getMessage());
            }
        }
    }

    private <T> T transaction(String what, Work<T> work) {
        // a connection the pool hands out may have been closed by the server meanwhile; getting one is not retried
        // (when the server is down the pool has already waited its timeout)
        try (Connection connection = dataSource.getConnection()) {
            T result;
            try {
                connection.setAutoCommit(false);
                result = work.run(connection);
            } catch (SQLException | RuntimeException e) {
                rollback(connection);
                if (e instanceof SQLException sql && (RETRYABLE.contains(sql.getSQLState()) || connectionLost(sql))) {
                    throw new RetryableException(sql); // not committed: the server rolled it back
                }
                throw e;
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                throw failure(what, e, true);
            }
            return result;
        } catch (SQLException e) {
            throw failure(what, e, false);
        }
    }

    private static void rollback(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // the connection is gone: the server rolls back what it had not committed
            log.debug("Rollback failed: {}", e.getMessage());
        }
    }

    private static WorkingMemoryStoreException failure(String what, SQLException e, boolean atCommit) {
        String outcome = atCommit && connectionLost(e)
                ? " (the connection failed while committing: the write may or may not have been stored)"
                : "";
        return new WorkingMemoryStoreException("Cannot " + what + " in the database" + outcome + ": "
                + e.getMessage() + (e.getSQLState() == null ? "" : " [SQLState " + e.getSQLState() + "]"), e);
    }

    /** SQLState class 08 (connection exception), or the server ended the session. */
    static boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || SESSION_ENDED.contains(state));
    }

    /** Carries a failure after which the work may simply run again (it stored nothing) out to {@link #retried}. */
    private static final class RetryableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient SQLException sqlException;

        RetryableException(SQLException sqlException) {
            super(sqlException.getMessage(), sqlException, false, false);
            this.sqlException = sqlException;
        }
    }
}
