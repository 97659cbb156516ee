package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.crystal.RankFusion.Scored;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CrystalIndexKeywordTest extends InMemoryIndexTest {

    @BeforeEach
    void fill() throws IOException {
        long seq = 1;
        for (int i = 0; i < 40; i++) {
            String text = i % 4 == 0 ? "we went kayaking on the lake, crystal " + i : "a quiet day at home, crystal " + i;
            index.put(new Stored(seq++, note("a-" + i, "alice", text)));
        }
        index.put(new Stored(seq++, note("b-0", "bob", "kayaking all day")));
        index.refresh();
    }

    @Test
    void should_score_a_sample_of_the_whole_scope_as_the_top_is_scored() throws IOException {
        Ranked ranked = index.keywordSearch("alice", Set.of(), "kayaking", 0.5, 3, 100);

        assertThat(ranked.population()).isEqualTo(40);
        assertThat(ranked.top()).hasSize(3);
        // the scope is smaller than the sample: every crystal of alice, none of bob's
        assertThat(ranked.sample()).hasSize(40).extracting(Scored::key).doesNotContain(key("b-0"));
        Map<Long, Double> sampled = ranked.sample().stream().collect(Collectors.toMap(Scored::key, Scored::score));
        for (Scored top : ranked.top()) {
            assertThat(sampled.get(top.key())).isCloseTo(top.score(), within(1e-6));
        }
        assertThat(ranked.sample().stream().filter(hit -> hit.score() > 0).count()).isEqualTo(10);
        assertThat(sampled.get(key("a-1"))).isZero();
    }

    @Test
    void should_take_every_nth_crystal_when_the_scope_is_larger_than_the_sample() throws IOException {
        Ranked ranked = index.keywordSearch("alice", Set.of(), "kayaking", 0.5, 3, 10);

        assertThat(ranked.sample()).extracting(Scored::key).containsExactly(key("a-0"), key("a-4"), key("a-8"),
                key("a-12"), key("a-16"), key("a-20"), key("a-24"), key("a-28"), key("a-32"), key("a-36"));
        assertThat(ranked.sample()).allSatisfy(hit -> assertThat(hit.score()).isPositive());
    }

    @Test
    void should_find_nothing_for_words_the_analyzer_drops() throws IOException {
        assertThat(index.keywordSearch("alice", Set.of(), "the and of", 0.5, 3, 10)).isEqualTo(Ranked.EMPTY);
    }

    @Test
    void should_split_each_top_hits_score_into_its_text_and_its_context_across_segments() throws IOException {
        try (CrystalIndex split = CrystalIndex.open(null, new EnglishAnalyzer())) {
            split.put(new Stored(1, withContext("text", "kayaking on the lake", "a quiet day")));
            split.refresh(); // a segment of its own: the context's terms are looked up in each segment
            split.put(new Stored(2, withContext("context", "a quiet walk home", "kayaking on the lake")));
            split.put(new Stored(3, withContext("both", "kayaking on the lake", "kayaking on the lake")));
            split.refresh();

            Map<Long, Scored> top = split.keywordSearch("carol", Set.of(), "kayaking lake", 0.5, 3, 10).top()
                    .stream().collect(Collectors.toMap(Scored::key, hit -> hit));

            Scored text = top.get(key("text"));
            Scored context = top.get(key("context"));
            Scored both = top.get(key("both"));
            assertThat(text.context()).isZero();
            assertThat(context.context()).isPositive().isCloseTo(context.score(), within(1e-6));
            // the same context and the same text score the same in either crystal
            assertThat(both.context()).isCloseTo(context.score(), within(1e-5));
            assertThat(both.score() - both.context()).isCloseTo(text.score(), within(1e-5));
        }
    }

    private static Crystal withContext(String id, String text, String context) {
        return new Crystal(id, "carol", CrystalKind.TURN, Instant.parse("2026-03-12T14:30:00Z"), 0.5, List.of(), text,
                null, context);
    }
}
