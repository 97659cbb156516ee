package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ContentWordsTest {

    @Test
    void should_keep_content_words_in_order() {
        assertThat(ContentWords.words("The user's P2P bridge had a CORS bug in 2026, fixed it in v2 with 12 tests"))
                .containsExactly("P2P", "bridge", "CORS", "bug", "2026", "fixed", "v2", "tests");
        assertThat(ContentWords.words("error 404 in 12 places")).containsExactly("error", "404", "places");
    }

    @Test
    void should_meet_inflected_forms_by_stem() {
        assertThat(ContentWords.stems("migration migrated")).hasSize(1);
        assertThat(ContentWords.stems("tests test testing tested")).hasSize(1);
        assertThat(ContentWords.stems("fixes fixed fix")).hasSize(1);
        assertThat(ContentWords.stems("issues issue")).hasSize(1);
        assertThat(ContentWords.stems("libraries library")).hasSize(1);
        assertThat(ContentWords.stems("debugging debug")).hasSize(1);
        assertThat(ContentWords.stems("move moved moving")).hasSize(1);
        assertThat(ContentWords.stems("migrate migration")).hasSize(1);
        assertThat(ContentWords.stems("class status")).hasSize(2).contains("class", "status");
    }

    @Test
    void should_count_shared_stems() {
        assertThat(ContentWords.shared(ContentWords.stems("Workspace migration"),
                ContentWords.stems("We migrated the workspace to WSL2"))).isEqualTo(2);
        assertThat(ContentWords.shared(ContentWords.stems("the of and"), ContentWords.stems("the of and"))).isZero();
    }

    @Test
    void should_choose_the_longest_words_as_keywords_in_text_order() {
        assertThat(ContentWords.keywords("Fixed the CORS error on the P2P bridge by tuning EigenTrust thresholds", 3))
                .containsExactly("P2P", "EigenTrust", "thresholds");
        assertThat(ContentWords.keywords("", 3)).isEmpty();
    }

    /** Japanese writes no spaces: words are parted where the script changes, and particles are no keywords. */
    @Test
    void should_part_japanese_at_changes_of_script_and_keep_its_two_character_words() {
        assertThat(ContentWords.keywords("京都、大阪、奈良を回る予定", 4)).containsExactly("京都", "大阪", "奈良", "予定");
        assertThat(ContentWords.words("猫のモモが腎臓病で、来週火曜に病院で点滴"))
                .containsExactly("モモ", "腎臓病", "来週火曜", "病院", "点滴");
        assertThat(ContentWords.tokens("コーヒーとホテル")).containsExactly("コーヒー", "と", "ホテル");
        assertThat(ContentWords.words("서울에서 부산까지 기차")).containsExactly("서울에서", "부산까지", "기차");
    }

    @Test
    void should_read_text_in_other_scripts_as_before() {
        assertThat(ContentWords.tokens("Die Küche, Заказ №42 and café-bar v2")).containsExactly("Die", "Küche", "Заказ",
                "42", "and", "café", "bar", "v2");
        assertThat(ContentWords.words("我们下周去大理")).containsExactly("我们下周去大理"); // a Chinese clause stays whole
    }
}
