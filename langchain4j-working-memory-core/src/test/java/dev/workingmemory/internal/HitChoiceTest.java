package dev.workingmemory.internal;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.MemoryHit;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The choice among a search's candidates: budget, one passage per whole first, the newer of two alike first. */
class HitChoiceTest {

    private static final CharsPerTokenEstimator TOKENS = CharsPerTokenEstimator.INSTANCE;
    private final List<CrystalHit> candidates = new ArrayList<>();

    private void candidate(String id, String day, String text) {
        at(id, Instant.parse(day + "T10:00:00Z"), text);
    }

    private void at(String id, Instant time, String text) {
        double score = 10 - candidates.size(); // best first
        candidates.add(new CrystalHit(new Crystal(id, "alice", CrystalKind.TURN, time, 0.5, List.of(), text, null),
                score));
    }

    private void piece(String id, CrystalKind kind, String text) {
        double score = 10 - candidates.size();
        candidates.add(new CrystalHit(new Crystal(id, "alice", kind, Instant.parse("2026-03-01T10:00:00Z"), 0.5,
                List.of(Crystal.PIECE), text, null), score));
    }

    /** About {@code chars} characters of plain words that no query here asks for. */
    private static String filler(int chars) {
        return "we talked about the layout of the dashboard and its colours. ".repeat(chars / 61 + 1)
                .substring(0, chars).strip();
    }

    private List<MemoryHit> choose(int budget, int limit) {
        return choose("When is the first sprint deadline?", budget, limit);
    }

    private List<MemoryHit> choose(String query, int budget, int limit) {
        return HitChoice.choose(query, QueryDates.in(query, null), candidates, TOKENS, budget, limit);
    }

    @Test
    void should_put_what_was_said_on_the_day_asked_about_or_names_it_first_each_in_its_order() {
        candidate("turn-a#0", "2022-05-20", "user: we adopted a puppy from the shelter");
        candidate("turn-b#0", "2022-05-25", "user: Looky here, I got this new pup for you!");
        candidate("turn-c#0", "2022-06-02", "user: the puppy's checkup went well");
        candidate("turn-d#0", "2022-04-02", "user: the vet visit is set for May 25, 2022");
        candidate("turn-e#0", "2022-05-25", "assistant: what a lovely surprise");

        assertThat(choose("What did Nate do for Joanna on 25 May, 2022?", 600, 10)).extracting(MemoryHit::id)
                .containsExactly("turn-b#0", "turn-d#0", "turn-e#0", "turn-a#0", "turn-c#0");
        assertThat(choose("What did Nate do for Joanna until 25 May, 2022?", 600, 10)).as("a bound: the text's order")
                .extracting(MemoryHit::id)
                .containsExactly("turn-a#0", "turn-b#0", "turn-c#0", "turn-d#0", "turn-e#0");
        assertThat(choose("What did Nate do for Joanna on 25 May, 2022?", 600, 2)).extracting(MemoryHit::id)
                .containsExactly("turn-b#0", "turn-d#0");
    }

    @Test
    void should_read_the_day_a_piece_names_in_its_whole_text_not_in_its_window() {
        candidate("turn-a#0", "2022-04-01", "user: the sprint review is on Friday");
        piece("note-b#0", CrystalKind.NOTE, "The sprint review happens in the big room with the whole team. "
                + filler(600) + " It is on 2022-05-25.");

        List<MemoryHit> hits = choose("Where does the sprint review with the whole team happen, in the big room on 25"
                + " May, 2022?", 600, 10);

        assertThat(hits).extracting(MemoryHit::id).containsExactly("note-b#0", "turn-a#0");
        assertThat(hits.get(0).text()).as("its window").doesNotContain("May 25");
    }

    @Test
    void should_take_one_passage_per_message_before_a_second() {
        candidate("turn-a#0", "2026-03-01", "user: the Flask app stores its data in SQLite");
        candidate("turn-a#1", "2026-03-01", "assistant: SQLite keeps the whole database in one file");
        candidate("turn-b#0", "2026-03-05", "user: we deploy the service with Gunicorn behind nginx");
        candidate("note-c", "2026-03-07", "Lunch with Ana on Friday");

        assertThat(choose(600, 3)).extracting(MemoryHit::id).containsExactly("turn-a#0", "turn-b#0", "note-c");
        assertThat(choose(600, 4)).extracting(MemoryHit::id).containsExactly("turn-a#0", "turn-b#0", "note-c",
                "turn-a#1");
    }

