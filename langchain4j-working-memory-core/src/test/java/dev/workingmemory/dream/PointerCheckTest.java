package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PointerCheckTest {

    private static final DreamCrystal CORS = new DreamCrystal("c-cors", "note", Instant.parse("2026-03-01T10:00:00Z"),
            0.8, "We spent 3 hours debugging a CORS error on the P2P bridge. Fixed by tweaking EigenTrust thresholds.");
    private static final DreamCrystal WSL = new DreamCrystal("c-wsl", "migrated", Instant.parse("2026-02-01T10:00:00Z"),
            0.75, "Moved the whole workspace into WSL2 with the dotfiles and the SSH keys.");
    private static final List<DreamCrystal> STORE = List.of(CORS, WSL);

    private final List<String> queries = new ArrayList<>();

    /** A keyword search over {@link #STORE}: a crystal matches when its text holds any of the words. */
    private List<SearchHit> search(String keywords) {
        queries.add(keywords);
        List<SearchHit> hits = new ArrayList<>();
        for (DreamCrystal crystal : STORE) {
            String text = crystal.text().toLowerCase(Locale.ROOT);
            for (String word : keywords.toLowerCase(Locale.ROOT).split("\\s+")) {
                if (!word.isEmpty() && text.contains(word)) {
                    hits.add(new SearchHit(crystal.id(), crystal.text()));
                    break;
                }
            }
        }
        return hits;
    }

    @Test
    void should_keep_a_pointer_whose_keywords_find_its_topic() {
        PointerCheck check = PointerCheck.builder().search(this::search).build();
        CrystalPointer pointer = new CrystalPointer("P2P bridge CORS debugging", "CORS P2P EigenTrust");

        PointerCheck.Result result = check.check(List.of(pointer), List.of());

        assertThat(result.outcomes()).singleElement().satisfies(outcome -> {
            assertThat(outcome.action()).isEqualTo(PointerOutcome.Action.KEPT);
            assertThat(outcome.kept()).contains(pointer);
            assertThat(outcome.reason()).isEqualTo("its keywords retrieve c-cors");
        });
        assertThat(result.unchanged()).isTrue();
        assertThat(queries).containsExactly("CORS P2P EigenTrust");
    }

    @Test
    void should_not_keep_a_pointer_whose_hits_are_about_something_else() {
        PointerCheck check = PointerCheck.builder().search(this::search).build();
        // "hours" retrieves the CORS crystal, which says nothing of a vacation
        CrystalPointer pointer = new CrystalPointer("Vacation planning", "hours");

        assertThat(check.check(List.of(pointer), STORE).outcomes()).singleElement()
                .extracting(PointerOutcome::action).isEqualTo(PointerOutcome.Action.DROPPED);
    }

    @Test
    void should_keep_a_pointer_that_finds_its_source_crystal_by_id() {
        PointerCheck check = PointerCheck.builder().search(keywords -> List.of(new SearchHit("c-wsl", ""))).build();
        CrystalPointer pointer = new CrystalPointer("Workspace move", "WSL2 dotfiles");

        assertThat(check.check(List.of(pointer), STORE).outcomes()).singleElement()
                .extracting(PointerOutcome::action).isEqualTo(PointerOutcome.Action.KEPT);
        assertThat(check.check(List.of(pointer), List.of()).outcomes()).singleElement() // no source: an empty hit
                .extracting(PointerOutcome::action).isEqualTo(PointerOutcome.Action.DROPPED);
    }

    @Test
    void should_repair_a_pointer_from_the_keywords_of_its_source_crystal() {
        KeywordSource index = (id, max) -> Map.of("c-wsl", List.of("workspace", "WSL2", "dotfiles")).getOrDefault(id, List.of());
        PointerCheck check = PointerCheck.builder().search(this::search).keywordSource(index).build();
        CrystalPointer pointer = new CrystalPointer("Workspace migration", "migration linux");

        PointerCheck.Result result = check.check(List.of(pointer), STORE);

        assertThat(result.outcomes()).singleElement().satisfies(outcome -> {
            assertThat(outcome.action()).isEqualTo(PointerOutcome.Action.REPAIRED);
            assertThat(outcome.kept()).contains(new CrystalPointer("Workspace migration", "workspace WSL2 dotfiles"));
            assertThat(outcome.reason()).contains("keywords of c-wsl retrieve c-wsl");
        });
        assertThat(result.pointers()).containsExactly(new CrystalPointer("Workspace migration", "workspace WSL2 dotfiles"));
        assertThat(queries).containsExactly("migration linux", "workspace WSL2 dotfiles");
    }

    @Test
    void should_repair_from_the_crystal_text_when_the_keyword_source_knows_nothing() {
        PointerCheck check = PointerCheck.builder().search(this::search).maxKeywords(2).build();
        CrystalPointer pointer = new CrystalPointer("Workspace move", "nothing-matches");

        PointerOutcome outcome = check.check(List.of(pointer), STORE).outcomes().get(0);

        assertThat(outcome.action()).isEqualTo(PointerOutcome.Action.REPAIRED);
        assertThat(outcome.result().keywords()).isEqualTo("workspace WSL2"); // words with digits first
    }

    @Test
    void should_drop_a_pointer_without_a_source_or_whose_repair_finds_nothing() {
        PointerCheck check = PointerCheck.builder().search(keywords -> List.of()).build();
        CrystalPointer orphan = new CrystalPointer("Quantum gardening", "qubits tomatoes");
        CrystalPointer lost = new CrystalPointer("Workspace migration", "migration");

        PointerCheck.Result result = check.check(List.of(orphan, lost), STORE);

        assertThat(result.outcomes()).extracting(PointerOutcome::action)
                .containsExactly(PointerOutcome.Action.DROPPED, PointerOutcome.Action.DROPPED);
        assertThat(result.outcomes().get(0).reason()).contains("no crystal of the dream is about it");
        assertThat(result.outcomes().get(1).reason()).contains("neither its keywords nor those of c-wsl");
        assertThat(result.pointers()).isEmpty();
        assertThat(result.count(PointerOutcome.Action.DROPPED)).isEqualTo(2);
        assertThat(result.unchanged()).isFalse();
    }

    @Test
    void should_choose_the_best_matching_and_then_most_important_source() {
        DreamCrystal weak = new DreamCrystal("weak", "note", Instant.EPOCH, 0.1, "workspace notes");
        DreamCrystal strong = new DreamCrystal("strong", "note", Instant.EPOCH, 0.9, "workspace notes again");
        CrystalPointer pointer = new CrystalPointer("Workspace", "notes");

        assertThat(PointerCheck.source(pointer, List.of(weak, strong))).contains(strong);
        assertThat(PointerCheck.source(pointer, List.of(CORS))).isEmpty();
    }

    @Test
    void should_require_a_search_function() {
        assertThatThrownBy(() -> PointerCheck.builder().build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PointerOutcome(new CrystalPointer("t", "k"), PointerOutcome.Action.DROPPED,
                new CrystalPointer("t", "k"), "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
