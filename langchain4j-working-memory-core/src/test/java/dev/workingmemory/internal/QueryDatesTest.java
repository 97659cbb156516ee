package dev.workingmemory.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

/** The days a search query asks about, and which crystals were made on them or name them. */
class QueryDatesTest {

    private static Instant at(String day) {
        return Instant.parse(day + "T13:56:00Z");
    }

    private static boolean on(String query, LocalDate today, String day) {
        return QueryDates.in(query, today).match(at(day), "nothing dated here");
    }

    private static boolean madeOn(String query, String day) {
        return QueryDates.in(query, null).match(at(day), "nothing dated here");
    }

    @ParameterizedTest
    @ValueSource(strings = {"What dish did Nate make on 9 November, 2022?", "What did Nate make on November 9, 2022?",
            "what happened on nov. 9th 2022", "What did we change on 2022-11-09?", "the 9th of November 2022",
            "What did we ship on November 9?", "Notes from 9 Nov"})
    void should_read_a_day_written_in_each_usual_way(String query) {
        assertThat(madeOn(query, "2022-11-09")).isTrue();
        assertThat(madeOn(query, "2022-11-10")).as("a day either side: the asker's zone").isTrue();
        assertThat(madeOn(query, "2022-11-12")).isFalse();
        assertThat(madeOn(query, "2022-10-09")).isFalse();
    }

    @Test
    void should_read_a_day_without_its_year_in_any_year_and_a_day_with_its_year_in_that_year_only() {
        assertThat(madeOn("What did we decide on March 3?", "2019-03-03")).isTrue();
        assertThat(madeOn("What did we decide on March 3?", "2026-03-04")).isTrue();
        assertThat(madeOn("What did we decide on March 3, 2026?", "2025-03-03")).isFalse();
    }

    @Test
    void should_take_two_days_without_a_year_a_day_apart_across_the_turn_of_the_year() {
        QueryDates newYearsEve = QueryDates.in("What did we plan on December 31?", null);

        assertThat(newYearsEve.match(at("2019-06-15"), "The party is on January 1.")).isTrue();
        assertThat(newYearsEve.match(at("2019-06-15"), "The party is on December 30.")).isTrue();
        assertThat(newYearsEve.match(at("2019-06-15"), "The party is on January 2.")).isFalse();
        assertThat(QueryDates.in("What did we plan on January 1?", null)
                .match(at("2019-06-15"), "The party is on December 31.")).isTrue();
    }

    @Test
    void should_read_a_month_with_its_year_as_the_whole_month() {
        assertThat(madeOn("Which city did John recommend to Tim in January 2024?", "2024-01-01")).isTrue();
        assertThat(madeOn("Which city did John recommend to Tim in January 2024?", "2024-01-31")).isTrue();
        assertThat(madeOn("Which city did John recommend to Tim in January 2024?", "2024-02-15")).isFalse();
        assertThat(madeOn("Which city did John recommend to Tim in January 2024?", "2023-01-15")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"How much did I raise my word count goal from the start until April 9?",
            "What changed since 2024-04-05?", "What did we do before 3 June 2023?",
            "How many days passed between April 5, 2024, and when I improved my score?", "Is the report due by May 2?",
            "What happened between May 2 and May 9?", "Which bugs came in before Sept. 3, 2024?",
            "Who called in May?", "What did we plan for 2024?", "What did I say last week?",
            "Can you send the 3 reports?", "May I ask what Mar said?", "Version 2024-13-40 broke the build",
            "Which of the top 5 may be wrong?", "Did we march 5 miles on the hike?",
            "The 31 February meeting", "Tickets 12 34 and 2022"})
    void should_read_no_day_in_a_span_a_bare_month_or_year_or_what_is_no_date(String query) {
        assertThat(QueryDates.in(query, null).isEmpty()).isTrue();
    }

    @Test
    void should_read_a_span_between_two_dates_and_a_period_before_or_after_one() {
        String between = "How many days passed between April 5, 2024, and April 9, 2024?";
        assertThat(madeOn(between, "2024-04-03")).isFalse();
        assertThat(madeOn(between, "2024-04-07")).isTrue();
        assertThat(madeOn(between, "2024-04-10")).as("a day either side").isTrue();
        assertThat(madeOn("Where was John between August 11 and August 15 2023?", "2023-08-13"))
                .as("the year of the other").isTrue();
        assertThat(madeOn("What changed from 2024-03-01 to 2024-03-05?", "2024-03-04")).isTrue();
        assertThat(madeOn("What changed from 2024-03-05 to 2024-03-01?", "2024-03-03")).as("backwards: not read")
                .isFalse();

        String weekBefore = "What did John do the week before August 3, 2023 involving his kids?";
        assertThat(madeOn(weekBefore, "2023-07-28")).isTrue();
        assertThat(madeOn(weekBefore, "2023-08-03")).as("the day itself: told as \"last week\"").isTrue();
        assertThat(madeOn(weekBefore, "2023-07-20")).isFalse();
        assertThat(madeOn(weekBefore, "2023-08-06")).isFalse();
        assertThat(madeOn("What is the name of the puppy she got two weeks before August 11, 2023?", "2023-07-30"))
                .isTrue();
        assertThat(madeOn("What did we fix the day after 2024-03-01?", "2024-03-02")).isTrue();
        assertThat(madeOn("What did we fix the day after 2024-03-01?", "2024-02-20")).isFalse();
        assertThat(madeOn("What did Joanna show on the Sunday Before October 25, 2022?", "2022-10-20")).isTrue();
    }