    @Test
    void should_not_keep_a_user_message_behind_the_answer_of_its_exchange_nor_mark_it_earlier() {
        at("turn-a#1", Instant.parse("2026-03-01T10:00:30Z"), "assistant: the first sprint ends on March 29, plan login first");
        at("turn-a#2", Instant.parse("2026-03-01T10:00:30Z"), "assistant: then the registration form and its tests");
        at("turn-a#0", Instant.parse("2026-03-01T10:00:00Z"), "user: my first sprint ends on March 29");

        List<MemoryHit> hits = choose(600, 2);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-a#1", "turn-a#0");
        assertThat(hits).extracting(MemoryHit::earlierThan).containsOnlyNulls();
    }

    @Test
    void should_keep_within_the_budget_skipping_what_does_not_fit() {
        candidate("turn-a#0", "2026-03-01", "user: " + "long ".repeat(100));
        candidate("turn-b#0", "2026-03-05", "user: we deploy the service with Gunicorn behind nginx");
        candidate("note-c", "2026-03-07", "Lunch with Ana on Friday");

        List<MemoryHit> hits = choose(40, 10);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-b#0", "note-c");
        assertThat(hits.stream().mapToInt(MemoryHit::tokens).sum()).isLessThanOrEqualTo(40);
    }

    @Test
    void should_rank_the_newer_of_two_hits_that_state_the_same_thing_first_and_mark_the_older() {
        candidate("turn-a#0", "2026-03-01", "user: the first sprint deadline is April 1");
        candidate("note-x", "2026-03-02", "Lunch with Ana on Friday");
        candidate("turn-b#0", "2026-03-20", "user: the first sprint deadline moved to April 5");
        candidate("turn-c#0", "2026-03-03", "user: we deploy the service with Gunicorn behind nginx");

        List<MemoryHit> hits = choose(600, 4);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-b#0", "turn-a#0", "note-x", "turn-c#0");
        assertThat(hits.get(1).earlierThan()).isEqualTo("turn-b#0");
        assertThat(hits).filteredOn(hit -> !hit.id().equals("turn-a#0")).extracting(MemoryHit::earlierThan)
                .containsOnlyNulls();
    }

    @Test
    void should_leave_alone_an_older_hit_below_a_newer_one_and_hits_on_other_subjects() {
        candidate("turn-b#0", "2026-03-20", "user: the first sprint deadline moved to April 5");
        candidate("turn-a#0", "2026-03-01", "user: the first sprint deadline is April 1");
        candidate("turn-c#0", "2026-03-25", "user: we deploy the service with Gunicorn behind nginx");

        List<MemoryHit> hits = choose(600, 3);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-b#0", "turn-a#0", "turn-c#0");
        assertThat(hits.get(1).earlierThan()).isEqualTo("turn-b#0");
        assertThat(hits.get(2).earlierThan()).isNull();
    }

    @Test
    void should_only_reorder_the_hits_it_took_never_bring_in_one_left_out() {
        candidate("turn-a#0", "2026-03-01", "user: the first sprint deadline is April 1");
        candidate("turn-c#0", "2026-03-03", "user: we deploy the service with Gunicorn behind nginx");
        candidate("turn-b#0", "2026-03-20", "user: the first sprint deadline moved to April 5");

        assertThat(choose(600, 2)).extracting(MemoryHit::id).containsExactly("turn-a#0", "turn-c#0");
    }

    @Test
    void should_rank_first_the_newer_of_two_hits_that_answer_the_query_alike_in_other_words() {
        candidate("turn-a#0", "2026-09-10", "user: I feel proud of mentoring those 5 women in Caribbean media, and I"
                + " highlighted their stories in my portfolio");
        candidate("turn-b#0", "2026-09-12", "user: I'm updating my portfolio: the number of mentees I've worked with"
                + " has increased to 7, how do I highlight that?");
        candidate("turn-c#0", "2026-09-11", "user: we deploy the service with Gunicorn behind nginx");
        candidate("turn-d#0", "2026-09-13", "user: my resume lists the projects I produced last year");

        List<MemoryHit> hits = choose("How many women have I highlighted as mentees in my portfolio?", 600, 4);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-b#0", "turn-a#0", "turn-c#0", "turn-d#0");
        assertThat(hits.get(1).earlierThan()).isEqualTo("turn-b#0");
        assertThat(hits.get(3).earlierThan()).isNull();
    }

