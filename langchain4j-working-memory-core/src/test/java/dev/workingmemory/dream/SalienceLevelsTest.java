package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SalienceLevelsTest {

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "0;0;0;calm",
            "0.39;0.39;0.39;calm",
            "0.5;0;0.6;socially engaged, motivated",
            "0.75;0;0.45;energized, socially engaged",
            "0.2;0.9;0;stressed",
            "0.4;0.4;0.4;motivated, cautious, socially engaged",
            "0;0.5;0.8;deeply connected, cautious"})
    void should_name_the_mood_from_the_levels(double dopamine, double cortisol, double oxytocin, String mood) {
        assertThat(new SalienceLevels(dopamine, cortisol, oxytocin).mood()).isEqualTo(mood);
    }

    @Test
    void should_read_and_replace_one_level() {
        SalienceLevels levels = new SalienceLevels(0.1, 0.2, 0.3).with(Hormone.CORTISOL, 0.9);

        assertThat(levels.level(Hormone.DOPAMINE)).isEqualTo(0.1);
        assertThat(levels.level(Hormone.CORTISOL)).isEqualTo(0.9);
        assertThat(levels.level(Hormone.OXYTOCIN)).isEqualTo(0.3);
        assertThat(levels.describe()).isEqualTo("dopamine 0.10, cortisol 0.90, oxytocin 0.30");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
    void should_reject_levels_outside_zero_to_one(double bad) {
        assertThatThrownBy(() -> new SalienceLevels(bad, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SalienceLevels(0, 0, bad)).isInstanceOf(IllegalArgumentException.class);
    }
}
