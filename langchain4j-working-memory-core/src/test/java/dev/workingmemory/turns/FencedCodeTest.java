package dev.workingmemory.turns;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FencedCodeTest {

    @Test
    void should_find_no_code_in_prose() {
        assertThat(FencedCode.of(List.of("user: a plan", "user: its second part"), 6)).isNull();
    }

    @Test
    void should_follow_a_fence_across_pieces_until_it_closes() {
        List<String> pieces = List.of(
                "user: here is my code ```java class Ledger {",
                "user: int total; int limit;",
                "user: } ``` and it fails on refunds",  // mostly prose again
                "user: which arrive a month late");
        assertThat(FencedCode.of(pieces, 6)).containsExactly(true, true, false, false);
    }

    @Test
    void should_count_a_piece_as_code_only_when_half_of_it_is_fenced() {
        String prose = "a long explanation of what the function does and why it was written this way";
        assertThat(FencedCode.of(List.of(prose + " ```x = 1```", "more prose"), 0)).isNull();
        assertThat(FencedCode.of(List.of("see ```" + prose + "```", "more prose"), 0)).containsExactly(true, false);
    }

    @Test
    void should_open_and_close_a_fence_of_four_backticks() {
        List<String> pieces = List.of("user: ````python", "user: print(total)", "user: ```` and then it prints 0,"
                + " which is not what I expected at all", "user: can you explain?");
        assertThat(FencedCode.of(pieces, 6)).containsExactly(true, true, false, false);
    }

    @Test
    void should_close_a_fence_only_with_its_own_kind() {
        List<String> pieces = List.of("user: ~~~ ```js", "user: const total = sum(items) ```", "user: still ~~~",
                "user: and the question about it, in prose, after the fence has closed");
        assertThat(FencedCode.of(pieces, 6)).containsExactly(true, true, true, false);
    }

    @Test
    void should_run_an_unclosed_fence_to_the_end_and_not_read_the_label_as_code() {
        assertThat(FencedCode.of(List.of("assistant: ```bash", "assistant: mvn test"), 11)).containsExactly(true, true);
        assertThat(FencedCode.of(List.of("```: a label", "prose"), 5)).isNull();
    }
}
