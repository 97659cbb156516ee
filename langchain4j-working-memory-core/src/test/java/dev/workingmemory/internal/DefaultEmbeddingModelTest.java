package dev.workingmemory.internal;

import dev.workingmemory.testing.ChildJvm;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DefaultEmbeddingModelTest {

    private static final String CUDA_WARNING = "Failed to detect GPU count";

    private static List<String> load(String how) throws Exception {
        try (ChildJvm child = ChildJvm.start(EmbeddingModelLoad.class, how)) {
            child.awaitLine(line -> line.startsWith("embedded "), Duration.ofMinutes(2));
            assertThat(child.awaitExit(Duration.ofMinutes(1))).isZero();
            return child.printed();
        }
    }

    /** Meaningful where a CUDA runtime is installed without a driver (as on the machines of issue 24), else skipped. */
    @Test
    void should_load_the_model_without_djls_cuda_warning_where_loading_it_plainly_prints_one() throws Exception {
        assumeTrue(load("plain").stream().anyMatch(line -> line.contains(CUDA_WARNING)),
                "No CUDA runtime without a driver here: loading the model prints no CUDA warning to silence");

        List<String> printed = load("default");

        assertThat(printed).contains("embedded 384").noneMatch(line -> line.contains(CUDA_WARNING));
    }
}
