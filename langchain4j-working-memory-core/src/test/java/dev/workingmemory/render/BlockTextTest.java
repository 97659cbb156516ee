package dev.workingmemory.render;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class BlockTextTest {

    /** Inputs and outputs are written with escapes: {@code \\uXXXX} is the character. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "nul\\u0000byte | nulbyte",
            "esc\\u001b[31mred\\u001b[0m | escred",
            "\\u001b[1;31m[ERROR]\\u001b[m Foo.java | [ERROR] Foo.java",
            "csi\\u009b31mred | csired",
            "link \\u001b]8;;https://x.test/a\\u001b\\here\\u001b]8;;\\u001b\\ end | link here end",
            "title\\u001b]0;build\\u0007 done | title done",
            "charset\\u001b(B reverse\\u001bM | charset reverse",
            "unfinished \\u001b[31 | unfinished [31",
            "unended \\u001b]0;title | unended ]0;title",
            "lone esc at the end\\u001b | lone esc at the end",
            "bell\\u0007 del\\u007f c1\\u0080\\u009f | bell del c1",
            "vt\\u000bff\\u000c | vtff",
            "cr lf\\u000d\\u000anext | cr lf\\u000anext",
            "lone cr\\u000dnext | lone cr\\u000anext",
            "nel\\u0085next | nel\\u000anext",
            "tab\\u0009and lf\\u000astay | tab\\u0009and lf\\u000astay",
            "abc\\u202edef\\u202a\\u202b\\u202c\\u202d | abcdef",
            "isolates \\u2066x\\u2067y\\u2068z\\u2069 | isolates xyz",
            "high \\ud800 low \\udc00 reversed \\udc00\\ud800 end\\ud800 | high \\ufffd low \\ufffd reversed \\ufffd\\ufffd end\\ufffd",
            "pair \\ud83d\\ude00 stays | pair \\ud83d\\ude00 stays",
            "marks \\u200e\\u200f\\u200b\\ufeff\\u2028 stay | marks \\u200e\\u200f\\u200b\\ufeff\\u2028 stay",
            "Größe 日本語 | Größe 日本語"})
    void should_remove_controls_with_their_escape_sequences_and_bidi_controls_and_replace_unpaired_surrogates(String input, String expected) {
        String cleaned = BlockText.clean(unescape(input));

        assertThat(cleaned).isEqualTo(unescape(expected));
        assertThat(BlockText.clean(cleaned)).isEqualTo(cleaned);
        assertThat(cleaned.length()).isLessThanOrEqualTo(unescape(input).length());
    }

    @Test
    void should_return_clean_text_itself_and_null_as_null() {
        String clean = "Plain text with a tab\tand a line\nand 😀";

        assertThat(BlockText.clean(clean)).isSameAs(clean);
        assertThat(BlockText.clean(null)).isNull();
    }

    private static String unescape(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            if (text.startsWith("\\u", i)) {
                out.append((char) Integer.parseInt(text.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                out.append(text.charAt(i));
            }
        }
        return out.toString();
    }
}
