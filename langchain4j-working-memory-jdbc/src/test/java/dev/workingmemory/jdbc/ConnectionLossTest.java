package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.MessageLogEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pooled connection the server closed (a restart, {@code pg_terminate_backend}, an idle timeout) is noticed only
 * when it is used next: the store runs that read or write again on another connection instead of failing the
 * caller's turn. The pool holds one connection, so the next call surely gets the closed one.
 */
class ConnectionLossTest extends DatabaseTest {

    private final String application = "wm-loss-" + UUID.randomUUID();
    private HikariDataSource pool;

    @BeforeEach
    void openPool() {
        pool = pool(1);
    }

    /** A pool of {@code size} connections, all kept open, named so that the test can end their sessions. */
    private HikariDataSource pool(int size) {
        PGSimpleDataSource connections = (PGSimpleDataSource) TestDatabase.unpooled(database.url(), database.schema());
        connections.setApplicationName(application);
        HikariConfig config = new HikariConfig();
        config.setDataSource(connections);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        return new HikariDataSource(config);
    }

    @AfterEach
    void closePool() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void should_write_and_read_again_on_another_connection_when_the_server_closed_the_pooled_one() throws Exception {
        JdbcWorkingMemoryStore store = new JdbcWorkingMemoryStore(pool);
        store.save("k", 0, "{\"v\":1}");

        assertThat(terminatePooledConnections()).isEqualTo(1);
        long version = store.save("k", store.version("k"), "{\"v\":2}").version(); // a read, then a write

        assertThat(terminatePooledConnections()).isEqualTo(1);
        store.appendNote("k", "- a note");
        assertThat(terminatePooledConnections()).isEqualTo(1);
        long lastSeq = store.appendMessages("k", 0, List.of(new MessageLogEntry.Added(UserMessage.from("hello"), java.time.Instant.EPOCH)));
        assertThat(terminatePooledConnections()).isEqualTo(1);

        assertThat(store.load("k").orElseThrow().document()).isEqualTo("{\"v\":2}");
        assertThat(store.load("k").orElseThrow().version()).isEqualTo(version);
        assertThat(store.notes("k")).containsExactly("- a note"); // once: the lost attempt stored nothing
        assertThat(store.messages("k", 0).entries()).hasSize(1);
        assertThat(lastSeq).isEqualTo(1);
    }

    @Test
    void should_see_what_another_instance_saved_after_the_server_closed_the_pooled_connection() throws Exception {
        try (WorkingMemoryProvider here = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(pool)).withoutCrystals().build();
             WorkingMemoryProvider elsewhere = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(database.dataSource())).withoutCrystals().build()) {
            ChatMemory memory = here.get("ann");
            memory.add(UserMessage.from("My cat is called Miso."));
            memory.add(AiMessage.from("Nice name."));
            ChatMemory other = elsewhere.get("ann");
            other.add(UserMessage.from("She is three years old."));
            elsewhere.memory("ann").coreMemory().append("context", "Has a cat, Miso, three years old.");
            other.add(AiMessage.from("Noted."));
            assertThat(terminatePooledConnections()).isEqualTo(1);

            // the check for what was saved elsewhere runs on another connection instead of using the stale state
            assertThat(memory.messages()).extracting(Object::toString)
                    .anySatisfy(text -> assertThat(text).contains("She is three years old."))
                    .anySatisfy(text -> assertThat(text).contains("Has a cat, Miso, three years old."));
        }
    }

    @Test
    void should_go_through_every_pooled_connection_a_restart_closed_to_a_live_one() throws Exception {
        pool.close();
        pool = pool(10); // Hikari's default size
        JdbcWorkingMemoryStore store = new JdbcWorkingMemoryStore(pool);
        store.save("k", 0, "{\"v\":1}");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (pool.getHikariPoolMXBean().getIdleConnections() < 10 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }

        assertThat(terminatePooledConnections()).isEqualTo(10); // as a restart of the server would

        assertThat(store.load("k").orElseThrow().document()).isEqualTo("{\"v\":1}");
        store.appendNote("k", "- after the restart");
        assertThat(store.notes("k")).containsExactly("- after the restart");
    }

    /** Ends the sessions of this test's pool, as an administrator or a restarting server would. */
    private int terminatePooledConnections() throws SQLException {
        try (Connection connection = TestDatabase.unpooled(database.url(), database.schema()).getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                     + " WHERE application_name = '" + application + "'")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
