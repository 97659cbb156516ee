package dev.workingmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.testing.BenchData;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.SettableClock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 21, "Done when" 1, on a chat that talks code: the BEAM chats (a user building a project with an assistant over
 * weeks; plans, code and logs pasted into the messages, no tool ever runs) go through the {@code WorkingChatMemory} of
 * a default {@link WorkingMemoryProvider}, the clock at the chats' time anchors. What users and the model say is no
 * evidence of a coding agent: the session slots must never act, and the block must stay as empty as a small-talk
 * chat's ({@link LocomoBlockTest}) after every turn.
 *
 * <p>Reads the numbered chat folders of {@code shared/bench/beam} from the first ancestor of the working directory that
 * has it (the data is never copied into the repository); without it the test is skipped, saying so.
 */
class BeamBlockTest {

    private static final String DATA = "shared/bench/beam";
    private static final String SKIPPED = "BeamBlockTest skipped: no " + DATA + " in the working directory or any"
            + " directory above it. To run it, have the BEAM data there (it is never copied into the repository).";
    private static final DateTimeFormatter ANCHOR = DateTimeFormatter.ofPattern("MMMM-dd-yyyy", Locale.ENGLISH);
    private static final Pattern ELEMENT = Pattern.compile("^<([a-z_]+)[ >]", Pattern.MULTILINE);

    @Test
    void should_never_act_as_a_coding_agent_for_a_chat_that_talks_code() throws IOException {
        Path data = BenchData.find(DATA).orElse(null);
        if (data == null) {
            LoggerFactory.getLogger(BeamBlockTest.class).warn(SKIPPED);
        }
        Assumptions.assumeTrue(data != null, SKIPPED);
        List<Path> chats;
        try (Stream<Path> folders = Files.list(data)) {
            chats = folders.filter(folder -> Files.isRegularFile(folder.resolve("chat.json"))).sorted().toList();
        }
        Assumptions.assumeFalse(chats.isEmpty(), SKIPPED);
        Map<String, Integer> elementsSeen = new TreeMap<>();
        List<String> sessionActive = new ArrayList<>();
        int messages = 0;
        for (Path chatFile : chats) {
            String id = "beam-" + chatFile.getFileName();
            SettableClock clock = new SettableClock("2024-01-01T00:00:00Z");
            try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().clock(clock)
                    .embeddingModel(new HashingEmbeddingModel()).build()) {
                ChatMemory chat = provider.get(id);
                Instant anchor = Instant.parse("2024-01-01T00:00:00Z");
                long sinceAnchor = 0;
                for (JsonNode batch : new ObjectMapper().readTree(chatFile.resolve("chat.json").toFile())) {
                    if (batch.hasNonNull("time_anchor")) {
                        anchor = anchor(batch.get("time_anchor").asText());
                        sinceAnchor = 0;
                    }
                    for (JsonNode turn : batch.get("turns")) {
                        for (JsonNode message : turn) {
                            if (message.hasNonNull("time_anchor")) {
                                anchor = anchor(message.get("time_anchor").asText());
                                sinceAnchor = 0;
                            }
                            clock.set(anchor.plusSeconds(30 * sinceAnchor++).toString());
                            String text = message.get("content").asText();
                            ChatMessage said = "user".equals(message.get("role").asText())
                                    ? UserMessage.from(text) : AiMessage.from(text);
                            chat.add(said);
                            chat.messages(); // as before every model call
                            messages++;
                        }
                        provider.consolidate(); // the scheduler's minute passed: salience's notes are written
                        WorkingMemory memory = provider.memory(id);
                        if (memory.activeLayers().contains(SessionSlots.NAME)) {
                            sessionActive.add(id + " at message " + messages);
                        }
                        Matcher element = ELEMENT.matcher(memory.render());
                        while (element.find()) {
                            elementsSeen.merge(element.group(1), 1, Integer::sum);
                        }
                    }
                }
            }
        }
        System.out.println("BEAM: " + chats.size() + " chats, " + messages + " messages; elements of the block after"
                + " each turn (count of turns): " + elementsSeen);
        assertThat(messages).as("messages fed").isGreaterThan(1_000);
        assertThat(sessionActive).as("the session slots acting").isEmpty();
        elementsSeen.remove("working_memory");
        // no tool ran: no entities, no session, nothing to prune; no model wrote to its memory and no dream ran
        assertThat(elementsSeen.keySet()).as("elements a chat without tools did not earn").isEmpty();
    }

    private static Instant anchor(String text) {
        return LocalDate.parse(text, ANCHOR).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
