package dev.workingmemory.jdbc;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The encoding itself is {@code Wtf8Test}'s (core); here what the tables rely on. */
class TextsTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "a\u0000b", "Größe 😀", "a\uD800b", "\uDE00\uD83D"})
    void should_give_back_exactly_the_string_it_encoded(String text) {
        assertThat(Texts.decode(Texts.encode(text))).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\uD800b", "a\uDBFFb", "a\uDC00b"})
    void should_keep_strings_with_different_unpaired_surrogates_apart(String text) {
        assertThat(Texts.encode(text)).isNotEqualTo(Texts.encode("a?b")).isNotEqualTo(Texts.encode("a\uFFFDb"));
        assertThat(Texts.hash(Texts.encode(text))).isNotEqualTo(Texts.hash(Texts.encode("a?b")));
    }
}
