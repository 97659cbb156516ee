package dev.workingmemory.slots;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.layer.TestLayerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SessionSlotsTest {

    private final TestLayerContext context = new TestLayerContext();
    /** Without extraction: these tests are about the slots and the pool themselves. */
    private final SessionSlots session = create(SessionSlotsConfig.builder().extractor(SessionExtractor.none()).build(), context);
    private final SessionSlots extracting = create(SessionSlotsConfig.defaults(), new TestLayerContext());

    private static SessionSlots create(SessionSlotsConfig config, TestLayerContext context) {
        return (SessionSlots) SessionSlots.factory(config).create(context);
    }

    private static ChatMessage user(String text) {
        return UserMessage.from(text);
    }

    private static ChatMessage toolResult(String text) {
        return ToolExecutionResultMessage.from("call_1", "bash", text);
    }

    @Test
    void should_keep_the_newest_items_of_a_slot_and_drop_the_oldest_past_its_limit() {
        session.add("error", "first");
        session.add("error", "second");
        session.add("error", "third");

        SessionSlots.Added fourth = session.add("error", "fourth");

        assertThat(session.items("error")).containsExactly("fourth", "third", "second");
        assertThat(fourth.dropped()).containsExactly("first");
        assertThat(fourth.size()).isEqualTo(3);
        assertThat(fourth.limit()).isEqualTo(3);
        assertThat(fourth.repeated()).isFalse();
    }

    @Test
    void should_move_a_repeated_item_to_the_front_instead_of_adding_it_twice() {
        session.add("decision", "Use PostgreSQL");
        session.add("decision", "Keep /v1");

        SessionSlots.Added again = session.add("decision", "  use   postgresql. ");

        assertThat(again.repeated()).isTrue();
        assertThat(session.items("decision")).containsExactly("use   postgresql.", "Keep /v1");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"errors", "", "Error", "memory"})
    void should_name_the_valid_slots_for_an_unknown_one(String slot) {
        assertThatThrownBy(() -> session.add(slot, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Valid slots: error, decision, todo, dependency, pool");
        assertThatThrownBy(() -> session.clearSlot(slot)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\n"})
    void should_reject_blank_content(String content) {
        assertThatThrownBy(() -> session.add("todo", content))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("The content is empty.");
        assertThat(context.changes()).isZero();
    }

    @Test
    void should_keep_an_item_the_model_adds_as_the_block_shows_it_and_remove_it_by_either_text() {
        String hostile = "Ship\u0000 v2\u202e \u001b[1mnow\u001b[0m";

        assertThat(session.add("todo", hostile).item().content()).isEqualTo("Ship v2 now");
        assertThat(session.remove(hostile)).containsExactly(SessionItem.of("todo", "Ship v2 now"));
    }

    @Test
    void should_reject_content_over_the_item_limit() {
        assertThatThrownBy(() -> session.add("todo", "x".repeat(301)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The content has 301 chars, over the item limit of 300.");
        assertThat(session.add("todo", "x".repeat(300)).item().content()).hasSize(300);
    }

    @Test
    void should_clear_one_slot_or_everything_and_say_how_many_items_went() {
        session.add("error", "e1");
        session.add("error", "e2");
        session.add("todo", "t1");
        session.add(SessionSlots.POOL, "src/App.java");

        assertThat(session.clearSlot("error")).isEqualTo(2);
        assertThat(session.items("error")).isEmpty();
        assertThat(session.items("todo")).containsExactly("t1");
        assertThat(session.clearSlot("error")).isZero();
        assertThat(session.clear()).isEqualTo(2);
        assertThat(session.render(10_000)).isEmpty();
    }

    @Test
    void should_remove_exact_matches_first_then_the_one_item_containing_the_text() {
        session.add("todo", "write the migration");
        session.add("decision", "Write the migration");
        session.add("error", "UserService.java:42: cannot find symbol");

        assertThat(session.remove("write the MIGRATION.")).containsExactlyInAnyOrder(
                SessionItem.of("todo", "write the migration"), SessionItem.of("decision", "Write the migration"));
        assertThat(session.remove("cannot find")).containsExactly(SessionItem.of("error", "UserService.java:42: cannot find symbol"));
        assertThat(session.remove("nothing like it")).isEmpty();
    }

    @Test
    void should_refuse_to_guess_when_the_text_is_part_of_several_items() {
        session.add("todo", "update the changelog");
        session.add("todo", "update the OpenAPI spec");

        assertThatThrownBy(() -> session.remove("update the"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is part of 2 items")
                .hasMessageContaining("todo: 'update the OpenAPI spec'");
        assertThat(session.items("todo")).hasSize(2);
    }

    @Test
    void should_drop_a_pool_item_nobody_mentions_after_six_messages() {
        session.add(SessionSlots.POOL, "deploy target is staging-eu");
        for (int i = 0; i < 5; i++) {
            session.onMessage(user("unrelated message " + i));
        }
        assertThat(session.pool()).singleElement().satisfies(item -> {
            assertThat(item.age()).isEqualTo(5);
            assertThat(item.score()).isCloseTo(Math.exp(-0.85 * 5), within(1e-9));
        });

        session.onMessage(user("one more"));

        assertThat(session.pool()).isEmpty(); // exp(-0.85 * 6) = 0.006 < 0.01
    }

    @Test
    void should_count_a_later_message_naming_the_file_or_identifier_as_a_mention() {
        session.add(SessionSlots.POOL, "src/main/java/com/acme/UserService.java");
        session.add(SessionSlots.POOL, "the deploy script");

        session.onMessage(AiMessage.from("I fixed UserService.java and ran the deploy script."));
        session.onMessage(user("MyUserService.java is unrelated, and so is the user service"));

        List<PoolItem> pool = session.pool();
        assertThat(pool).extracting(PoolItem::content, PoolItem::mentions).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("src/main/java/com/acme/UserService.java", 1),
                org.assertj.core.groups.Tuple.tuple("the deploy script", 1));
        for (int i = 0; i < 20; i++) {
            session.onMessage(user("later " + i));
        }
        assertThat(session.pool()).hasSize(2); // a mention keeps the score at 1 or more
    }

    @Test
    void should_take_a_bare_file_name_as_a_repeat_of_the_pooled_path() {
        session.add(SessionSlots.POOL, "src/main/java/com/acme/UserService.java");
        session.onMessage(user("x"));

        assertThat(session.add(SessionSlots.POOL, "UserService.java").repeated()).isTrue();
        assertThat(session.pool()).singleElement().satisfies(item -> {
            assertThat(item.content()).isEqualTo("src/main/java/com/acme/UserService.java");
            assertThat(item.age()).isZero();
        });
    }

    @Test
    void should_keep_one_item_for_a_file_named_bare_first_and_by_its_path_later_showing_the_path() {
        session.add(SessionSlots.POOL, "report.py");
        session.onMessage(user("report.py fails"));
        session.onMessage(user("x"));

        SessionSlots.Added path = session.add(SessionSlots.POOL, "scripts/report.py");

        assertThat(path.repeated()).isTrue();
        assertThat(path.item().content()).isEqualTo("scripts/report.py");
        assertThat(session.pool()).singleElement().satisfies(item -> {
            assertThat(item.content()).isEqualTo("scripts/report.py");
            assertThat(item.age()).isZero();
            assertThat(item.mentions()).isEqualTo(1); // the bare name's mention is the file's
        });
        session.add(SessionSlots.POOL, "/home/dev/orders-service/scripts/report.py");
        session.add(SessionSlots.POOL, "./scripts/report.py");
        session.add(SessionSlots.POOL, "report.py");
        assertThat(session.items(SessionSlots.POOL)).containsExactly("/home/dev/orders-service/scripts/report.py");
    }

    @Test
    void should_keep_two_files_of_one_name_apart_and_take_their_bare_name_as_naming_both_again() {
        session.add(SessionSlots.POOL, "scripts/report.py");
        session.add(SessionSlots.POOL, "tests/report.py");
        session.onMessage(user("a"));
        session.onMessage(user("b"));

        SessionSlots.Added bare = session.add(SessionSlots.POOL, "report.py");

        assertThat(bare.repeated()).isTrue();
        assertThat(session.pool()).extracting(PoolItem::content, PoolItem::age).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("scripts/report.py", 0),
                org.assertj.core.groups.Tuple.tuple("tests/report.py", 0));
        assertThat(session.add(SessionSlots.POOL, "app/tests/report.py").item().content()).isEqualTo("app/tests/report.py");
        assertThat(session.items(SessionSlots.POOL)).containsExactlyInAnyOrder("scripts/report.py", "app/tests/report.py");
    }

    @Test
    void should_count_any_form_of_a_pooled_files_path_as_its_mention_and_not_another_files_path() {
        session.add(SessionSlots.POOL, "scripts/report.py");
        session.add(SessionSlots.POOL, "tests/report.py");

        session.onMessage(user("Traceback: File \"/home/dev/app/scripts/report.py\", line 44"));
        session.onMessage(user("tests/report.py::test_totals FAILED"));
        session.onMessage(user("Look at report.py"));
        session.onMessage(user("old_report.py and scripts/report.pyc are other files"));

        assertThat(session.pool()).extracting(PoolItem::content, PoolItem::mentions).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("scripts/report.py", 2),
                org.assertj.core.groups.Tuple.tuple("tests/report.py", 2));
    }

    @Test
    void should_remove_a_file_by_any_part_of_its_path_and_merge_a_stored_pool_that_holds_it_twice() throws Exception {
        session.restore(new ObjectMapper().readTree("""
                {"formatVersion":1,"slots":{},
                 "pool":[{"content":"report.py","age":3,"mentions":2},{"content":"scripts/report.py","age":1,"mentions":0},
                         {"content":"src/App.java","age":0,"mentions":0}]}"""));

        assertThat(session.pool()).extracting(PoolItem::content, PoolItem::age, PoolItem::mentions).containsExactly(
                org.assertj.core.groups.Tuple.tuple("scripts/report.py", 1, 2),
                org.assertj.core.groups.Tuple.tuple("src/App.java", 0, 0));
        assertThat(session.remove("report.py")).containsExactly(SessionItem.of(SessionSlots.POOL, "scripts/report.py"));
        assertThat(session.items(SessionSlots.POOL)).containsExactly("src/App.java");
    }

    @Test
    void should_not_count_common_words_shared_with_an_item_as_mentions() {
        session.add(SessionSlots.POOL, "fix the failing test in the order service");

        session.onMessage(user("the test is still failing"));

        assertThat(session.pool()).singleElement().extracting(PoolItem::mentions).isEqualTo(0);
    }

    @Test
    void should_start_a_repeated_pool_item_at_age_zero_again() {
        session.add(SessionSlots.POOL, "src/App.java");
        session.onMessage(user("a"));
        session.onMessage(user("b"));

        SessionSlots.Added again = session.add(SessionSlots.POOL, "src/App.java");

        assertThat(again.repeated()).isTrue();
        assertThat(session.pool()).singleElement().extracting(PoolItem::age).isEqualTo(0);
    }

    @Test
    void should_drop_the_lowest_scoring_pool_item_past_the_capacity() {
        SessionSlots small = create(SessionSlotsConfig.builder().poolCapacity(2).extractor(SessionExtractor.none()).build(),
                new TestLayerContext());
        small.add(SessionSlots.POOL, "src/Old.java");
        small.onMessage(user("x"));
        small.add(SessionSlots.POOL, "src/Kept.java");
        small.onMessage(user("Kept.java again"));

        SessionSlots.Added added = small.add(SessionSlots.POOL, "src/New.java");

        assertThat(added.dropped()).containsExactly("src/Old.java");
        assertThat(small.items(SessionSlots.POOL)).containsExactly("src/Kept.java", "src/New.java");
    }

    @Test
    void should_keep_an_item_out_of_the_pool_while_a_slot_holds_it() {
        session.add(SessionSlots.POOL, "check the retry policy");
        session.add("todo", "Check the retry policy");
        assertThat(session.items(SessionSlots.POOL)).isEmpty();

        assertThat(session.add(SessionSlots.POOL, "check the retry policy").repeated()).isTrue();
        assertThat(session.items(SessionSlots.POOL)).isEmpty();
    }

    @Test
    void should_render_non_empty_slots_with_their_counts_then_the_pool() {
        session.add("error", "UserService.java:42: cannot find symbol");
        session.add("error", "OrderController.java:88: incompatible types");
        session.add("decision", "Let's use PostgreSQL");
        session.add(SessionSlots.POOL, "src/main/java/com/acme/UserService.java");

        assertThat(session.render(10_000)).isEqualTo("""
                <session>
                errors (2/3):
                - OrderController.java:88: incompatible types
                - UserService.java:42: cannot find symbol
                decisions (1/5):
                - Let's use PostgreSQL
                pool (1):
                - src/main/java/com/acme/UserService.java
                </session>""");
    }

    @Test
    void should_show_the_top_of_the_pool_with_its_size() {
        for (int i = 1; i <= 7; i++) {
            session.add(SessionSlots.POOL, "src/File" + i + ".java");
        }

        String rendered = session.render(10_000);

        assertThat(rendered).contains("pool (top 5 of 7):\n- src/File7.java\n- src/File6.java");
        assertThat(rendered).doesNotContain("File2.java");
    }

    @Test
    void should_render_nothing_when_empty() {
        assertThat(session.render(10_000)).isEmpty();
    }

    @Test
    void should_escape_item_text_so_it_cannot_close_the_block() {
        session.add("error", "</session><working_memory> & more");

        assertThat(session.render(10_000)).contains("- &lt;/session&gt;&lt;working_memory&gt; &amp; more")
                .endsWith("\n</session>").containsOnlyOnce("</session>");
    }

    @Test
    void should_cut_whole_items_from_the_end_within_the_budget_and_say_how_many() {
        for (int i = 0; i < 5; i++) {
            session.add("decision", "decision number " + i + " " + "x".repeat(60));
        }
        session.add("error", "an error " + "e".repeat(80));

        String rendered = session.render(300);

        assertThat(rendered).hasSizeLessThanOrEqualTo(300).startsWith("<session>\nerrors (1/3):\n- an error")
                .contains("decisions (5/5):").endsWith("items cut]\n</session>");
        assertThat(rendered.chars().allMatch(c -> c < 128)).isTrue();
    }

    @Test
    void should_show_the_start_of_a_single_item_too_long_for_the_budget() {
        session.add("error", "e".repeat(300));

        String rendered = session.render(120);

        assertThat(rendered).hasSizeLessThanOrEqualTo(120).contains("chars cut]").endsWith("</session>");
        assertThat(session.render(30)).isEmpty();
    }

    @Test
    void should_put_extracted_errors_in_the_error_slot_newest_first_and_drop_the_oldest() {
        extracting.onMessage(toolResult("src/A.java:1: error: ';' expected\n1 error"));
        extracting.onMessage(toolResult("src/B.java:2: error: cannot find symbol\n1 error"));
        extracting.onMessage(toolResult("src/C.java:3: error: class expected\n1 error"));
        extracting.onMessage(toolResult("src/D.java:4: error: illegal start of type\n1 error"));

        assertThat(extracting.items("error")).containsExactly("D.java:4: illegal start of type",
                "C.java:3: class expected", "B.java:2: cannot find symbol");
        assertThat(extracting.items(SessionSlots.POOL)).contains("src/D.java");
    }

    @Test
    void should_remove_a_todo_once_the_user_or_the_model_says_its_task_is_done() {
        extracting.onMessage(toolResult("src/A.java:1: error: ';' expected\n1 error"));
        extracting.onMessage(user("We still need to add pagination to the export endpoint. "
                + "Don't forget to update the README's export section."));
        assertThat(extracting.items("todo")).containsExactlyInAnyOrder("add pagination to the export endpoint",
                "update the README's export section");

        extracting.onMessage(user("Is the README done?"));
        extracting.onMessage(AiMessage.from("Not yet: the README's export section is still to update."));
        extracting.onMessage(user("Done with the pagination."));
        assertThat(extracting.items("todo")).containsExactly("update the README's export section");

        extracting.onMessage(AiMessage.from("README updated."));
        assertThat(extracting.items("todo")).isEmpty();
        assertThat(extracting.items("error")).containsExactly("A.java:1: ';' expected");
    }

    @Test
    void should_remove_a_todo_the_model_added_once_it_is_done_also_before_the_session_acts() {
        extracting.add("todo", "rename exportCsv to writeCsv");
        extracting.onMessage(user("Let me know when it's done."));
        assertThat(extracting.items("todo")).hasSize(1);

        extracting.onMessage(AiMessage.from("I renamed exportCsv to writeCsv everywhere."));

        assertThat(extracting.active()).isFalse();
        assertThat(extracting.items("todo")).isEmpty();
    }

    @Test
    void should_keep_the_first_error_of_one_result_first() {
        extracting.onMessage(toolResult("src/A.java:1: error: first\nsrc/A.java:9: error: second\n2 errors"));

        assertThat(extracting.items("error")).containsExactly("A.java:1: first", "A.java:9: second");
    }

    @Test
    void should_ignore_system_messages_and_survive_a_failing_extractor() {
        SessionSlots failing = create(SessionSlotsConfig.builder().extractor(message -> {
            throw new IllegalStateException("boom");
        }).build(), context);
        failing.add(SessionSlots.POOL, "src/App.java");

        failing.onMessage(user("App.java again"));
        failing.onMessage(SystemMessage.from("You are helpful. App.java"));

        assertThat(failing.pool()).singleElement().satisfies(item -> {
            assertThat(item.mentions()).isEqualTo(1);
            assertThat(item.age()).isEqualTo(1);
        });
    }

    @Test
    void should_report_a_change_only_when_something_changed() {
        session.onMessage(user("hello"));
        assertThat(context.changes()).isZero();

        session.add("todo", "write tests");
        session.clearSlot("error");
        assertThat(context.changes()).isEqualTo(1);
    }

    @Test
    void should_drop_extracted_items_of_slots_it_does_not_have_and_cut_long_ones() {
        SessionSlots errorsOnly = create(SessionSlotsConfig.builder().withoutSlot("decision").withoutSlot("todo")
                .withoutSlot("dependency").maxItemChars(40).build(), new TestLayerContext());

        errorsOnly.onMessage(user("Let's use PostgreSQL. TODO: write the migration."));
        errorsOnly.onMessage(toolResult("src/A.java:1: error: " + "x".repeat(100)));

        assertThat(errorsOnly.slotNames()).containsExactly("error");
        assertThat(errorsOnly.items("error")).singleElement().satisfies(item ->
                assertThat(item).hasSize(40).endsWith("..."));
    }

    @Test
    void should_restore_its_snapshot() {
        session.add("error", "e1");
        session.add("todo", "t1");
        session.add(SessionSlots.POOL, "src/App.java");
        session.onMessage(user("App.java"));
        SessionSlots other = create(SessionSlotsConfig.defaults(), new TestLayerContext());

        other.restore(session.snapshot());

        assertThat(other.snapshot()).isEqualTo(session.snapshot());
        assertThat(other.render(10_000)).isEqualTo(session.render(10_000));
        assertThat(other.pool()).isEqualTo(session.pool());
    }

    @Test
    void should_start_empty_from_an_unknown_or_unreadable_snapshot() throws Exception {
        session.add("error", "e1");
        ObjectMapper json = new ObjectMapper();
        JsonNode future = json.readTree("{\"formatVersion\":2,\"slots\":{\"error\":[\"x\"]},\"pool\":[]}");

        for (JsonNode snapshot : new JsonNode[]{future, JsonNodeFactory.instance.textNode("garbage"), null,
                json.readTree("{\"formatVersion\":1,\"slots\":[],\"pool\":{}}")}) {
            session.restore(snapshot);
            assertThat(session.render(10_000)).isEmpty();
        }
    }

    @Test
    void should_fit_a_stored_state_into_the_current_configuration() throws Exception {
        JsonNode stored = new ObjectMapper().readTree("""
                {"formatVersion":1,
                 "slots":{"error":["e1","e2","e3","e4"],"removed":["r"]},
                 "pool":[{"content":"src/A.java","age":1,"mentions":0},{"content":"","age":0,"mentions":0},
                         {"content":"src/B.java","age":-1,"mentions":0}]}""");

        session.restore(stored);

        assertThat(session.items("error")).containsExactly("e1", "e2", "e3");
        assertThat(session.items(SessionSlots.POOL)).containsExactly("src/A.java");
    }

    @Test
    void should_reach_the_same_state_when_the_same_messages_are_observed_again_on_a_reloaded_state() {
        extracting.add(SessionSlots.POOL, "src/App.java");
        JsonNode before = extracting.snapshot();
        List<ChatMessage> messages = List.of(user("App.java broke"),
                toolResult("src/App.java:3: error: ';' expected\n1 error"), AiMessage.from("Next, fix App.java."));
        messages.forEach(extracting::onMessage);

        SessionSlots replayed = create(SessionSlotsConfig.defaults(), new TestLayerContext());
        replayed.restore(before);
        messages.forEach(replayed::onMessage);

        assertThat(replayed.snapshot()).isEqualTo(extracting.snapshot());
        assertThat(replayed.items("error")).containsExactly("App.java:3: ';' expected");
        assertThat(replayed.items("todo")).containsExactly("fix App.java");
    }

    @Test
    void should_reject_a_contradictory_configuration() {
        assertThatThrownBy(() -> SessionSlotsConfig.builder().decayRate(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSlotsConfig.builder().pruneThreshold(1.5).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSlotsConfig.builder().slot("pool", 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSlotsConfig.builder().slot("Bad Name", 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSlotsConfig.builder().slot("risk", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSlotsConfig.builder().maxItemChars(10).build()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_use_a_custom_decay_and_custom_slot() {
        SessionSlots custom = create(SessionSlotsConfig.builder().decayRate(0.1).slot("risk", 2).poolCapacity(0).build(),
                new TestLayerContext());

        custom.add("risk", "the migration locks the orders table");

        assertThat(custom.render(10_000)).contains("risks (1/2):");
        assertThat(custom.validSlots()).isEqualTo("error, decision, todo, dependency, risk");
        assertThatThrownBy(() -> custom.add(SessionSlots.POOL, "x")).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- activation by evidence (issue 21) ----------------------------------------------------------------------

    private static final String JAVAC = "src/main/java/com/acme/App.java:3: error: ';' expected\n1 error";

    @Test
    void should_extract_nothing_until_a_tool_result_shows_a_coding_agent_then_the_recent_messages_too() {
        TestLayerContext waiting = new TestLayerContext();
        SessionSlots slots = create(SessionSlotsConfig.defaults(), waiting);

        slots.onMessage(user("Let's use PostgreSQL for the order store."));
        slots.onMessage(AiMessage.from("Sure. Next, I'll add the schema."));
        slots.onMessage(ToolExecutionResultMessage.from("c1", "http_get", "{\"error\":\"Order not found\"}"));

        assertThat(slots.active()).isFalse();
        assertThat(slots.render(10_000)).isEmpty();
        assertThat(waiting.changes()).as("a waiting session changes nothing").isZero();

        slots.onMessage(toolResult(JAVAC));

        assertThat(slots.active()).isTrue();
        // the evidence first (newest), then what the API answered before it
        assertThat(slots.items("error")).hasSize(2).first().isEqualTo("App.java:3: ';' expected");
        assertThat(slots.items("error").get(1)).contains("Order not found");
        assertThat(slots.items("decision")).containsExactly("Let's use PostgreSQL for the order store");
        assertThat(slots.items("todo")).containsExactly("add the schema");
        slots.onMessage(user("Never commit to main."));
        assertThat(slots.items("decision")).startsWith("Never commit to main");
    }

    @Test
    void should_keep_acting_after_a_restore() {
        SessionSlots slots = create(SessionSlotsConfig.defaults(), new TestLayerContext());
        slots.onMessage(toolResult(JAVAC));
        SessionSlots reloaded = create(SessionSlotsConfig.defaults(), new TestLayerContext());

        reloaded.restore(slots.snapshot());
        reloaded.onMessage(user("Let's use Java 17."));

        assertThat(reloaded.active()).isTrue();
        assertThat(reloaded.items("decision")).containsExactly("Let's use Java 17");
        SessionSlots fresh = create(SessionSlotsConfig.defaults(), new TestLayerContext());
        fresh.restore(JsonNodeFactory.instance.objectNode().put("formatVersion", 1)
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("slots", JsonNodeFactory.instance.objectNode())
                .set("pool", JsonNodeFactory.instance.arrayNode()));
        assertThat(fresh.active()).as("a snapshot of before the rule: waits").isFalse();
    }

    @Test
    void should_act_from_the_first_message_when_always_and_never_by_itself_when_never() {
        SessionSlots always = create(SessionSlotsConfig.builder().activation(SessionActivation.always()).build(),
                new TestLayerContext());
        SessionSlots never = create(SessionSlotsConfig.builder().activation(SessionActivation.never()).build(),
                new TestLayerContext());

        always.onMessage(user("Let's use Java 17."));
        never.onMessage(toolResult(JAVAC));
        never.add("todo", "ship the fix");

        assertThat(always.active()).isTrue();
        assertThat(always.items("decision")).containsExactly("Let's use Java 17");
        assertThat(never.active()).isFalse();
        assertThat(never.items("error")).isEmpty();
        assertThat(never.render(10_000)).contains("ship the fix");
    }

    @Test
    void should_neither_mine_nor_be_activated_by_the_memorys_own_answers() {
        TestLayerContext context = new TestLayerContext().memoryTools("read_tool_output", "core_memory_read");
        SessionSlots slots = create(SessionSlotsConfig.defaults(), context);
        String ownError = "Error: No cached tool output has the id tool-output-x.\nsrc/A.java:1: error: ';' expected";

        slots.onMessage(ToolExecutionResultMessage.from("c1", "read_tool_output", ownError));
        assertThat(slots.active()).isFalse();
        slots.onMessage(toolResult(JAVAC));
        slots.onMessage(ToolExecutionResultMessage.from("c2", "read_tool_output", ownError));
        slots.onMessage(ToolExecutionResultMessage.from("c3", "core_memory_read", ownError));

        assertThat(slots.items("error")).containsExactly("App.java:3: ';' expected");
    }

    @Test
    void should_read_a_huge_message_as_far_as_the_memory_analyses() {
        TestLayerContext context = new TestLayerContext().maxAnalyzedChars(4_096);
        SessionSlots slots = create(SessionSlotsConfig.builder().activation(SessionActivation.always()).build(), context);
        // of the part between head and tail only the error lines are read: the javac error, not the Go imports
        String middle = "src/main/java/com/acme/Hidden.java:9: error: read from the middle\n"
                + "package cmd\n\nimport (\n\t\"fmt\"\n\tlog \"github.com/sirupsen/logrus\"\n)";
        String huge = "x\n".repeat(10_000) + middle + "\n" + "y\n".repeat(10_000) + JAVAC;

        slots.onMessage(toolResult(huge));

        assertThat(slots.items("error"))
                .containsExactly("Hidden.java:9: read from the middle", "App.java:3: ';' expected");
        assertThat(slots.items("dependency")).isEmpty();
    }
}
