package dev.workingmemory.jdbc;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class TextsTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "a\u0000b", "Größe 日本語 😀", "\uD800", "a\uD800b", "\uDC00x", "x\uD83D",
            "\uDE00\uD83D", "😀\uD800😀", "\uD800\uDC00\uDC00", "\u07FF\u0800\uFFFF"})
    void should_give_back_exactly_the_string_it_encoded(String text) {
        assertThat(Texts.decode(Texts.encode(text))).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "a\u0000b", "Größe 日本語 😀", "\u07FF\u0800\uFFFF"})
    void should_encode_well_formed_strings_as_utf_8(String text) {
        assertThat(Texts.encode(text)).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\uD800b", "a\uDBFFb", "a\uDC00b"})
    void should_keep_strings_with_different_unpaired_surrogates_apart(String text) {
        assertThat(Texts.encode(text)).isNotEqualTo(Texts.encode("a?b")).isNotEqualTo(Texts.encode("a\uFFFDb"));
        assertThat(Texts.hash(Texts.encode(text))).isNotEqualTo(Texts.hash(Texts.encode("a?b")));
    }
}
