package dev.workingmemory.spring;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.jdbc.JdbcWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code working-memory.store.type=jdbc} against a real PostgreSQL server (the URL of {@code bash .ci/run}, in
 * {@value #VARIABLE}), in a schema of its own dropped at the end; skipped without a server, saying how to run it.
 */
class JdbcStoreStarterTest {

    private static final String PROPERTY = "workingmemory.test.jdbcUrl";
    private static final String VARIABLE = "WORKING_MEMORY_TEST_JDBC_URL";

    private String url;
    private String schema;

    @BeforeEach
    void createSchema() throws SQLException {
        url = System.getProperty(PROPERTY, System.getenv(VARIABLE));
        assumeTrue(url != null && !url.isBlank(), "No PostgreSQL server for the JDBC tests: set -D" + PROPERTY
                + "=jdbc:postgresql://… or " + VARIABLE + ", or run every test with 'bash .ci/run', which starts a"
                + " throwaway server");
        schema = "wm_test_" + UUID.randomUUID().toString().replace("-", "");
        execute("CREATE SCHEMA " + schema);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        if (schema != null) {
            execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private DataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        dataSource.setCurrentSchema(schema);
        return dataSource;
    }

    /** One application instance: the starter, the jdbc store property and a DataSource bean. */
    private ApplicationContextRunner instance() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WorkingMemoryAutoConfiguration.class))
                .withPropertyValues("working-memory.store.type=jdbc")
                .withBean(DataSource.class, this::dataSource);
    }

    @Test
    void should_keep_state_messages_and_long_term_memory_in_the_applications_database() {
        instance().run(first -> {
            assertThat(first).hasNotFailed();
            assertThat(first.getBean(WorkingMemoryStore.class)).isInstanceOf(JdbcWorkingMemoryStore.class);
            assertThat(first).as("the store keeps the messages").doesNotHaveBean(ChatMemoryStore.class);
            WorkingMemoryProvider provider = first.getBean(WorkingMemoryProvider.class);
            provider.get("alice").add(UserMessage.from("The API migration is due March 20th."));
            provider.memory("alice").notes().note("Deadline for the API migration is March 20th", null, null);
        });

        instance().run(second -> {
            WorkingMemoryProvider provider = second.getBean(WorkingMemoryProvider.class);
            assertThat(provider.get("alice").messages()).extracting(Object::toString)
                    .anyMatch(message -> message.contains("The API migration is due March 20th."));
            assertThat(provider.memory("alice").search("migration deadline", 5)).extracting(MemoryHit::text)
                    .contains("Deadline for the API migration is March 20th");
        });
    }
}
