package dev.workingmemory.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.TestEmbeddingModels;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An application instance on the test database that holds a short conversation of maya's ({@code monday}) and is
 * killed before it pauses: prints {@code added} once the four messages are kept, then waits on its standard input.
 *
 * <p>Arguments: JDBC URL, schema.
 */
public final class JdbcKilledConversationProcess {

    static final String ARRIVAL = "My sister Lena arrives from Lisbon on the 14th, I pick her up at the airport.";

    private JdbcKilledConversationProcess() {
    }

    public static void main(String[] args) throws Exception {
        HikariDataSource pool = TestDatabase.pool(args[0], args[1], Duration.ofSeconds(30));
        WorkingMemoryProvider provider = WorkingMemoryProvider.builder().store(new JdbcWorkingMemoryStore(pool))
                .embeddingModel(TestEmbeddingModels.hashing()).build();
        ChatMemory monday = provider.get(MemoryKey.of("maya", "monday"));
        monday.add(UserMessage.from(ARRIVAL));
        monday.add(AiMessage.from("Noted: the 14th, at the airport."));
        monday.add(UserMessage.from("She is vegetarian, so plan dinner accordingly."));
        monday.add(AiMessage.from("Got it: a vegetarian dinner for Lena."));
        System.out.println("added");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine(); // until killed
    }
}
