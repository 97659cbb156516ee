package dev.workingmemory.dream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SkillPatternsTest {

    @ParameterizedTest
    @CsvSource({"fix,fix", "fixed,fix", "fixes,fix", "fixing,fix", "debugging,debug", "deployed,deploy",
            "migrating,migrate", "refactored,refactor", "writes,write", "Reviewed,review"})
    void should_find_the_base_form_of_task_verbs(String token, String lemma) {
        assertThat(SkillPatterns.lemma(token)).isEqualTo(lemma);
    }

    @Test
    void should_not_take_other_words_for_task_verbs() {
        assertThat(SkillPatterns.lemma("tabs")).isNull();
        assertThat(SkillPatterns.lemma("seed")).isNull();
        assertThat(SkillPatterns.lemma("red")).isNull();
    }

    @Test
    void should_read_a_verb_and_its_object() {
        assertThat(SkillPatterns.patterns("Deployed the app to staging, then fixed the flaky tests"))
                .containsExactly("deploy app", "fix flaky tests");
        assertThat(SkillPatterns.patterns("We refactored our TypeScript code and refactor TypeScript again"))
                .containsExactly("refactor TypeScript");
        assertThat(SkillPatterns.patterns("It works, thanks")).isEmpty();
    }

    @Test
    void should_count_each_pattern_once_per_text_across_inflections() {
        Map<String, SkillPatterns.Skill> skills = SkillPatterns.count(List.of(
                "Fixed the flaky tests in CI, fixed flaky tests twice", "fix flaky test in parser",
                "Fixing flaky tests before release", "Reviewed the PR"));

        assertThat(SkillPatterns.ranked(skills)).first().isEqualTo(new SkillPatterns.Skill("fix flaky tests", 3));
    }

    @Test
    void should_write_and_read_the_seed_line() {
        SkillPatterns.Skill skill = new SkillPatterns.Skill("TypeScript refactoring", 7);

        assertThat(skill.line()).isEqualTo("- TypeScript refactoring → Confidence: 88% | Occurrences: 7");
        assertThat(new SkillPatterns.Skill("x", 100).line()).contains("Confidence: 95%");
        assertThat(SkillPatterns.parse(skill.line())).contains(skill);
        assertThat(SkillPatterns.parse("- SQLite schema design -> Confidence: 72% | Occurrences: 4"))
                .contains(new SkillPatterns.Skill("SQLite schema design", 4));
        assertThat(SkillPatterns.parse("- just a line")).isEmpty();
    }
}
