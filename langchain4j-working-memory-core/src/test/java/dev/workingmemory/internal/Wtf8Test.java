package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Wtf8Test {

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "a\u0000b", "Größe 日本語 😀", "\uD800", "a\uD800b", "\uDC00x", "x\uD83D",
            "\uDE00\uD83D", "😀\uD800😀", "\uD800\uDC00\uDC00", "\u07FF\u0800\uFFFF", "\uDBFF\uDFFF\uDBFF"})
    void should_give_back_exactly_the_string_it_encoded(String text) throws CharacterCodingException {
        assertThat(Wtf8.decode(Wtf8.encode(text))).isEqualTo(text);
        assertThat(Wtf8.decodeReplacing(Wtf8.encode(text))).isEqualTo(text);
    }

    @Test
    void should_give_back_every_code_unit() throws CharacterCodingException {
        StringBuilder text = new StringBuilder();
        for (int c = 0xFFFF; c >= 0; c--) { // descending: every surrogate unpaired
            text.append((char) c);
        }
        for (int c = 0; c <= 0xFFFF; c++) { // ascending: U+DBFF meets U+DC00
            text.append((char) c);
        }

        assertThat(Wtf8.decode(Wtf8.encode(text.toString()))).isEqualTo(text.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "a\u0000b", "Größe 日本語 😀", "\u07FF\u0800\uFFFF", "\uDBFF\uDFFF"})
    void should_encode_well_formed_strings_as_utf_8_and_read_utf_8_as_utf_8(String text) throws CharacterCodingException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);

        assertThat(Wtf8.encode(text)).isEqualTo(utf8);
        assertThat(Wtf8.decode(utf8)).isEqualTo(text); // files written as UTF-8 read the same
    }

    @Test
    void should_write_an_unpaired_surrogate_as_its_own_three_bytes() {
        assertThat(HexFormat.of().formatHex(Wtf8.encode("a\uD800b\uDFFF"))).isEqualTo("61eda08062edbfbf");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\uD800b", "a\uDBFFb", "a\uDC00b"})
    void should_keep_strings_with_different_unpaired_surrogates_apart(String text) {
        assertThat(Wtf8.encode(text)).isNotEqualTo(Wtf8.encode("a?b")).isNotEqualTo(Wtf8.encode("a\uFFFDb"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ff", "e9", "61c3", "eda0", "eda080ed", "c0af", "f4908080", "80"})
    void should_refuse_bytes_that_are_neither_utf_8_nor_a_surrogate_or_replace_them(String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);

        assertThatThrownBy(() -> Wtf8.decode(bytes)).isInstanceOf(CharacterCodingException.class);
        assertThat(Wtf8.decodeReplacing(bytes)).contains("\uFFFD");
    }

    @Test
    void should_replace_only_the_malformed_bytes_around_a_surrogate() {
        assertThat(Wtf8.decodeReplacing(HexFormat.of().parseHex("61ffeda08062"))).isEqualTo("a\uFFFD\uD800b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "déjà 😀", "a\uD800b", "\uDFFF", "x\uD83D\uDE00\uDE00y"})
    void should_decode_a_range_of_a_larger_array_as_the_whole_bytes(String text) {
        byte[] bytes = Wtf8.encode(text);
        byte[] larger = new byte[bytes.length + 6];
        Arrays.fill(larger, (byte) 0xED); // bytes around the range are not read
        System.arraycopy(bytes, 0, larger, 3, bytes.length);

        assertThat(Wtf8.decodeReplacing(larger, 3, bytes.length)).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ff", "61c3", "eda0", "eda080ed", "c0af", "f4908080", "61ffeda08062"})
    void should_replace_malformed_bytes_of_a_range_as_the_whole_bytes_are(String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        byte[] larger = new byte[bytes.length + 2];
        System.arraycopy(bytes, 0, larger, 1, bytes.length);

        assertThat(Wtf8.decodeReplacing(larger, 1, bytes.length)).isEqualTo(Wtf8.decodeReplacing(bytes));
    }
}
