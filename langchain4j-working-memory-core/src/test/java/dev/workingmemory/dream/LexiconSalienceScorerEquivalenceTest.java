package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.testing.BenchData;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The word-based lexicon scorer gives the scores the regular expressions gave ({@link LegacyLexiconSalienceScorer}),
 * on every user and assistant text at hand: the labelled messages of the extraction and ordinary sets, cue phrases
 * in their variants, and the 2,760 turns of LoCoMo's development conversations when {@code shared/bench} is there.
 */
class LexiconSalienceScorerEquivalenceTest {

    private static final List<String> PHRASES = List.of("IT FINALLY WORKS!!! The build is green.",
            "This is so frustrating, the deploy is still failing", "Thank you so much, you're the best!", "thanks!!!",
            "it works", "Great, it works now", "All tests are now passing", "tests pass", "test is green",
            "Ughhh, it's broken again", "Argh! wtf", "Wooohooo 🎉 shipped it", "woo-hoo!", "done🎉", "🎉🎉 yes",
            "a real break-through", "a breakthrough", "you are a lifesaver", "life-saver", "You're awesome",
            "I really appreciate it", "truly appreciate", "couldn't have done this without you", "kind of you",
            "it keeps crashing", "keep failing", "doesn't work", "does not work", "still not working", "sick of it",
            "I hate this", "nothing works", "error-prone code", "HTTP API", "The API is OK", "so glad, friend",
            "'great' idea", "works'", "it's alive!", "that did it", "we did it", "nailed it", "fixed it", "solved it",
            "This is great.\nGreat!", "frustrated and frustrating", "errors and bugs", "failure, failed, fails",
            "trust you", "happy to help", "thx", "appreciated", "success successful successfully");

    private static final String LOCOMO = "shared/bench/locomo/locomo-dev.json";

    @Test
    void should_score_as_the_regular_expressions_did() throws IOException, URISyntaxException {
        List<String> texts = new ArrayList<>(PHRASES);
        texts.addAll(labelledTexts("/extraction"));
        texts.addAll(labelledTexts("/ordinary"));
        List<String> locomo = locomoTurns(); // none on a clone without shared/bench (CI)
        texts.addAll(locomo);
        List<String> differ = new ArrayList<>();
        for (String text : texts) {
            for (SalienceSource source : List.of(SalienceSource.USER_MESSAGE, SalienceSource.ASSISTANT_MESSAGE)) {
                SalienceLevels now = LexiconSalienceScorer.INSTANCE.score(source, text);
                SalienceLevels before = LegacyLexiconSalienceScorer.INSTANCE.score(source, text);
                if (!close(now, before)) {
                    differ.add(source + " " + text.replace('\n', ' ') + ": " + before + " -> " + now);
                }
            }
        }
        System.out.println("Lexicon scorer: " + texts.size() + " texts (" + locomo.size() + " LoCoMo turns), "
                + differ.size() + " scores differ");
        differ.forEach(line -> System.out.println("  differs: " + line));
        assertThat(texts.size() - locomo.size()).as("phrases and labelled texts").isGreaterThan(200);
        assertThat(differ).isEmpty();
    }

    private static boolean close(SalienceLevels a, SalienceLevels b) {
        return Math.abs(a.dopamine() - b.dopamine()) < 1e-9 && Math.abs(a.cortisol() - b.cortisol()) < 1e-9
                && Math.abs(a.oxytocin() - b.oxytocin()) < 1e-9;
    }

    /** The texts of the user and assistant cases of a labelled set (see its README for the format). */
    private static List<String> labelledTexts(String resource) throws IOException, URISyntaxException {
        Path dir = Paths.get(LexiconSalienceScorerEquivalenceTest.class.getResource(resource).toURI());
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".cases")).sorted().toList()) {
                for (String chunk : Files.readString(file, StandardCharsets.UTF_8).split("\n### ")) {
                    int separator = chunk.indexOf("\n---\n");
                    if (separator > 0 && (chunk.contains("\nsource: user") || chunk.contains("\nsource: assistant"))) {
                        texts.add(chunk.substring(separator + 5).strip());
                    }
                }
            }
        }
        return texts;
    }

    private static List<String> locomoTurns() throws IOException {
        Path data = BenchData.find(LOCOMO).orElse(null);
        if (data == null) {
            return List.of();
        }
        List<String> turns = new ArrayList<>();
        for (JsonNode sample : new ObjectMapper().readTree(data.toFile())) {
            sample.get("conversation").fields().forEachRemaining(field -> {
                if (field.getKey().matches("session_\\d+") && field.getValue().isArray()) {
                    field.getValue().forEach(turn -> turns.add(turn.get("text").asText()));
                }
            });
        }
        return turns;
    }
}
