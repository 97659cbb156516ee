package dev.workingmemory.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class QueryWordsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "When did Melanie paint a sunrise?|Melanie paint a sunrise?",
            "What is the deadline of the API migration|the deadline of the API migration",
            "how would Caroline's friends describe her|Caroline's friends describe her",
            "May I know what happened in May?|I know happened in May?",
            "Where will Will go next week|Will go next week",
            "migration deadline|migration deadline",
            "What is it?|it?",
            "what is|what is"})
    void should_take_the_question_words_out(String query, String expected) {
        assertThat(QueryWords.strip(query)).isEqualTo(expected);
    }
}
