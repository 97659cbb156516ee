package dev.workingmemory.internal;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.event.WorkingMemoryListener;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SearchAnalyzerTest {

    private static final Instant T0 = Instant.parse("2026-03-12T14:30:00Z");

    @ParameterizedTest
    @ValueSource(strings = {"Deadline for the API migration is March 20th; Caroline's tests are passing.",
            "Die Prüfung in Statistik lief total schlecht, ich ärgere mich so.",
            "Меня приняли! Дирижёр поставила меня в альты.", "tool lookupOrder: {\"orderId\":\"88-ES-30177\"}"})
    void should_give_other_text_than_cjk_the_tokens_of_the_english_analyzer(String text) throws IOException {
        assertThat(tokens(new SearchAnalyzer(), text)).isEqualTo(tokens(new EnglishAnalyzer(), text));
    }

    /**
     * 病院 (hospital) said in one passage; 病 and 院 apart, and more often, in the others (病気 illness, 大学院 graduate
     * school, 病棟 ward). By single characters the others scored as high; by pairs the word is where it was said.
     */
    @Test
    void should_find_a_japanese_word_where_it_was_said_before_where_its_characters_stand_apart() {
        List<String> texts = List.of(
                "user: 父の病気のことで、病棟の看護師さんと話しました。大学院の友達も心配してくれています。",
                "user: 今日、猫のモモを動物病院に連れて行きました。",
                "user: 病気がちな祖母は、大学院に通う姉の近くに住んでいます。病は気からと言いますね。");
        try (CrystalStore store = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.hashing()).build()) {
            List<Crystal> crystals = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                crystals.add(new Crystal("turn-" + i + "#0", "alice", CrystalKind.TURN, T0.plusSeconds(60L * i), 0.5,
                        List.of(), texts.get(i), null));
            }
            store.add(crystals);
            MemorySearch search = new MemorySearch(store, CharsPerTokenEstimator.INSTANCE, 600, 1_000,
                    WorkingMemoryListener.NONE, Clock.systemUTC());

            List<MemoryHit> hits = search.search("alice", "病院", 3);

            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).text()).contains("動物病院");
        }
    }

    private static List<String> tokens(Analyzer analyzer, String text) throws IOException {
        List<String> tokens = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream("body", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                tokens.add(term.toString());
            }
            stream.end();
        }
        return tokens;
    }
}
