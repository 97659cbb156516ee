package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.crystal.RankFusion.Ranked;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The second keyword pass with the words the best hits share ({@link QueryFeedback}), through the one ranking. */
class CrystalSearchFeedbackTest extends InMemoryIndexTest {

    private static final CrystalSearch.VectorList NO_VECTORS = (text, candidates) -> Ranked.EMPTY;

    @BeforeEach
    void fill() throws IOException {
        long seq = 1;
        index.put(new Stored(seq++, note("event", "alice", "I went to an LGBTQ event last week, a pride parade downtown")));
        index.put(new Stored(seq++, note("group", "alice", "The LGBTQ support group meets on Tuesdays, the pride parade is"
                + " next")));
        // shares no word with the query: only its best hits' words find it
        index.put(new Stored(seq++, note("memory", "alice", "My favourite memory is the pride parade a few weeks ago")));
        for (int i = 0; i < 30; i++) {
            index.put(new Stored(seq++, note("quiet-" + i, "alice", "a quiet day at home with the dog, " + i)));
        }
        index.put(new Stored(seq++, note("bob-parade", "bob", "the pride parade was fun")));
        index.refresh();
    }

    @Test
    void should_find_what_the_best_hits_speak_of_in_words_the_query_does_not_use() throws IOException {
        assertThat(ids(search("LGBTQ events", 0.3))).containsExactly("event", "group", "memory");
        assertThat(ids(search("LGBTQ events", 0))).containsExactly("event", "group");
    }

    @Test
    void should_rank_the_query_own_words_above_the_added_ones() throws IOException {
        List<CrystalHit> hits = search("LGBTQ events", 0.3);

        assertThat(hits.get(2).score()).isLessThan(hits.get(1).score());
        assertThat(hits.get(2).scores().keyword()).isPositive();
    }

    @Test
    void should_search_once_when_no_word_of_the_query_is_found() throws IOException {
        assertThat(search("kayaking", 0.3)).isEmpty();
    }

    @Test
    void should_weigh_the_words_by_the_scope_own_crystals_not_by_another_user_sharing_its_partition()
            throws IOException {
        String neighbour = IntStream.range(0, 10_000).mapToObj(i -> "user-" + i)
                .filter(scope -> LuceneEmbeddingStore.partition(scope) == LuceneEmbeddingStore.partition("alice"))
                .findFirst().orElseThrow();
        long seq = 100;
        for (int i = 0; i < 50; i++) { // "parade" is common in the neighbour's crystals, rare in alice's
            index.put(new Stored(seq++, note("n-" + i, neighbour, "the parade again, " + i)));
        }
        index.refresh();

        Map<String, Float> words = index.feedbackWords("alice", Set.of(), "LGBTQ events",
                List.of("the pride parade, then we marched downtown"), 33, 0.3);

        // "pride" and "parade" are each in three of alice's crystals: weighed alike, whatever the neighbour holds
        // ("we", "marched" and "downtown" are in one at most, and not added)
        assertThat(words).hasSize(2);
        assertThat(words.values()).allSatisfy(boost -> assertThat(boost).isCloseTo(0.3f, within(1e-6f)));
    }

    @Test
    void should_read_the_words_of_a_long_hit_from_its_start_only() throws IOException {
        String longHit = "the pride parade downtown " + "x".repeat(QueryFeedback.TEXT_CHARS) + " a few weeks ago";

        Map<String, Float> words = index.feedbackWords("alice", Set.of(), "LGBTQ events", List.of(longHit), 33, 0.3);

        // "pride" and "parade" are read; "weeks", in two of alice's crystals, would be added too if it were read
        assertThat(words).hasSize(2);
        assertThat(index.feedbackWords("alice", Set.of(), "LGBTQ events", List.of("a few weeks ago"), 33, 0.3))
                .hasSize(1);
    }

    private List<CrystalHit> search(String query, double feedbackWeight) throws IOException {
        return CrystalSearch.run(index, new CrystalQuery("alice", query, 10),
                new CrystalRanking(1, 0, 0.5, 30, feedbackWeight), NO_VECTORS);
    }

    private static List<String> ids(List<CrystalHit> hits) {
        return hits.stream().map(hit -> hit.crystal().id()).toList();
    }
}
