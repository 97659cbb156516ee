package dev.workingmemory.dream;

import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.testing.WordCountEstimator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class TokenChunkerTest {

    private static String words(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
    }

    @Test
    void should_cut_400_tokens_with_80_of_overlap_by_the_estimator() {
        List<String> chunks = new TokenChunker(new WordCountEstimator(), 400, 80).chunks(words(0, 1_000));

        assertThat(chunks).containsExactly(words(0, 400), words(320, 720), words(640, 1_000));
    }

    @Test
    void should_keep_every_word_in_chunks_within_the_size_by_another_estimator() {
        String text = SeedMigrationTest.handWritten();
        List<String> chunks = new TokenChunker(CharsPerTokenEstimator.INSTANCE, 400, 80).chunks(text);

        assertThat(chunks).allSatisfy(chunk ->
                assertThat(CharsPerTokenEstimator.INSTANCE.estimateTokenCountInText(chunk)).isLessThanOrEqualTo(400));
        for (int i = 1; i < chunks.size(); i++) { // each chunk starts inside the previous one: nothing falls between
            String previous = chunks.get(i - 1);
            String head = chunks.get(i).substring(0, 20);
            assertThat(previous).contains(head);
        }
        assertThat(String.join(" ", chunks).split("\\s+")).hasSizeGreaterThan(text.split("\\s+").length);
        assertThat(chunks.get(chunks.size() - 1)).endsWith(text.strip().substring(text.strip().length() - 30));
    }

    @Test
    void should_give_a_word_longer_than_the_size_a_chunk_of_its_own() {
        String giant = "x".repeat(2_000);

        List<String> chunks = new TokenChunker(CharsPerTokenEstimator.INSTANCE, 400, 80).chunks("a " + giant + " b");

        assertThat(chunks).containsExactly("a", giant, "b");
    }

    @Test
    void should_give_no_chunk_for_blank_text() {
        assertThat(new TokenChunker(new WordCountEstimator(), 400, 80).chunks(" \n ")).isEmpty();
    }
}
