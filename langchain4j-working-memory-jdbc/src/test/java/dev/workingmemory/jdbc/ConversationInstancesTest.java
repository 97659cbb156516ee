package dev.workingmemory.jdbc;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.testing.ChildJvm;
import dev.workingmemory.testing.NumberedTurns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances on one PostgreSQL database serving one user's conversation, turn about, through
 * {@code AiServices} (issue 24): a third instance holds every turn, in order, in its window or its past turns, none
 * twice. With the store alone: no {@code ChatMemoryStore}, as the README shows.
 */
class ConversationInstancesTest extends DatabaseTest {

    /** Two turns fit the window; with a tool call a turn takes four messages. */
    private static final int WINDOW = 8;
    private static final int TURNS = 50;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(3);

    private final List<WorkingMemoryProvider> providers = new ArrayList<>();

    @BeforeEach
    void createTables() {
        new JdbcWorkingMemoryStore(database.dataSource()); // the tables, before instances race to create them
    }

    @AfterEach
    void closeProviders() {
        providers.forEach(WorkingMemoryProvider::close);
    }

    /** An instance with a pool of its own, as another application instance would have. */
    private WorkingMemoryProvider instance() {
        WorkingMemoryProvider provider = JdbcConversationProcess.provider(database.dataSource(), WINDOW);
        providers.add(provider);
        return provider;
    }

    @Test
    void should_keep_every_turn_once_and_in_order_when_two_instances_take_turns() {
        NumberedTurns.Assistant onA = NumberedTurns.assistant(instance());
        NumberedTurns.Assistant onB = NumberedTurns.assistant(instance());

        for (int n = 0; n < TURNS; n++) {
            assertThat(NumberedTurns.take(n % 2 == 0 ? onA : onB, "ann", n)).startsWith("Answer " + n + ":");
        }

        NumberedTurns.assertEveryTurnOnceInOrder(instance(), "ann", TURNS);
    }

    @Test
    void should_keep_every_turn_once_and_in_order_when_a_second_jvm_takes_every_other_turn() throws Exception {
        NumberedTurns.Assistant onA = NumberedTurns.assistant(instance());
        try (ChildJvm b = ChildJvm.start(JdbcConversationProcess.class, database.url(), database.schema(),
                String.valueOf(WINDOW), "ann")) {
            NumberedTurns.takeTurnsAbout(onA, b, "ann", TURNS, CHILD_TIMEOUT);
        }

        NumberedTurns.assertEveryTurnOnceInOrder(instance(), "ann", TURNS);
    }
}
