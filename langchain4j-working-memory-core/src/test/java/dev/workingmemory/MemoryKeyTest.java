package dev.workingmemory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryKeyTest {

    @ParameterizedTest
    @ValueSource(strings = {"alice", "a\u0000b", "Ünïcödé 🐶", "line\nbreak", "x#"})
    void should_use_a_plain_resource_as_its_crystal_scope(String resource) {
        assertThat(MemoryKey.of(resource).crystalScope()).isEqualTo(resource);
    }

    /** Every resource that could name another's scope, or that a store could not keep apart, is hashed. */
    @ParameterizedTest
    @ValueSource(strings = {"#vip-user", "", " ", "\t\n", "\uD800", "a\uDC00", "\uDBFF", "\uDC00\uD800"})
    void should_hash_a_resource_that_could_not_be_its_own_scope(String resource) {
        assertThat(MemoryKey.of(resource).crystalScope()).matches("#[0-9a-f]{64}");
    }

    @Test
    void should_hash_a_resource_longer_than_900_characters_and_keep_one_of_900() {
        assertThat(MemoryKey.of("x".repeat(900)).crystalScope()).isEqualTo("x".repeat(900));
        assertThat(MemoryKey.of("x".repeat(901)).crystalScope()).matches("#[0-9a-f]{64}");
    }

    @Test
    void should_give_every_resource_its_own_scope_also_one_named_like_another_scope() {
        List<String> resources = List.of("#vip-user", MemoryKey.of("#vip-user").crystalScope(), "", " ", "\uD800",
                "\uDBFF", "?", "\uFFFD", "x".repeat(1_000), MemoryKey.of("x".repeat(1_000)).crystalScope());
        Set<String> scopes = resources.stream().map(r -> MemoryKey.of(r).crystalScope()).collect(Collectors.toSet());
        assertThat(scopes).hasSize(resources.size());
    }

    @Test
    void should_keep_a_well_formed_pair_of_surrogates_as_it_is() {
        assertThat(MemoryKey.of("\uD83D\uDC36").crystalScope()).isEqualTo("🐶");
    }
}
