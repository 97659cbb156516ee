package dev.workingmemory.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The BEAM chats (Tavakoli et al., "BEAM: Beyond a Million Tokens", ICLR 2026; CC BY-SA 4.0), read in place from a
 * folder of numbered chat folders, each with {@code chat.json} and {@code probing_questions.json} (see the data's
 * README): each chat's messages in order with the time they were said, and its probing questions with the ids of the
 * messages that hold their evidence. Abstention questions have none and are left out.
 *
 * <p>A message's time is the last time anchor seen (a batch's or a message's, {@code March-15-2024}, midnight UTC)
 * plus 30 seconds per message since it, so that the messages of one day keep their order.
 */
final class BeamData {

    private static final DateTimeFormatter ANCHOR = DateTimeFormatter.ofPattern("MMMM-dd-yyyy", Locale.ENGLISH);
    static final long SECONDS_PER_MESSAGE = 30;

    private BeamData() {
    }

    record Message(int id, boolean user, String text, Instant time) {
    }

    /**
     * A probing question.
     *
     * @param kind     its kind (information_extraction, knowledge_update, ...)
     * @param evidence every message that holds evidence
     * @param original for knowledge_update: the messages with the old value; else empty
     * @param updated  for knowledge_update: the messages with the new value; else empty
     */
    record Question(String kind, String text, List<Integer> evidence, List<Integer> original, List<Integer> updated) {
    }

    record Chat(String name, List<Message> messages, List<Question> questions) {

        Map<Integer, Message> byId() {
            Map<Integer, Message> byId = new LinkedHashMap<>();
            messages.forEach(message -> byId.put(message.id(), message));
            return byId;
        }
    }

    /** @return the chats of the numbered folders of {@code dir} whose number is in {@code numbers} (all when empty) */
    static List<Chat> read(Path dir, List<Integer> numbers) throws IOException {
        List<Path> folders = new ArrayList<>();
        try (var list = Files.list(dir)) {
            list.filter(path -> path.getFileName().toString().matches("\\d+") && Files.isDirectory(path))
                    .filter(path -> numbers.isEmpty() || numbers.contains(Integer.parseInt(path.getFileName().toString())))
                    .sorted((a, b) -> Integer.compare(Integer.parseInt(a.getFileName().toString()),
                            Integer.parseInt(b.getFileName().toString())))
                    .forEach(folders::add);
        }
        List<Chat> chats = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Path folder : folders) {
            chats.add(new Chat(folder.getFileName().toString(), messages(json.readTree(folder.resolve("chat.json").toFile())),
                    questions(json.readTree(folder.resolve("probing_questions.json").toFile()))));
        }
        return chats;
    }

    private static List<Message> messages(JsonNode batches) {
        List<Message> messages = new ArrayList<>();
        Instant anchor = Instant.EPOCH;
        long sinceAnchor = 0;
        for (JsonNode batch : batches) {
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
                    messages.add(new Message(message.get("id").asInt(), "user".equals(message.get("role").asText()),
                            message.get("content").asText(), anchor.plusSeconds(SECONDS_PER_MESSAGE * sinceAnchor++)));
                }
            }
        }
        return List.copyOf(messages);
    }

    private static Instant anchor(String text) {
        return LocalDate.parse(text, ANCHOR).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    private static List<Question> questions(JsonNode root) {
        List<Question> questions = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> kinds = root.fields(); kinds.hasNext(); ) {
            Map.Entry<String, JsonNode> kind = kinds.next();
            for (JsonNode question : kind.getValue()) {
                JsonNode sources = question.get("source_chat_ids");
                if (sources == null || sources.isNull()) {
                    continue; // abstention: nothing to find
                }
                List<Integer> evidence = new ArrayList<>();
                List<Integer> original = new ArrayList<>();
                List<Integer> updated = new ArrayList<>();
                if (sources.isArray()) {
                    ids(sources, evidence);
                } else {
                    for (Iterator<Map.Entry<String, JsonNode>> parts = sources.fields(); parts.hasNext(); ) {
                        Map.Entry<String, JsonNode> part = parts.next();
                        ids(part.getValue(), evidence);
                        if (part.getKey().equals("original_info")) {
                            ids(part.getValue(), original);
                        } else if (part.getKey().equals("updated_info")) {
                            ids(part.getValue(), updated);
                        }
                    }
                }
                if (!evidence.isEmpty()) {
                    questions.add(new Question(kind.getKey(), question.get("question").asText(),
                            List.copyOf(evidence.stream().distinct().toList()), List.copyOf(original),
                            List.copyOf(updated)));
                }
            }
        }
        return List.copyOf(questions);
    }

    private static void ids(JsonNode node, List<Integer> into) {
        if (node.isArray()) {
            node.forEach(id -> into.add(id.asInt()));
        } else if (node.isNumber() || node.isTextual()) {
            into.add(node.asInt());
        }
    }
}
