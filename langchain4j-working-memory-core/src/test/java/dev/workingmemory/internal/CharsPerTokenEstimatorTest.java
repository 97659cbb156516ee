package dev.workingmemory.internal;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CharsPerTokenEstimatorTest {

    private static final CharsPerTokenEstimator TOKENS = CharsPerTokenEstimator.INSTANCE;

    @Test
    void should_count_latin_text_at_four_characters_a_token_as_before() {
        String english = "Deadline for the API migration is March 20th.";
        String german = "Die Prüfung in Statistik lief total schlecht, ich ärgere mich so.";
        String polish = "Ukończyłem! Tata płakał, jak mnie zobaczył. Dziękuję za wsparcie.";

        assertThat(TOKENS.estimateTokenCountInText(english)).isEqualTo((english.length() + 3) / 4);
        assertThat(TOKENS.estimateTokenCountInText(german)).isEqualTo((german.length() + 3) / 4);
        assertThat(TOKENS.estimateTokenCountInText(polish)).isEqualTo((polish.length() + 3) / 4);
        assertThat(TOKENS.estimateTokenCountInMessage(UserMessage.from(english))).isEqualTo(4 + (english.length() + 3) / 4);
    }

    /** Measured: 0.86 (o200k) to 1.24 (cl100k) tokens a character; at four characters a token, a third of the least. */
    @Test
    void should_count_a_chinese_japanese_or_korean_character_as_a_token() {
        String japanese = "今日、猫のモモを動物病院に連れて行ったら、腎臓の数値が悪いと言われました。";
        String chinese = "最近考研压力特别大，每天学到凌晨两点。";
        String korean = "오늘 고양이를 동물병원에 데려갔어요";

        assertThat(TOKENS.estimateTokenCountInText(japanese)).isEqualTo(japanese.length());
        assertThat(TOKENS.estimateTokenCountInText(chinese)).isEqualTo(chinese.length());
        assertThat(TOKENS.estimateTokenCountInText(korean)).isEqualTo((4 * 16 + 3 + 3) / 4); // 16 syllables, 3 spaces
        assertThat(TOKENS.estimateTokenCountInMessage(AiMessage.from(japanese))).isEqualTo(4 + japanese.length());
    }

    /** Measured for Russian: 0.36 (o200k) to 0.60 (cl100k) tokens a character. */
    @Test
    void should_count_a_letter_of_another_alphabet_as_half_a_token() {
        String russian = "Меня приняли"; // 11 letters and a space

        assertThat(TOKENS.estimateTokenCountInText(russian)).isEqualTo((11 * 2 + 1 + 3) / 4);
    }

    @Test
    void should_count_each_half_of_a_surrogate_pair_at_its_characters_weight() {
        assertThat(TOKENS.estimateTokenCountInText("\uD83C\uDF89\uD83C\uDF89")).isEqualTo(1); // two emoji: four chars
        assertThat(TOKENS.estimateTokenCountInText("\uD840\uDC00")).isEqualTo(2); // U+20000, a Han ideograph of Ext. B
    }
}
