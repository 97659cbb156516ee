package dev.workingmemory.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The texts of the labelled sets of {@code src/test/resources} ({@code extraction}, {@code ordinary}, ...: files of
 * cases {@code ### <name>}, header lines, {@code ---}, the text; see each set's README).
 *
 * <p>Thread-safe (stateless).
 */
public final class LabelledSets {

    private LabelledSets() {
    }

    /**
     * @param resource the set's folder, e.g. {@code /extraction}
     * @param sources  the sources of the cases to take ({@code user}, {@code assistant}, {@code tool}); none: all
     * @return the texts of the set's cases, file by file in the order of their names
     */
    public static List<String> texts(String resource, String... sources) {
        try {
            Path dir = Paths.get(LabelledSets.class.getResource(resource).toURI());
            List<String> texts = new ArrayList<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".cases")).sorted().toList()) {
                    for (String chunk : Files.readString(file, StandardCharsets.UTF_8).split("\n### ")) {
                        int separator = chunk.indexOf("\n---\n");
                        if (separator > 0 && (sources.length == 0 || Stream.of(sources)
                                .anyMatch(source -> chunk.substring(0, separator).contains("\nsource: " + source)))) {
                            texts.add(chunk.substring(separator + 5));
                        }
                    }
                }
            }
            return texts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
