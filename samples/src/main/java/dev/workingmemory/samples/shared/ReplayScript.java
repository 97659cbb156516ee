package dev.workingmemory.samples.shared;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded conversation: the user's turns and, for each model call of a turn, the model's answer (a tool
 * call or a text). Answers may hold {@code {{…}}} placeholders that a {@link ScriptedModel} fills in from the
 * {@code <working_memory>} block of the request it answers (see {@link WorkingMemoryBlock#resolve}).
 *
 * <p>Immutable and thread-safe.
 */
public record ReplayScript(String memoryId, List<Turn> turns) {

    /** One user message and the model's answers to the calls it causes; every answer but the last is a tool call. */
    public record Turn(String user, List<Step> model) {
    }

    /** One model answer: a tool call ({@code tool} and {@code arguments}) or a {@code text}. */
    public record Step(String tool, ObjectNode arguments, String text) {

        public boolean isToolCall() {
            return tool != null;
        }
    }

    public ReplayScript {
        if (memoryId == null || memoryId.isBlank()) {
            throw new IllegalArgumentException("The replay script needs a memoryId");
        }
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("The replay script has no turns");
        }
        turns = List.copyOf(turns);
    }

    /** Loads a script from a classpath resource such as {@code /cms-replay.json}. */
    public static ReplayScript load(String resource) {
        return parse(readJson(resource, "replay script"), resource);
    }

    /** Reads the JSON of a classpath resource; {@code what} names it in error messages. */
    public static JsonNode readJson(String resource, String what) {
        try (InputStream in = ReplayScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("No " + what + " on the classpath at " + resource);
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the " + what + " " + resource, e);
        }
    }

    /** The model's answers of every turn, in order. */
    public List<Step> steps() {
        return turns.stream().flatMap(turn -> turn.model().stream()).toList();
    }

    /** Reads and checks the script's JSON; {@code source} names it in error messages. */
    public static ReplayScript parse(JsonNode root, String source) {
        List<Turn> turns = new ArrayList<>();
        JsonNode turnNodes = root.path("turns");
        if (!turnNodes.isArray()) {
            throw new IllegalArgumentException(source + ": 'turns' must be an array");
        }
        for (int t = 0; t < turnNodes.size(); t++) {
            JsonNode turn = turnNodes.get(t);
            String where = source + ", turn " + (t + 1);
            String user = turn.path("user").asText("");
            if (user.isBlank()) {
                throw new IllegalArgumentException(where + ": 'user' is missing");
            }
            JsonNode stepNodes = turn.path("model");
            if (!stepNodes.isArray() || stepNodes.isEmpty()) {
                throw new IllegalArgumentException(where + ": 'model' must be a non-empty array of answers");
            }
            List<Step> steps = new ArrayList<>();
            for (int s = 0; s < stepNodes.size(); s++) {
                steps.add(step(stepNodes.get(s), where + ", answer " + (s + 1), s == stepNodes.size() - 1));
            }
            turns.add(new Turn(user, List.copyOf(steps)));
        }
        return new ReplayScript(root.path("memoryId").asText(""), turns);
    }

    private static Step step(JsonNode node, String where, boolean last) {
        boolean hasTool = node.hasNonNull("tool");
        boolean hasText = node.hasNonNull("text");
        if (hasTool == hasText) {
            throw new IllegalArgumentException(where + ": give either 'tool' (with 'arguments') or 'text'");
        }
        if (hasText != last) {
            throw new IllegalArgumentException(where + (last
                    ? ": a turn must end with a 'text' answer"
                    : ": only the last answer of a turn may be a 'text'"));
        }
        if (hasText) {
            return new Step(null, null, node.get("text").asText());
        }
        JsonNode arguments = node.path("arguments");
        if (!arguments.isObject()) {
            throw new IllegalArgumentException(where + ": 'arguments' must be an object");
        }
        return new Step(node.get("tool").asText(), (ObjectNode) arguments, null);
    }
}
