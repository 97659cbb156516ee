package dev.workingmemory.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The benchmark data of {@code shared/bench} (LoCoMo, BEAM), which is never copied into the repository: found in the
 * first ancestor of the working directory that has it, absent on a clone without it (CI).
 */
public final class BenchData {

    /** LoCoMo's development conversations. */
    public static final String LOCOMO = "shared/bench/locomo/locomo-dev.json";

    private BenchData() {
    }

    /**
     * @param relative a file or directory under the ancestor, e.g. {@code shared/bench/beam/1/chat.json}
     * @return its path, or empty when no ancestor of the working directory has it
     */
    public static Optional<Path> find(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(relative))) {
                return Optional.of(dir.resolve(relative));
            }
        }
        return Optional.empty();
    }

    /** @return the text of every turn of LoCoMo's development conversations, in order; none when they are not there */
    public static List<String> locomoTurns() {
        Path data = find(LOCOMO).orElse(null);
        if (data == null) {
            return List.of();
        }
        List<String> turns = new ArrayList<>();
        try {
            for (JsonNode sample : new ObjectMapper().readTree(data.toFile())) {
                sample.get("conversation").fields().forEachRemaining(field -> {
                    if (field.getKey().matches("session_\\d+") && field.getValue().isArray()) {
                        field.getValue().forEach(turn -> turns.add(turn.get("text").asText()));
                    }
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return turns;
    }
}