    @Test
    void should_count_a_past_day_named_from_today_back_from_the_askers_day() {
        LocalDate thursday = LocalDate.parse("2026-11-26");
        assertThat(on("What did we decide yesterday?", thursday, "2026-11-25")).isTrue();
        assertThat(on("What did we decide yesterday?", thursday, "2026-11-22")).isFalse();
        assertThat(on("and the day before yesterday?", thursday, "2026-11-24")).isTrue();
        assertThat(on("What did we ship on May 3 and May 5, 2026?", thursday, "2026-05-05")).isTrue();
        assertThat(on("What did we ship on May 3 and May 5, 2026?", thursday, "2025-05-03")).as("any year").isTrue();
        assertThat(on("the bug from 3 days ago", thursday, "2026-11-23")).as("from: where it came from").isTrue();
        assertThat(on("what we planned two weeks ago", thursday, "2026-11-14")).as("about then").isTrue();
        assertThat(on("what we planned two weeks ago", thursday, "2026-11-05")).isFalse();
        assertThat(on("what I said a month ago", thursday, "2026-10-03")).isTrue();
        assertThat(on("What did we change last week?", thursday, "2026-11-16")).as("Monday of last week").isTrue();
        assertThat(on("What did we change last week?", thursday, "2026-11-22")).as("its Sunday").isTrue();
        assertThat(on("What did we change last week?", thursday, "2026-11-12")).isFalse();
        assertThat(on("What did we change last month?", thursday, "2026-10-15")).isTrue();
        assertThat(on("What did you cook last weekend?", thursday, "2026-11-21")).isTrue();
        assertThat(on("What did you cook last weekend?", thursday, "2026-11-14")).isFalse();
        assertThat(on("What did we do last Friday?", thursday, "2026-11-20")).isTrue();
        assertThat(on("What did we do last Thursday?", thursday, "2026-11-19")).as("not today").isTrue();
        assertThat(on("What did we do last Thursday?", thursday, "2026-11-26")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"What is on for today?", "What is due this week?", "Where is the meeting on Monday?",
            "What changed since yesterday?", "Do you remember last year?"})
    void should_read_no_day_that_may_be_ahead_or_bounds_an_open_span(String query) {
        assertThat(QueryDates.in(query, LocalDate.parse("2026-11-26")).isEmpty()).isTrue();
    }

    @Test
    void should_read_no_day_counted_from_today_without_a_today() {
        assertThat(QueryDates.in("What did we decide yesterday?", null).isEmpty()).isTrue();
    }

    @Test
    void should_match_a_crystal_that_names_the_day_whenever_it_was_made() {
        QueryDates dates = QueryDates.in("What is due on April 20, 2026?", null);

        assertThat(dates.match(at("2026-03-02"), "user: the report is due on 20 April 2026")).isTrue();
        assertThat(dates.match(at("2026-03-02"), "user: the review is on 2026-04-21")).isTrue();
        assertThat(dates.match(at("2026-03-02"), "user: the report is due on April 20")).as("no year: any")
                .isTrue();
        assertThat(dates.match(at("2026-03-02"), "user: the report is due in April 2026")).as("the month holds it")
                .isTrue();
        assertThat(dates.match(at("2026-03-02"), "user: the report is due on April 25")).isFalse();
        assertThat(dates.match(null, "no time and no date")).isFalse();
        assertThat(QueryDates.in("What is due?", null).match(at("2026-04-20"), "due on April 20")).isFalse();
    }

    @Test
    void should_never_throw_on_any_text_or_time() {
        java.util.Random random = new java.util.Random(20261126);
        String[] parts = {"May", "may", "Sept.", "February", "feb", "31", "29", "0", "00", "9999", "0000", "2024-02-30",
                "1-1-1", "12345-01-01", "th", "of", ",", " ", "  ", "\n", "until", "é", "\uD83D\uDE00", "-", "7"};
        Instant[] times = {Instant.MIN, Instant.MAX, Instant.EPOCH, Instant.parse("9999-12-31T23:59:59Z"),
                Instant.parse("-0001-01-01T00:00:00Z"), null};
        for (int i = 0; i < 5_000; i++) {
            StringBuilder query = new StringBuilder();
            StringBuilder text = new StringBuilder();
            for (int j = random.nextInt(12); j > 0; j--) {
                query.append(parts[random.nextInt(parts.length)]).append(random.nextBoolean() ? " " : "");
                text.append(parts[random.nextInt(parts.length)]).append(random.nextBoolean() ? " " : "");
            }
            QueryDates dates = QueryDates.in(query.toString(), null);
            for (Instant time : times) {
                dates.match(time, text.toString());
            }
        }
        assertThat(QueryDates.in("on 31 December 9999", null)
                .match(Instant.MAX, "31 December 9999 and 1 January 0000")).isTrue();
        QueryDates everything = QueryDates.in("What happened between 0001-01-01 and 9999-12-31?", null);
        assertThat(everything.match(null, "on March 3 " + "and May 4 ".repeat(2_000))).as("a year holds any day")
                .isTrue();
        assertThat(everything.match(Instant.parse("2024-05-04T10:00:00Z"), "")).isTrue();
    }
}
