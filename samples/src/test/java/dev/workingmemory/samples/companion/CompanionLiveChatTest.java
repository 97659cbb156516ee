package dev.workingmemory.samples.companion;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.ChatModel;
import dev.workingmemory.samples.shared.SampleSetup;
import dev.workingmemory.testing.OpenAiStubServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.workingmemory.testing.OpenAiStubServer.call;
import static org.assertj.core.api.Assertions.assertThat;

/** The live chat with a real {@code OpenAiChatModel} against a local stand-in for the OpenAI API on 127.0.0.1. */
class CompanionLiveChatTest {

    private static final String DREAMT_STATE = """
            # Working Memory State

            _Last dream: 2026-03-02T09:00:00Z | Mood: focused_

            ## The Phenotype

            - None yet.

            ## The Bond

            - The user's name is Ada; she ships the release on Friday.

            ## The Niche

            - None yet.

            ## Active Context

            - Ada ships the release on Friday and wants a checklist the day before.

            ## Crystal Pointers

            - None yet.

            ## Curiosity Gaps

            - None yet.

            ## Emerging Skills

            - None yet.
            """;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void should_chat_note_dream_and_search_through_the_openai_api(@TempDir Path dir) throws IOException {
        try (OpenAiStubServer openAi = OpenAiStubServer.start()) {
            openAi.thenToolCalls(call("working_memory_note",
                            "{\"note\":\"The user's name is Ada; she ships the release on Friday.\",\"importance\":0.9}"))
                    .thenAnswer("Nice to meet you, Ada.")
                    .thenAnswer(DREAMT_STATE);
            ChatModel model = SampleSetup.openAiModel("test-key", openAi.baseUrl(), null);
            BufferedReader in = new BufferedReader(new StringReader(
                    "Hi, I'm Ada and I ship the release on Friday.\n/state\n/dream\n/search release Friday\n/bogus\n/quit\nnever read\n"));

            CompanionChatbot.chat(in, out, model, dir, true);

            List<JsonNode> requests = openAi.requests();
            assertThat(requests).hasSize(3);
            assertThat(requests.get(0).path("model").asText()).isEqualTo(SampleSetup.DEFAULT_MODEL);
            assertThat(requests.get(0).path("tools").findValuesAsText("name")).contains("working_memory_note", "memory_search");
            assertThat(requests.get(1).path("messages").toString()).contains("\"role\":\"tool\"").contains("Noted at");
            // the dream: the same model, sent the pending note
            assertThat(requests.get(2).path("messages").toString())
                    .contains("The user's name is Ada; she ships the release on Friday.");
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output)
                .contains("Memory kept under " + dir.toAbsolutePath())
                .contains("TOOL CALL: working_memory_note({\"note\":\"The user's name is Ada;")
                .contains("ASSISTANT: Nice to meet you, Ada.")
                .contains("(no state yet: /dream writes the first one from your notes)")
                .contains("DREAM REPORT:\n  Dream of 'me' committed: Committed\n")
                .contains("    guards: 5 of 5 passed\n")
                .contains("    - Ada ships the release on Friday and wants a checklist the day before.")
                .containsPattern("- \\S+ \\(note, \\d\\.\\d\\d\\) The user's name is Ada; she ships the release on Friday\\.")
                .contains("Unknown command. Commands: /dream, /state, /search <words>, /quit.")
                .doesNotContain("never read")
                .doesNotContain("ERROR:");
        Path resourceDirectory = CompanionChatbot.resourceDirectory(dir, CompanionChatbot.LIVE_KEY);
        assertThat(output).contains("; yours is in " + resourceDirectory
                + " (MEMORY.md: the state document, scratch.md: the notes not dreamt yet).");
        assertThat(Files.readString(resourceDirectory.resolve("MEMORY.md")))
                .contains("- The user's name is Ada; she ships the release on Friday.");
    }
}
