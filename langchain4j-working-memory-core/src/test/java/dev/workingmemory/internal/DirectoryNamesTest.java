package dev.workingmemory.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class DirectoryNamesTest {

    /** Directory names of existing stores depend on these: the SHA-256 of the UTF-16 code units, big-endian. */
    @ParameterizedTest
    @CsvSource({
            "alice, f7f9fa84a071343dbdafdd4af35e9801a9bc93012f0dd4764eac7b81c1693aeb",
            "thread:5:alice:default, 677da62379f34a1d3e3c5700d4718a6fe28aea0ed9d69b86541cd72becba7e53"})
    void should_hash_the_code_units_as_stores_always_named_them(String text, String expected) {
        assertThat(DirectoryNames.sha256Hex(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource("2627aa12123578628c9a9023fccfb4cd1973d22f5e56f2c1f0af6cb2d1c9367d")
    void should_hash_an_unpaired_surrogate_as_it_is_rather_than_replaced(String expected) {
        assertThat(DirectoryNames.sha256Hex("a\ud800b")).isEqualTo(expected);
    }
}