    @Test
    void should_neither_mark_nor_move_a_hit_below_a_newer_one_that_only_holds_the_same_words_of_the_query() {
        candidate("turn-w#0", "2026-11-20", "user: What's the weather going to be like in Lisbon?\n"
                + "tool getWeather: {\"city\":\"Lisbon\",\"conditions\":\"sunny and warm\"}");
        candidate("turn-t#0", "2026-11-22", "user: Any trains from Lisbon to Porto?\n"
                + "tool searchTrains: {\"error\":\"the timetable service is down\"}");
        candidate("turn-b#0", "2026-11-10", "user: Her birthday is on March 21st, she turns 30");
        candidate("turn-p#0", "2026-11-24", "user: We ended up talking about her birthday plans for an hour");

        assertThat(choose("what was the weather in Lisbon", 600, 2)).extracting(MemoryHit::earlierThan).containsOnlyNulls();
        candidates.subList(0, 2).clear();
        // nor put the newer first: the date stays where it ranks
        assertThat(choose("When is her birthday?", 600, 2)).extracting(MemoryHit::id, MemoryHit::earlierThan)
                .containsExactly(tuple("turn-b#0", null), tuple("turn-p#0", null));
        // with other numbers they answer it alike: an update
        candidate("turn-q#0", "2026-11-25", "user: Correction: her birthday is on March 23rd, she turns 30");
        assertThat(choose("When is her birthday?", 600, 3)).filteredOn(hit -> hit.id().equals("turn-b#0"))
                .extracting(MemoryHit::earlierThan).containsExactly("turn-q#0");
    }

    @Test
    void should_rank_the_newest_of_a_subject_first_where_its_best_hit_was() {
        candidate("note-x", "2026-03-02", "Lunch with Ana on Friday");
        candidate("turn-a#0", "2026-03-01", "user: the first sprint deadline is April 1");
        candidate("turn-b#0", "2026-03-20", "user: the first sprint deadline moved to April 5");
        candidate("turn-c#0", "2026-03-25", "user: the first sprint deadline moved again, to April 8");

        List<MemoryHit> hits = choose(600, 4);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("note-x", "turn-c#0", "turn-b#0", "turn-a#0");
        assertThat(hits).extracting(MemoryHit::earlierThan).containsExactly(null, null, "turn-c#0", "turn-c#0");
    }

