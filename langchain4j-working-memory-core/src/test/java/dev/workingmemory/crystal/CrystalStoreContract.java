package dev.workingmemory.crystal;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The behaviour every {@link CrystalStore} implementation must have. An implementation's test implements this
 * interface: {@link #store()} returns the store under test (the same instance until {@link #reopen()}), empty at
 * the start of each test; a persistent implementation also implements {@link #reopen()}.
 */
public interface CrystalStoreContract {

    Instant T0 = Instant.parse("2026-03-12T14:30:00Z");

    /** The store under test. */
    CrystalStore store();

    /** Closes the store and opens a new one on the same storage, which {@link #store()} returns from then on. */
    default CrystalStore reopen() {
        return null;
    }

    /** Whether what is stored survives {@link #reopen()}. */
    default boolean persistent() {
        return false;
    }

    static Crystal note(String id, String scope, String text) {
        return new Crystal(id, scope, CrystalKind.NOTE, T0, 0.7, List.of(), text, null);
    }

    static Crystal turn(String id, String scope, int minute, String text) {
        return new Crystal(id, scope, CrystalKind.TURN, T0.plusSeconds(60L * minute), 0.5, List.of(), text, null);
    }

    /** Ten everyday notes of one user, none about a migration. */
    static List<Crystal> background(String scope) {
        String[] texts = {
                "User prefers tabs over spaces in every language",
                "The user's name is Douglas and he lives in Lisbon",
                "Douglas likes hiking in the mountains on weekends",
                "The staging server runs on port 8443 behind nginx",
                "Coffee with oat milk, no sugar, every morning",
                "The cat is called Pixel and is afraid of the vacuum cleaner",
                "Weekly team meeting moved to Thursday at 10am",
                "Favourite book: The Left Hand of Darkness",
                "Never use semicolons in JavaScript for this user",
                "The laptop is a ThinkPad X1 running Debian"};
        List<Crystal> crystals = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            crystals.add(note(scope + "-bg-" + i, scope, texts[i]));
        }
        return crystals;
    }

    static List<String> ids(List<CrystalHit> hits) {
        return hits.stream().map(hit -> hit.crystal().id()).toList();
    }

    @Test
    default void should_find_a_crystal_by_meaning_and_by_keyword_right_after_adding_it() {
        store().add(background("alice"));
        store().add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));

        assertThat(ids(store().search(new CrystalQuery("alice", "when is the migration due", 3))))
                .first().isEqualTo("deadline");
        assertThat(ids(store().search(new CrystalQuery("alice", "what is the cut-off date for moving our interface",
                3)))).contains("deadline");
        assertThat(ids(store().search(new CrystalQuery("alice", "March 20th", 3)))).first().isEqualTo("deadline");
    }

    @Test
    default void should_find_a_keywords_only_crystal_by_its_words_and_not_by_meaning() {
        store().add(background("alice"));
        store().add(List.of(new Crystal("deadline", "alice", CrystalKind.TURN, T0, 0.5, List.of(Crystal.KEYWORDS_ONLY),
                "Deadline for the API migration is March 20th", null)));

        // on the vector list it counts at the scope's mean: found by its words, among the hits
        assertThat(ids(store().search(new CrystalQuery("alice", "March 20th", 3)))).contains("deadline");
        assertThat(ids(store().search(new CrystalQuery("alice", "API migration deadline", 3)))).contains("deadline");
        assertThat(ids(store().search(new CrystalQuery("alice", "what is the cut-off date for moving our interface",
                3)))).doesNotContain("deadline");
        assertThat(store().get("deadline")).get().extracting(Crystal::keywordsOnly).isEqualTo(true);
    }

    @Test
    default void should_see_every_crystal_added_before_a_read() {
        List<Crystal> crystals = IntStream.range(0, 40)
                .mapToObj(i -> turn("t" + i, "alice", i, "Turn number " + i + " mentions the colour " + i * 7))
                .toList();
        crystals.forEach(crystal -> store().add(List.of(crystal)));

        assertThat(store().count("alice")).isEqualTo(40);
        assertThat(ids(store().search(new CrystalQuery("alice", "colour 273", 1)))).containsExactly("t39");
    }

    @Test
    default void should_return_what_a_crystal_holds() {
        Crystal crystal = new Crystal("c1", "alice", CrystalKind.TOOL_OUTPUT, Instant.parse("2026-03-12T14:30:00.123456Z"),
                0.25, List.of("decision", "important"), "Build failed: missing artifact",
                "message:42", "2026-03-12 tool result: Build failed: missing artifact x:y:1.0");
        store().add(List.of(crystal));

        assertThat(store().get("c1")).contains(crystal);
        assertThat(store().search(new CrystalQuery("alice", "build failure", 1)))
                .extracting(CrystalHit::crystal).containsExactly(crystal);
        assertThat(store().get("c1")).contains(crystal); // indexed now
        assertThat(store().get("absent")).isEmpty();
    }

    /** Nothing lost: a text, tag, source or context holding unpaired surrogates (and a NUL) comes back exactly. */
    @Test
    default void should_return_unpaired_surrogates_exactly_after_search_and_reopen() {
        Crystal crystal = new Crystal("odd", "alice", CrystalKind.TOOL_OUTPUT, Instant.parse("2026-03-12T14:30:00Z"),
                0.5, List.of("tag \uDBFF"), "Lighthouse log: lamp \uD800 rotated, keeper \uD83D\uDE00 \uDC00 \u0000 ok",
                "message:\uDFFF", "the exchange \uD800");
        store().add(List.of(crystal));

        assertThat(store().search(new CrystalQuery("alice", "lighthouse lamp rotated", 1)))
                .extracting(CrystalHit::crystal).containsExactly(crystal);
        assertThat(store().get("odd")).contains(crystal);
        if (persistent()) {
            reopen();
            assertThat(store().search(new CrystalQuery("alice", "lighthouse lamp rotated", 1)))
                    .extracting(CrystalHit::crystal).containsExactly(crystal);
        }
    }

    @Test
    default void should_replace_a_crystal_added_again_with_the_same_id() {
        store().add(background("alice"));
        store().add(List.of(note("n1", "alice", "The release is planned for Friday")));
        store().add(List.of(note("n1", "alice", "The release moved to Monday because of the holiday")));

        assertThat(store().count("alice")).isEqualTo(11);
        List<CrystalHit> hits = store().search(new CrystalQuery("alice", "release day", 2));
        assertThat(hits.get(0).crystal().text()).isEqualTo("The release moved to Monday because of the holiday");
        assertThat(hits).extracting(hit -> hit.crystal().id()).doesNotHaveDuplicates();
        assertThat(store().search(new CrystalQuery("alice", "Friday", 5)))
                .noneMatch(hit -> hit.crystal().text().contains("Friday"));
    }

    @Test
    default void should_delete_crystals_of_a_scope() {
        store().add(background("alice"));
        store().add(List.of(note("d1", "alice", "Deadline for the API migration is March 20th"),
                note("d2", "alice", "The migration needs the new OAuth scopes")));

        store().delete("alice", List.of("d1", "absent"));

        assertThat(store().get("d1")).isEmpty();
        assertThat(store().count("alice")).isEqualTo(11);
        assertThat(ids(store().search(new CrystalQuery("alice", "migration deadline March 20th", 20))))
                .contains("d2").doesNotContain("d1");
    }

    @Test
    default void should_delete_only_crystals_of_the_given_scope() {
        store().add(List.of(note("a1", "alice", "Alice's secret recipe uses cardamom")));

        store().delete("bob", List.of("a1"));

        assertThat(store().get("a1")).isPresent();
        assertThat(store().count("alice")).isEqualTo(1);
    }

    @Test
    default void should_delete_crystals_still_waiting_to_be_indexed() {
        List<Crystal> crystals = IntStream.range(0, 30)
                .mapToObj(i -> note("w" + i, "alice", "Waiting crystal number " + i + " about gardening"))
                .toList();
        store().add(crystals);

        store().delete("alice", crystals.stream().map(Crystal::id).toList());

        assertThat(store().count("alice")).isZero();
        assertThat(store().search(new CrystalQuery("alice", "gardening", 5))).isEmpty();
    }

    @Test
    default void should_delete_a_whole_scope_and_nothing_else() {
        store().add(background("alice"));
        store().add(background("bob"));

        store().deleteScope("alice");

        assertThat(store().count("alice")).isZero();
        assertThat(store().search(new CrystalQuery("alice", "tabs over spaces", 5))).isEmpty();
        assertThat(store().get("alice-bg-0")).isEmpty();
        assertThat(store().count("bob")).isEqualTo(10);
        assertThat(ids(store().search(new CrystalQuery("bob", "tabs over spaces", 1)))).containsExactly("bob-bg-0");

        store().add(List.of(note("again", "alice", "A new beginning after the deletion")));
        assertThat(store().count("alice")).isEqualTo(1);
    }

    @Test
    default void should_never_return_another_scopes_crystals() {
        store().add(List.of(note("a-deadline", "alice", "Deadline for the API migration is March 20th")));
        store().add(List.of(note("b-cat", "bob", "Bob's cat is called Whiskers")));

        for (String query : List.of("Deadline for the API migration is March 20th", "when is the migration due",
                "March", "cat", "*", "alice")) {
            assertThat(store().search(new CrystalQuery("bob", query, 10)))
                    .extracting(hit -> hit.crystal().scope()).containsOnly("bob");
        }
        assertThat(store().search(new CrystalQuery("carol", "Deadline for the API migration", 10))).isEmpty();
        assertThat(store().count("bob")).isEqualTo(1);
        assertThat(store().recent("bob", Instant.EPOCH, 10)).extracting(Crystal::id).containsExactly("b-cat");
    }

    @Test
    default void should_return_a_scopes_own_hits_when_another_scope_has_far_more_matching_crystals() {
        store().add(IntStream.range(0, 30)
                .mapToObj(i -> note("a" + i, "alice", "The database migration step " + i + " is due on March " + i))
                .toList());
        store().add(List.of(note("b1", "bob", "The database migration is due on March 3rd"),
                note("b2", "bob", "Bob walks his dog every evening")));

        List<CrystalHit> hits = store().search(new CrystalQuery("bob", "database migration due March", 5));

        assertThat(ids(hits)).containsExactly("b1", "b2");
    }

    @Test
    default void should_keep_scopes_with_hostile_names_apart() {
        List<String> scopes = List.of("../../x", "a\u0000b", "a/b", "Größe 😀", "s".repeat(Crystal.MAX_ID_LENGTH));
        for (String scope : scopes) {
            store().add(List.of(note("id-" + scopes.indexOf(scope), scope, "Shared text about the quarterly report")));
        }
        for (String scope : scopes) {
            assertThat(store().search(new CrystalQuery(scope, "quarterly report", 10)))
                    .extracting(hit -> hit.crystal().scope()).containsExactly(scope);
        }
    }

    @Test
    default void should_search_only_the_kinds_asked_for() {
        store().add(List.of(note("n", "alice", "Kubernetes upgrade planned for May"),
                turn("t", "alice", 1, "Kubernetes upgrade went fine in the test cluster")));

        assertThat(ids(store().search(new CrystalQuery("alice", "Kubernetes upgrade", 5, Set.of(CrystalKind.TURN)))))
                .containsExactly("t");
        assertThat(ids(store().search(new CrystalQuery("alice", "Kubernetes upgrade", 5))))
                .containsExactlyInAnyOrder("n", "t");
    }

    @Test
    default void should_return_recent_crystals_most_important_first_then_most_recent() {
        store().add(List.of(
                new Crystal("old", "alice", CrystalKind.NOTE, T0.minusSeconds(3600), 1.0, List.of(), "Old and vital", null),
                new Crystal("low", "alice", CrystalKind.NOTE, T0.plusSeconds(10), 0.2, List.of(), "Recent trivia", null),
                new Crystal("high1", "alice", CrystalKind.NOTE, T0.plusSeconds(20), 0.9, List.of(), "Vital one", null),
                new Crystal("high2", "alice", CrystalKind.NOTE, T0.plusSeconds(30), 0.9, List.of(), "Vital two", null),
                new Crystal("edge", "alice", CrystalKind.NOTE, T0, 0.9, List.of(), "Exactly at the time", null)));

        assertThat(store().recent("alice", T0, 10)).extracting(Crystal::id).containsExactly("high2", "high1", "low");
        assertThat(store().recent("alice", T0, 2)).extracting(Crystal::id).containsExactly("high2", "high1");
    }

    @Test
    default void should_give_keywords_that_find_the_crystal_again() {
        store().add(background("alice"));
        store().add(List.of(
                note("cors", "alice", "We spent 3 hours debugging a CORS error on the P2P bridge; fixed by tweaking "
                        + "EigenTrust peer scoring thresholds"),
                note("wsl", "alice", "Moved the workspace from Windows to WSL and fixed the line endings"),
                note("pg", "alice", "The PostgreSQL vacuum settings were tuned for the big events table")));

        for (String id : List.of("cors", "wsl", "pg")) {
            List<String> keywords = store().keywords(id, 3);
            assertThat(keywords).hasSize(3);
            assertThat(keywords).noneMatch(word -> List.of("the", "a", "on", "from", "to", "and", "for", "by")
                    .contains(word.toLowerCase()));
            assertThat(ids(store().search(new CrystalQuery("alice", String.join(" ", keywords), 3))))
                    .as("keywords %s", keywords).contains(id);
        }
        assertThat(store().keywords("absent", 3)).isEmpty();
    }

    @Test
    default void should_refuse_text_over_the_limit_and_bad_arguments() {
        Crystal tooLong = note("long", "alice", "x".repeat(20_001));

        assertThatThrownBy(() -> store().add(List.of(tooLong)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 over the limit of 20000");
        assertThatThrownBy(() -> store().add(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().recent("alice", T0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().keywords("x", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(store().count("alice")).isZero();
    }

    @Test
    default void should_keep_its_crystals_after_close_and_reopen() {
        assumeTrue(persistent(), "not persistent");
        store().add(background("alice"));
        store().add(List.of(note("deadline", "alice", "Deadline for the API migration is March 20th")));
        store().add(List.of(note("b", "bob", "Bob's deadline is in June")));
        store().count("alice");
        store().delete("alice", List.of("alice-bg-3"));

        reopen();

        assertThat(store().count("alice")).isEqualTo(10);
        assertThat(store().get("alice-bg-3")).isEmpty();
        assertThat(ids(store().search(new CrystalQuery("alice", "when is the migration due", 1))))
                .containsExactly("deadline");
        assertThat(ids(store().search(new CrystalQuery("bob", "when is the migration due", 5))))
                .containsExactly("b");
    }

    @Test
    default void should_index_after_reopening_what_was_still_queued_at_close() {
        assumeTrue(persistent(), "not persistent");
        List<Crystal> crystals = IntStream.range(0, 100)
                .mapToObj(i -> turn("q" + i, "alice", i, "Queued turn " + i + " about sailing to island " + i))
                .toList();
        store().add(crystals);

        reopen();

        assertThat(store().count("alice")).isEqualTo(100);
        assertThat(ids(store().search(new CrystalQuery("alice", "island 99", 1)))).containsExactly("q99");
    }

    @Test
    default void should_refuse_calls_after_close() {
        store().close();
        store().close(); // twice is fine

        assertThatThrownBy(() -> store().add(List.of(note("x", "alice", "late"))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store().search(new CrystalQuery("alice", "late", 1)))
                .isInstanceOf(IllegalStateException.class);
    }
}
