package dev.workingmemory.testing;

import org.junit.jupiter.api.Test;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ChildJvm}: what the tests that read a child's output after it ends rely on. */
class ChildJvmTest {

    private static final int LINES = 200_000;

    /** Prints {@code args[0]} numbered lines at once and exits, leaving a full pipe behind. */
    public static final class Printer {
        public static void main(String[] args) throws Exception {
            BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
            for (int i = 0; i < Integer.parseInt(args[0]); i++) {
                out.write("line " + i);
                out.newLine();
            }
            out.flush();
        }
    }

    @Test
    void should_give_every_line_printed_before_the_exit() throws Exception {
        try (ChildJvm child = ChildJvm.start(Printer.class, String.valueOf(LINES))) {
            assertThat(child.awaitExit(Duration.ofMinutes(1))).isZero();

            List<String> printed = child.printed();

            assertThat(printed).hasSize(LINES).startsWith("line 0").endsWith("line " + (LINES - 1));
            assertThat(child.printed()).isEqualTo(printed); // read again, the same
        }
    }

    @Test
    void should_give_the_lines_not_yet_awaited_after_an_awaited_line() throws Exception {
        try (ChildJvm child = ChildJvm.start(Printer.class, "1000")) {
            child.awaitLine("line 10"::equals, Duration.ofMinutes(1));
            assertThat(child.awaitExit(Duration.ofMinutes(1))).isZero();

            assertThat(child.printed()).hasSize(1_000).contains("line 10", "line 999");
        }
    }

    @Test
    void should_refuse_to_read_the_output_of_a_child_still_running() throws Exception {
        try (ChildJvm child = ChildJvm.start(Printer.class, "0")) {
            // a child that has not exited yet: one that waits for its standard input
            ChildJvm waiting = ChildJvm.start(Waiter.class);
            try {
                assertThatThrownBy(waiting::printed).isInstanceOf(IllegalStateException.class);
            } finally {
                waiting.close();
            }
            assertThat(child.awaitExit(Duration.ofMinutes(1))).isZero();
            assertThat(child.printed()).isEmpty();
        }
    }

    /** Waits for a line on its standard input. */
    public static final class Waiter {
        public static void main(String[] args) throws Exception {
            System.in.read();
        }
    }
}
