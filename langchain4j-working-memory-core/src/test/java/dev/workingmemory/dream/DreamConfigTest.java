package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DreamConfigTest {

    @Test
    void should_default_to_seed_000() {
        DreamConfig config = DreamConfig.defaults();

        assertThat(config.interval()).isEqualTo(Duration.ofMinutes(120));
        assertThat(config.minNotes()).isEqualTo(5);
        assertThat(config.scheduled()).isTrue();
        assertThat(config.autoNoteInterval()).isEqualTo(Duration.ofMinutes(30));
        assertThat(config.schema()).isEqualTo(StateSchema.defaults());
        assertThat(config.leaseTtl()).isGreaterThan(config.timeout());
        assertThat(config.seedFile("alice")).isEmpty();
        assertThat(DreamConfig.builder().seedFile("alice", Path.of("MEMORY.md")).build().seedFile("alice"))
                .contains(Path.of("MEMORY.md"));
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("interval", (Consumer<DreamConfig.Builder>) b -> b.interval(Duration.ZERO)),
                Arguments.of("interval", (Consumer<DreamConfig.Builder>) b -> b.interval(null)),
                Arguments.of("minNotes", (Consumer<DreamConfig.Builder>) b -> b.minNotes(0)),
                Arguments.of("timeout", (Consumer<DreamConfig.Builder>) b -> b.timeout(Duration.ofSeconds(-1))),
                Arguments.of("leaseTtl", (Consumer<DreamConfig.Builder>) b -> b.leaseTtl(Duration.ZERO)),
                Arguments.of("recordsKept", (Consumer<DreamConfig.Builder>) b -> b.recordsKept(0)),
                Arguments.of("autoNoteInterval", (Consumer<DreamConfig.Builder>) b -> b.autoNoteInterval(Duration.ofMinutes(-1))),
                Arguments.of("consolidationInterval", (Consumer<DreamConfig.Builder>) b -> b.consolidationInterval(Duration.ZERO)),
                Arguments.of("template", (Consumer<DreamConfig.Builder>) b -> b.promptTemplate(" ")),
                Arguments.of("scorer", (Consumer<DreamConfig.Builder>) b -> b.salienceScorer(null)),
                Arguments.of("leaseTtl", (Consumer<DreamConfig.Builder>) b -> b.timeout(Duration.ofMinutes(20)).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void should_reject_bad_settings_naming_them(String name, Consumer<DreamConfig.Builder> setting) {
        assertThatThrownBy(() -> setting.accept(DreamConfig.builder())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(name);
    }
}