    @Test
    void should_take_two_subjects_that_meet_in_one_exchange_for_one() {
        at("turn-x#0", Instant.parse("2026-08-15T10:00:00Z"),
                "user: my final draft deadline is October 1, with a peer review session in September");
        at("turn-old#0", Instant.parse("2026-04-10T10:00:00Z"),
                "user: my draft deadline for the writing group is April 20");
        at("turn-x#1", Instant.parse("2026-08-15T10:00:30Z"),
                "assistant: fit the revisions schedule around the extra reviewers' feedback");
        at("turn-new#0", Instant.parse("2026-04-12T10:00:00Z"),
                "user: my revisions schedule has to fit the extra reviewers' feedback by the new date, April 25");

        List<MemoryHit> hits = choose("When is my draft deadline?", 600, 4);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-x#1", "turn-x#0", "turn-new#0",
                "turn-old#0");
    }

    @Test
    void should_not_pull_up_a_second_passage_of_an_exchange_that_states_nothing_alike() {
        candidate("turn-a#0", "2026-03-01", "user: the first sprint deadline is April 1");
        candidate("turn-b#0", "2026-03-20", "user: the first sprint deadline moved to April 5");
        candidate("note-x", "2026-03-02", "Lunch with Ana on Friday");
        candidate("turn-a#1", "2026-03-01", "assistant: login and registration come first");

        assertThat(choose(600, 4)).extracting(MemoryHit::id).containsExactly("turn-b#0", "turn-a#0", "note-x",
                "turn-a#1");
    }

    @Test
    void should_not_take_hits_that_share_only_a_minor_word_of_the_query_for_one_subject() {
        candidate("turn-a#0", "2026-03-01", "user: my Flask app stores its data in SQLite");
        candidate("turn-b#0", "2026-03-20", "user: my cat sleeps all day on the sofa");

        List<MemoryHit> hits = choose("Which database does my Flask app use, and how is it backed up?", 600, 2);
        assertThat(hits).extracting(MemoryHit::id).containsExactly("turn-a#0", "turn-b#0");
        assertThat(hits).extracting(MemoryHit::earlierThan).containsOnlyNulls();
    }

    @Test
    void should_show_a_piece_longer_than_its_share_as_its_window_that_holds_the_query_words() {
        String text = "user: " + filler(300) + ". The first sprint deadline moved to April 5 because of the audit. "
                + filler(300);
        piece("turn-a#1", CrystalKind.TURN, text);

        MemoryHit hit = choose(600, 10).get(0); // a share of 60 tokens, the piece is 168

        assertThat(TOKENS.estimateTokenCountInText(text)).isGreaterThan(60);
        assertThat(hit.id()).isEqualTo("turn-a#1");
        assertThat(hit.text()).startsWith("user: …The first sprint deadline moved to April 5").endsWith("…");
        assertThat(hit.tokens()).isLessThanOrEqualTo(60)
                .isEqualTo(TOKENS.estimateTokenCountInText(hit.text()));
        assertThat(text.replace("…", "")).contains(hit.text().substring("user: …".length(), hit.text().length() - 1));
    }

    @Test
    void should_show_a_piece_that_holds_no_word_of_the_query_from_its_start() {
        String text = "assistant: " + filler(320);
        piece("turn-a#2", CrystalKind.TURN, text);

        MemoryHit hit = choose(600, 10).get(0);

        assertThat(hit.text()).startsWith("assistant: we talked").endsWith("…");
        assertThat(hit.tokens()).isLessThanOrEqualTo(60);
    }

    @Test
    void should_take_more_hits_within_the_budget_once_pieces_show_their_windows() {
        for (int i = 0; i < 6; i++) {
            piece("turn-" + i + "#1", CrystalKind.TURN, "user: " + filler(100) + " sprint deadline number " + i
                    + " " + filler(200));
        }

        List<MemoryHit> hits = choose(300, 5); // a share of 60 tokens: five windows fit, not three whole pieces

        assertThat(hits).hasSize(5).allMatch(hit -> hit.text().contains("sprint deadline number"));
        assertThat(hits.stream().mapToInt(MemoryHit::tokens).sum()).isLessThanOrEqualTo(300);
    }

    @Test
    void should_never_cut_a_whole_message_nor_a_piece_within_its_share() {
        String whole = "user: " + filler(120) + " the first sprint deadline is April 5 " + filler(200);
        candidate("turn-a#0", "2026-03-01", whole); // not a piece: a message of its own, however long
        piece("turn-b#1", CrystalKind.TURN, "user: the first sprint deadline moved to April 5");

        List<MemoryHit> hits = choose(600, 10);

        assertThat(hits).extracting(MemoryHit::text).containsExactly(whole,
                "user: the first sprint deadline moved to April 5");
    }

    @Test
    void should_keep_no_label_in_front_of_a_tool_outputs_window() {
        String log = "ERROR: " + filler(300) + " sprint deadline check failed in DeadlineTest " + filler(200);
        piece("tool-output-x#3", CrystalKind.TOOL_OUTPUT, log);

        MemoryHit hit = choose(600, 10).get(0);

        assertThat(hit.text()).startsWith("…").contains("deadline check failed").doesNotStartWith("ERROR: …");
        assertThat(hit.tokens()).isLessThanOrEqualTo(60);
    }

    @Test
    void should_leave_a_piece_whole_when_its_share_is_too_small_for_a_window() {
        String text = "user: " + filler(300);
        piece("turn-a#1", CrystalKind.TURN, text);

        assertThat(choose(40, 10)).as("a share of 4 tokens: no window, and the piece does not fit").isEmpty();
        assertThat(choose(60, 1)).extracting(MemoryHit::text).singleElement().asString().startsWith("user: we talked")
                .endsWith("…");
    }

    @Test
    void should_cut_a_piece_without_spaces_between_whole_characters() {
        for (String start : List.of("log: ", "logs: ")) { // either parity of the cut
            candidates.clear();
            String text = start + "\uD83D\uDE80".repeat(200); // 200 rockets, no space to cut at
            piece("tool-output-x#1", CrystalKind.TOOL_OUTPUT, text);

            String window = choose(600, 10).get(0).text();

            assertThat(window).endsWith("…").hasSizeLessThan(text.length());
            assertThat(window.codePoints().filter(c -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE))
                    .as("half characters").isEmpty();
        }
    }

    @Test
    void should_return_nothing_for_no_candidates() {
        assertThat(choose(600, 10)).isEmpty();
    }
}
