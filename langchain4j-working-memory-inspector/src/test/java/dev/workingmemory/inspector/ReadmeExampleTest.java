package dev.workingmemory.inspector;

import dev.workingmemory.WorkingMemoryProvider;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's plain-Java example. */
class ReadmeExampleTest {

    @Test
    void should_run_the_readme_example() throws Exception {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            memories.memory("alice").notes().note("Deadline for the API migration is March 20th", 0.9, null);

            try (MemoryInspector inspector = MemoryInspector.builder()
                    .provider(memories)
                    .port(0)                                   // 7070 by default; 0: any free port
                    .token(System.getProperty("inspector.token", "a-long-random-token-for-writes"))
                    .build()
                    .start()) {
                System.out.println("Inspect the memory at " + inspector.url());

                HttpResponse<String> users = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(inspector.url() + "api/resources")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(users.body()).contains("\"resource\":\"alice\"", "\"pendingNotes\":1");
            }
        }
    }
}
