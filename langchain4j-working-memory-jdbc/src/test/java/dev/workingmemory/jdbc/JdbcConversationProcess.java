package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ConversationProcess;

import java.io.IOException;
import java.time.Duration;

/**
 * An application instance on the test database for the two-JVM conversation test: takes turns of one user's
 * conversation on the commands of {@link ConversationProcess}.
 *
 * <p>Arguments: JDBC URL, schema, the window's size in messages, the user.
 */
public final class JdbcConversationProcess {

    private JdbcConversationProcess() {
    }

    static WorkingMemoryProvider provider(javax.sql.DataSource dataSource, int window) {
        return WorkingMemoryProvider.builder().store(new JdbcWorkingMemoryStore(dataSource)).maxMessages(window).build();
    }

    public static void main(String[] args) throws IOException {
        try (HikariDataSource pool = TestDatabase.pool(args[0], args[1], Duration.ofSeconds(30))) {
            ConversationProcess.serve(provider(pool, Integer.parseInt(args[2])), args[3]);
        }
    }
}
