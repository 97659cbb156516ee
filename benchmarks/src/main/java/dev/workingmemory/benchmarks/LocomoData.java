package dev.workingmemory.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The LoCoMo conversations (Maharana et al., ACL 2024), read in place from their JSON file (see the file's README):
 * each conversation's sessions in order with their dates and turns, and its questions of categories 1–4 with the
 * turns that hold their evidence. Category 5 (adversarial: the answer is "not mentioned") has no evidence to find.
 *
 * <p>A few evidence ids are malformed in the data ("D8:6; D9:17", "D:11:26", "D30:05"): they are normalised
 * (split, the extra colon and leading zeros dropped) when they then name a turn, and dropped otherwise; a question
 * left without evidence is dropped. {@link Stats} counts both.
 */
final class LocomoData {

    private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
    private static final Pattern TURN_ID = Pattern.compile("D:?(\\d+):0*(\\d+)");
    private static final Pattern CLEAN_ID = Pattern.compile("D\\d+:[1-9]\\d*");
    private static final DateTimeFormatter SESSION_TIME = DateTimeFormatter.ofPattern("h:mm a 'on' d MMMM, yyyy",
            Locale.ENGLISH);

    private LocomoData() {
    }

    record Turn(String id, String speaker, String text) {
    }

    record Session(int number, Instant time, List<Turn> turns) {
    }

    record Question(String text, int category, List<String> evidence) {
    }

    record Conversation(String id, String speakerA, String speakerB, List<Session> sessions,
                        List<Question> questions) {

        Map<String, Turn> turnsById() {
            Map<String, Turn> turns = new HashMap<>();
            sessions.forEach(session -> session.turns().forEach(turn -> turns.put(turn.id(), turn)));
            return turns;
        }

        int turnCount() {
            return sessions.stream().mapToInt(session -> session.turns().size()).sum();
        }
    }

    /** What was normalised or dropped while reading. */
    static final class Stats {
        int normalisedIds;
        int droppedIds;
        int droppedQuestions;
    }

    static List<Conversation> read(Path file, Stats stats) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        List<Conversation> conversations = new ArrayList<>();
        for (JsonNode sample : root) {
            JsonNode conversation = sample.get("conversation");
            TreeMap<Integer, JsonNode> sessionNodes = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> fields = conversation.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                Matcher matcher = SESSION.matcher(field.getKey());
                if (matcher.matches() && field.getValue().isArray()) {
                    sessionNodes.put(Integer.parseInt(matcher.group(1)), field.getValue());
                }
            }
            List<Session> sessions = new ArrayList<>();
            Set<String> turnIds = new LinkedHashSet<>();
            for (Map.Entry<Integer, JsonNode> entry : sessionNodes.entrySet()) {
                String when = conversation.get("session_" + entry.getKey() + "_date_time").asText();
                Instant time = LocalDateTime.parse(when.replace("am", "AM").replace("pm", "PM"), SESSION_TIME)
                        .toInstant(ZoneOffset.UTC);
                List<Turn> turns = new ArrayList<>();
                for (JsonNode turn : entry.getValue()) {
                    String id = normalisedId(turn.get("dia_id").asText());
                    turns.add(new Turn(id, turn.get("speaker").asText(), turn.get("text").asText()));
                    turnIds.add(id);
                }
                sessions.add(new Session(entry.getKey(), time, List.copyOf(turns)));
            }
            List<Question> questions = new ArrayList<>();
            for (JsonNode qa : sample.get("qa")) {
                int category = qa.get("category").asInt();
                if (category < 1 || category > 4) {
                    continue;
                }
                Set<String> evidence = new LinkedHashSet<>();
                for (JsonNode id : qa.get("evidence")) {
                    String raw = id.asText();
                    boolean clean = CLEAN_ID.matcher(raw).matches();
                    int found = 0;
                    for (String part : raw.split("[;\\s]+")) {
                        String normalised = part.isEmpty() ? null : normalisedId(part);
                        if (normalised != null && turnIds.contains(normalised)) {
                            evidence.add(normalised);
                            found++;
                        }
                    }
                    if (found == 0) {
                        stats.droppedIds++;
                    } else if (!clean) {
                        stats.normalisedIds++;
                    }
                }
                if (evidence.isEmpty()) {
                    stats.droppedQuestions++;
                } else {
                    questions.add(new Question(qa.get("question").asText(), category, List.copyOf(evidence)));
                }
            }
            conversations.add(new Conversation(sample.get("sample_id").asText(), conversation.get("speaker_a").asText(),
                    conversation.get("speaker_b").asText(), List.copyOf(sessions), List.copyOf(questions)));
        }
        return conversations;
    }

    /** @return "D&lt;session&gt;:&lt;turn&gt;" without leading zeros, or null when the id is not of that shape */
    private static String normalisedId(String id) {
        Matcher matcher = TURN_ID.matcher(id.trim());
        return matcher.matches() ? "D" + Integer.parseInt(matcher.group(1)) + ":" + Integer.parseInt(matcher.group(2))
                : null;
    }
}
