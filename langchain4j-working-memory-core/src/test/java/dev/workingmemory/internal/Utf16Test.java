package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class Utf16Test {

    @Test
    void should_cut_to_a_prefix_never_ending_in_half_a_pair() {
        assertThat(Utf16.prefix("abc", 5)).isEqualTo("abc");
        assertThat(Utf16.prefix("abc", 3)).isEqualTo("abc");
        assertThat(Utf16.prefix("abcdef", 3)).isEqualTo("abc");
        assertThat(Utf16.prefix("ab\uD83D\uDE00c", 3)).isEqualTo("ab"); // not the emoji's first half
        assertThat(Utf16.prefix("ab\uD83D\uDE00c", 4)).isEqualTo("ab\uD83D\uDE00");
        assertThat(Utf16.prefix("a\uDC00bc", 2)).isEqualTo("a\uDC00"); // an unpaired low surrogate is kept as given
        assertThat(Utf16.prefix("abc", 0)).isEmpty();
    }

    @Test
    void should_tell_an_unpaired_surrogate() {
        assertThat(Utf16.hasUnpairedSurrogate("a\uD83D\uDE00b")).isFalse();
        assertThat(Utf16.hasUnpairedSurrogate("a\uD83Db")).isTrue();
        assertThat(Utf16.hasUnpairedSurrogate("\uDE00")).isTrue();
        assertThat(Utf16.hasUnpairedSurrogate("\uD83D")).isTrue();
    }
}
