package dev.workingmemory.internal;

import dev.workingmemory.testing.BenchData;
import dev.workingmemory.testing.LabelledSets;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Passages sized by their estimated tokens cut Latin text into the pieces that passages of 320 characters gave: the
 * digests below are of the pieces the cutter sized in characters gave (commit 43e8fa0) for every message, answer and
 * tool result of the labelled sets (English), a knowledge base, a chat and a file of tool results (JSON) whole, texts
 * with a surrogate pair at every place of a passage's end, and the 2,760 turns of LoCoMo's development conversations
 * when {@code shared/bench} is there. So LoCoMo's passages, and what a search of them finds, are unchanged.
 */
class PassagesEquivalenceTest {

    /** A passage's room, and its room after the labels of past turns' lines. */
    private static final List<Integer> ROOMS = List.of(Passages.MAX_SIZE, Passages.MAX_SIZE - "user: ".length(),
            Passages.MAX_SIZE - "assistant: ".length(), Passages.MAX_SIZE - "tool getWeather: ".length(), 120, 50);
    private static final String LABELLED = "61c3dbacde7e2e602f65eb8389b571548ddabd1bf397fa1f9ae86547368282e8";
    private static final String LOCOMO = "55c0f21cee48b432b533a98bfc9a1eb4fe28c367679031f7d0bad91172fa2854";

    @Test
    void should_cut_latin_text_into_the_pieces_of_320_characters() throws IOException, URISyntaxException {
        List<String> texts = new ArrayList<>();
        for (String set : List.of("/extraction", "/ordinary", "/coding")) {
            texts.addAll(LabelledSets.texts(set));
        }
        for (String file : List.of("/rag/knowledge-base.txt", "/rag/support-conversation.txt",
                "/entity/labelled-tool-results.json")) {
            texts.add(Files.readString(Paths.get(PassagesEquivalenceTest.class.getResource(file).toURI())));
        }
        texts.addAll(surrogatePairsAtEveryPlace());
        List<String> latin = texts.stream().filter(text -> Passages.size(text) == text.length()).toList();
        System.out.println("Passages: " + latin.size() + " of " + texts.size() + " labelled texts are Latin, "
                + latin.stream().filter(text -> Passages.of(text, Passages.MAX_SIZE).size() > 1).count() + " cut");
        assertThat(latin.size()).isGreaterThan(800);
        assertThat(digest(latin, Passages::of, Passages::cut)).isEqualTo(LABELLED);

        List<String> locomo = BenchData.locomoTurns(); // none on a clone without shared/bench (CI)
        if (!locomo.isEmpty()) {
            List<String> latinTurns = locomo.stream().filter(text -> Passages.size(text) == text.length()).toList();
            System.out.println("Passages: " + latinTurns.size() + " of " + locomo.size() + " LoCoMo turns are Latin");
            assertThat(digest(latinTurns, Passages::of, Passages::cut)).isEqualTo(LOCOMO);
        }
    }

    /** The SHA-256 of every text's passages and pieces at every room, in order. */
    private static String digest(List<String> texts, BiFunction<String, Integer, List<String>> of,
                                 BiFunction<String, Integer, List<String>> cut) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String text : texts) {
                for (int room : ROOMS) {
                    digest.update((room + "\u0000" + String.join("\u0001", of.apply(text, room)) + "\u0002"
                            + String.join("\u0001", cut.apply(text, room)) + "\u0003").getBytes(StandardCharsets.UTF_8));
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** English sentences, and a run without a break, with an emoji (a surrogate pair) at every place near 320. */
    private static List<String> surrogatePairsAtEveryPlace() {
        String sentences = ("The team met on Friday to plan the release. Nobody wanted to move the date; the tests"
                + " were green at last!\nThen the deploy failed twice, and the logs said nothing useful about it. ").repeat(4);
        String run = "x".repeat(700);
        List<String> texts = new ArrayList<>();
        for (int at = 280; at <= 330; at++) {
            texts.add(sentences.substring(0, at) + "😀" + sentences.substring(at));
            texts.add(run.substring(0, at) + "😀" + run.substring(at));
        }
        return texts;
    }
}
