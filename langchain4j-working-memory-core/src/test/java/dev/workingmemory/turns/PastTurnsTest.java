package dev.workingmemory.turns;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.internal.Passages;
import dev.workingmemory.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static org.assertj.core.api.Assertions.assertThat;

/** Messages that leave the window become TURN crystals of the resource: the passages of each exchange. */
class PastTurnsTest {

    private final CrystalStore crystals = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm()).build();
    private final SettableClock clock = new SettableClock("2026-03-12T09:00:00Z");

    @AfterEach
    void close() {
        crystals.close();
    }

    private WorkingMemoryProvider provider(int maxMessages) {
        return WorkingMemoryProvider.builder().maxMessages(maxMessages).clock(clock).crystalStore(crystals).build();
    }

    private List<Crystal> turns(String scope) {
        return crystals.recent(scope, Instant.EPOCH, 100).stream()
                .sorted(Comparator.comparing(Crystal::time).thenComparing(Crystal::id)).toList();
    }

    private static ToolExecutionRequest call(String id, String tool) {
        return ToolExecutionRequest.builder().id(id).name(tool).arguments("{}").build();
    }

    @Test
    void should_pack_a_short_exchange_into_one_passage_with_its_neighbours_as_context() {
        ChatMemory chat = provider(6).get("alice");
        chat.add(UserMessage.from("What is the weather\nin Lisbon?"));
        chat.add(AiMessage.from(call("c1", "getWeather")));
        chat.add(ToolExecutionResultMessage.from("c1", "getWeather", "Sunny, 24 degrees"));
        chat.add(AiMessage.from("It is sunny in Lisbon."));
        clock.advance(Duration.ofHours(1));
        chat.add(UserMessage.from("And tomorrow?"));
        chat.add(AiMessage.from("Rain is expected."));
        clock.set("2026-03-13T09:00:00Z");
        chat.add(UserMessage.from("Book a table for two."));
        chat.add(AiMessage.from("Done."));
        chat.add(UserMessage.from("Thanks."));
        chat.add(AiMessage.from("You are welcome."));
        chat.add(UserMessage.from("Bye."));

        List<Crystal> turns = turns("alice");
        assertThat(turns).hasSize(2);
        Crystal first = turns.get(0);
        assertThat(first.kind()).isEqualTo(CrystalKind.TURN);
        assertThat(first.scope()).isEqualTo("alice");
        assertThat(first.importance()).isEqualTo(0.5);
        assertThat(first.time()).isEqualTo(Instant.parse("2026-03-12T09:00:00Z"));
        assertThat(first.id()).matches("turn-[0-9a-f]{32}#0");
        assertThat(first.text()).isEqualTo("""
                user: What is the weather in Lisbon?
                tool getWeather: Sunny, 24 degrees
                assistant: It is sunny in Lisbon.""");
        // the exchange after was still in the window: its first line is the context
        assertThat(first.context()).isEqualTo("user: And tomorrow?");
        Crystal second = turns.get(1);
        assertThat(second.time()).isEqualTo(Instant.parse("2026-03-12T10:00:00Z"));
        // the next exchange was said a day later: only the one before is context
        assertThat(second.context()).isEqualTo(first.text());
    }

    @Test
    void should_take_as_context_a_neighbour_said_six_hours_apart_and_not_one_a_millisecond_later() {
        ChatMemory chat = provider(2).get("alice");
        chat.add(UserMessage.from("First question?"));
        chat.add(AiMessage.from("First answer."));
        clock.advance(Duration.ofHours(6));
        chat.add(UserMessage.from("Second question?"));
        chat.add(AiMessage.from("Second answer."));
        clock.advance(Duration.ofHours(6).plusMillis(1));
        chat.add(UserMessage.from("Third question?"));
        chat.add(AiMessage.from("Third answer."));
        chat.add(UserMessage.from("Fourth?"));

        List<Crystal> turns = turns("alice");
        assertThat(turns).extracting(Crystal::text).containsExactly(
                "user: First question?\nassistant: First answer.",
                "user: Second question?\nassistant: Second answer.",
                "user: Third question?\nassistant: Third answer.");
        assertThat(turns).extracting(Crystal::context).containsExactly(
                "user: Second question?",
                "user: First question?\nassistant: First answer.",
                "user: Fourth?");
    }

    @Test
    void should_say_who_said_it_when_the_users_of_a_conversation_have_names() {
        ChatMemory chat = provider(2).get("team");
        chat.add(UserMessage.from("alice", "I moved the release to Friday."));
        chat.add(AiMessage.from("Noted."));
        chat.add(UserMessage.from("bob\nsmith", "Then QA starts on Thursday."));
        chat.add(AiMessage.from("Noted too."));
        chat.add(UserMessage.from("Thanks."));

        assertThat(turns("team")).extracting(Crystal::text).containsExactly(
                "user alice: I moved the release to Friday.\nassistant: Noted.",
                "user bob smith: Then QA starts on Thursday.\nassistant: Noted too.");
        assertThat(turns("team")).flatExtracting(Provenance::lines).extracting(Provenance.Line::provenance)
                .containsExactly(Provenance.USER, Provenance.MODEL, Provenance.USER, Provenance.MODEL);
    }

    @Test
    void should_not_pack_lines_of_two_days_into_one_passage() {
        ChatMemory chat = provider(2).get("alice");
        clock.set("2026-03-12T23:59:50Z");
        chat.add(UserMessage.from("Still up?"));
        clock.set("2026-03-13T00:00:10Z");
        chat.add(AiMessage.from("Yes, it is past midnight."));
        clock.set("2026-03-13T00:00:20Z");
        chat.add(UserMessage.from("Good night."));
        chat.add(AiMessage.from("Good night!"));
        clock.set("2026-03-13T00:05:00Z");
        chat.add(UserMessage.from("One more thing."));
        chat.add(AiMessage.from("Yes?"));

        List<Crystal> turns = turns("alice");
        assertThat(turns).extracting(Crystal::text).containsExactly("user: Still up?",
                "assistant: Yes, it is past midnight.", """
                user: Good night.
                assistant: Good night!""");
        assertThat(turns).extracting(Crystal::time).containsExactly(Instant.parse("2026-03-12T23:59:50Z"),
                Instant.parse("2026-03-13T00:00:10Z"), Instant.parse("2026-03-13T00:00:20Z"));
        assertThat(turns.get(0).context()).isEqualTo("assistant: Yes, it is past midnight.");
        // what the window held of the second exchange was the first one's context, with the same line
        assertThat(turns.get(1).context()).isEqualTo("user: Still up?\nuser: Good night.");
    }

    @Test
    void should_keep_a_tool_result_whole_up_to_its_limit_and_an_excerpt_of_a_longer_one() {
        ChatMemory chat = provider(2).get("alice");
        String policy = "Store policy.\n" + "Section: general terms and conditions apply to purchases.\n".repeat(18)
                + "Returns: items may be returned within 45 days with the receipt code ZEBRA-7731.";
        chat.add(UserMessage.from("Read the policy and the log"));
        chat.add(AiMessage.from(call("c1", "readPolicy"), call("c2", "readFile")));
        chat.add(ToolExecutionResultMessage.from("c1", "readPolicy", policy));
        chat.add(ToolExecutionResultMessage.from("c2", "readFile", "line ".repeat(1_000)));
        chat.add(AiMessage.from("The log repeats one word."));
        chat.add(UserMessage.from("Thanks"));
        chat.add(AiMessage.from("You're welcome"));

        List<String> passages = turns("alice").stream().map(Crystal::text).toList();
        assertThat(String.join("\n", passages)).as("a 1,100-character result, whole").contains("ZEBRA-7731");
        List<String> log = passages.stream().flatMap(String::lines).filter(l -> l.startsWith("tool readFile")).toList();
        assertThat(log).as("a longer result (the pressure layer caches it whole): an excerpt").singleElement()
                .satisfies(line -> assertThat(line).endsWith("…")
                        .hasSizeLessThanOrEqualTo(PastTurns.TOOL_EXCERPT_CHARS + "tool readFile: ".length()));
    }

    @Test
    void should_leave_out_the_results_of_memory_search_which_are_crystals_already() {
        WorkingMemoryProvider memories = provider(2);
        memories.memoryToolNames().register("memory_search"); // as the tools module does for its beans
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("What did I say about Lisbon?"));
        chat.add(AiMessage.from(call("c1", "memory_search")));
        chat.add(ToolExecutionResultMessage.from("c1", "memory_search", "Found 1 memory: a trip to Lisbon"));
        chat.add(AiMessage.from("You planned a trip."));
        chat.add(UserMessage.from("Thanks"));
        chat.add(AiMessage.from("You're welcome"));

        assertThat(turns("alice").get(0).text()).isEqualTo("""
                user: What did I say about Lisbon?
                assistant: You planned a trip.""");
    }

    @Test
    void should_grow_one_passage_while_a_turn_longer_than_the_window_leaves_it_in_parts() {
        ChatMemory chat = provider(3).get("alice");
        chat.add(UserMessage.from("Run the three checks"));
        for (int i = 1; i <= 3; i++) {
            chat.add(AiMessage.from(call("c" + i, "check")));
            chat.add(ToolExecutionResultMessage.from("c" + i, "check", "check " + i + " passed"));
        }
        chat.add(AiMessage.from("All three passed."));

        List<Crystal> turns = turns("alice");
        assertThat(turns).hasSize(1);
        assertThat(turns.get(0).text()).startsWith("user: Run the three checks")
                .contains("tool check: check 1 passed", "tool check: check 2 passed");
    }

    @Test
    void should_cut_a_long_message_into_passages_that_read_back_as_the_whole_exchange() {
        WorkingMemoryProvider memories = provider(2);
        ChatMemory chat = memories.get("alice");
        StringBuilder plan = new StringBuilder("Here is the plan for the budget tracker.\n");
        for (int week = 1; week <= 12; week++) {
            plan.append("Week ").append(week).append(": build feature ").append(week)
                    .append(" with its tests, review it with the team and deploy it to staging.\n");
        }
        chat.add(UserMessage.from("Plan the project."));
        chat.add(AiMessage.from(plan.toString()));
        chat.add(UserMessage.from("Thanks"));
        chat.add(AiMessage.from("You're welcome"));

        List<Crystal> turns = turns("alice");
        assertThat(turns).hasSizeGreaterThan(3);
        assertThat(turns).allSatisfy(turn -> assertThat(turn.text()).hasSizeLessThanOrEqualTo(320));
        assertThat(turns.get(0).text()).isEqualTo("user: Plan the project.");
        assertThat(turns.subList(1, turns.size())).allSatisfy(turn -> assertThat(turn.text()).startsWith("assistant: "));
        String exchange = turns.get(0).id().substring(0, turns.get(0).id().indexOf('#'));
        assertThat(turns).extracting(Crystal::id).allMatch(id -> id.startsWith(exchange + "#"));
        // cut at line ends: no week is split between two passages
        assertThat(turns.subList(1, turns.size())).allSatisfy(turn -> assertThat(turn.text())
                .matches("assistant: (Here is|Week \\d+:).*staging\\."));

        List<Crystal> read = memories.memory("alice").read(turns.get(2).id(), 0, 50);
        assertThat(read).extracting(Crystal::id).containsExactlyElementsOf(turns.stream().map(Crystal::id).sorted(
                Comparator.comparingInt(id -> Integer.parseInt(id.substring(id.indexOf('#') + 1)))).toList());
        assertThat(String.join(" ", read.stream().map(Crystal::text).toList())).contains("Week 7: build feature 7")
                .contains("Week 12: build feature 12");
        assertThat(memories.memory("bob").read(turns.get(2).id(), 0, 50)).isEmpty(); // another resource's
    }

    @Test
    void should_pack_and_cut_lines_by_their_estimated_tokens_so_that_a_chinese_passage_fits_a_hit_s_share() {
        ChatMemory chat = provider(2).get("alice");
        // a Chinese character is a token: these two lines are 90 tokens, as 360 characters of English
        String question = "我下个月要去云南旅行，想先在昆明住两天，然后去大理和丽江，你觉得这样安排时间够不够呢？请帮我看看。";
        String answer = "够了。昆明两天，大理三晚，丽江两晚，时间刚好。记得提前订好从昆明到大理的高铁票。";
        String plan = "这样安排比较合适。昆明两天可以看滇池和石林，大理建议住三晚，丽江两晚就够了。记得提前订好高铁票。"
                .repeat(3);
        chat.add(UserMessage.from(question));
        chat.add(AiMessage.from(answer));
        chat.add(UserMessage.from("能再详细说一下吗？"));
        chat.add(AiMessage.from(plan));
        chat.add(UserMessage.from("谢谢！"));
        chat.add(AiMessage.from("不客气。"));
        chat.add(UserMessage.from("再见"));

        List<Crystal> turns = turns("alice");
        assertThat(turns).extracting(Crystal::text).startsWith("user: " + question, "assistant: " + answer);
        assertThat(turns).hasSizeGreaterThan(4).allSatisfy(turn -> assertThat(Passages.size(turn.text()))
                .isLessThanOrEqualTo(Passages.MAX_SIZE));
        assertThat(turns).filteredOn(Crystal::piece).hasSizeGreaterThan(1) // the plan, 144 characters, is cut
                .allSatisfy(turn -> assertThat(turn.text()).startsWith("assistant: "));
    }

    @Test
    void should_leave_the_fenced_code_of_a_message_to_the_keyword_search() {
        WorkingMemoryProvider memories = provider(2);
        ChatMemory chat = memories.get("alice");
        StringBuilder code = new StringBuilder("```python\n");
        for (int i = 1; i <= 12; i++) {
            code.append("def budget_rule_").append(i).append("(ledger):\n    return ledger.total(month=")
                    .append(i).append(") > ledger.limit\n");
        }
        code.append("```");
        String prose = "My budget tracker flags a month when spending goes over the limit, and I am not sure the"
                + " rules below handle a refund that arrives in the next month. ";
        chat.add(UserMessage.from(prose + prose.toLowerCase() + "\n" + code + "\nCan you check the refund case?"));
        chat.add(AiMessage.from(code + "\nEach rule now nets refunds against the month they belong to, so a refund"
                + " that arrives later no longer makes the earlier month look over its limit."));
        chat.add(UserMessage.from("Thanks"));
        chat.add(AiMessage.from("You're welcome"));

        List<Crystal> passages = turns("alice").stream().filter(turn -> turn.id().contains("#")).toList();
        List<Crystal> fenced = passages.stream().filter(turn -> turn.text().contains("def budget_rule_")).toList();
        assertThat(fenced).hasSizeGreaterThan(2).allMatch(Crystal::keywordsOnly);
        assertThat(passages).filteredOn(turn -> turn.text().startsWith("user: My budget tracker"))
                .as("what the user wrote around the code").isNotEmpty().noneMatch(Crystal::keywordsOnly);
        assertThat(passages).filteredOn(turn -> turn.text().contains("nets refunds"))
                .as("an answer that opens with code: its first passage of prose stands for it").singleElement()
                .extracting(Crystal::keywordsOnly).isEqualTo(false);
        assertThat(crystals.search(new CrystalQuery("alice", "budget_rule_7", 3)))
                .as("code is found by its names").isNotEmpty()
                .first().satisfies(hit -> assertThat(hit.crystal().text()).contains("budget_rule_7"));
    }

    @Test
    void should_embed_what_the_user_said_and_the_first_passage_of_a_long_answer_only() {
        WorkingMemoryProvider memories = provider(2);
        ChatMemory chat = memories.get("alice");
        StringBuilder question = new StringBuilder();
        StringBuilder plan = new StringBuilder("Here is the plan for the budget tracker.\n");
        for (int week = 1; week <= 8; week++) {
            question.append("In week ").append(week).append(" I can spend about ").append(week + 3)
                    .append(" hours on the budget tracker, mostly in the evenings after work. ");
            plan.append("Week ").append(week).append(": build feature ").append(week)
                    .append(" with its tests, review it with the team and deploy it to staging.\n");
        }
        chat.add(UserMessage.from(question.toString()));
        chat.add(AiMessage.from(plan.toString()));
        chat.add(AiMessage.from("Shall I start?"));
        chat.add(UserMessage.from("Thanks"));
        chat.add(AiMessage.from("You're welcome"));

        List<Crystal> turns = turns("alice").stream().filter(turn -> turn.id().contains("#"))
                .sorted(Comparator.comparingInt(turn -> Integer.parseInt(turn.id().substring(turn.id().indexOf('#') + 1))))
                .toList();
        List<Crystal> asked = turns.stream().filter(turn -> turn.text().startsWith("user: ")).toList();
        List<Crystal> answer = turns.stream().filter(turn -> turn.text().startsWith("assistant: Here is")
                || turn.text().startsWith("assistant: Week")).toList();
        assertThat(asked).hasSizeGreaterThan(1).noneMatch(Crystal::keywordsOnly);
        assertThat(answer).hasSizeGreaterThan(2);
        assertThat(answer.get(0).keywordsOnly()).as("the answer's first passage").isFalse();
        Crystal last = answer.get(answer.size() - 1);
        assertThat(last.text()).as("a short line packed into the answer's last passage").endsWith("Shall I start?");
        assertThat(last.keywordsOnly()).as("another line's words are embedded").isFalse();
        assertThat(answer.subList(1, answer.size() - 1)).allMatch(Crystal::keywordsOnly);
        assertThat(ids(crystals.search(new CrystalQuery("alice", "Week 5 feature 5", 3)))).contains(
                answer.stream().filter(turn -> turn.text().contains("Week 5:")).findFirst().orElseThrow().id());
    }

    @Test
    void should_tag_as_pieces_the_passages_of_a_long_message_and_nothing_that_holds_a_whole_line() {
        WorkingMemoryProvider memories = provider(2);
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("Where does the tracker keep its data? " + "It should survive a restart. ".repeat(30)));
        chat.add(AiMessage.from("In SQLite. " + "The file sits next to the jar and is backed up nightly. ".repeat(12)));
        chat.add(AiMessage.from("Shall I start?"));
        chat.add(UserMessage.from("Thanks"));
        chat.add(AiMessage.from("You're welcome"));
        chat.add(UserMessage.from("One more thing"));
        chat.add(AiMessage.from("Sure"));

        List<Crystal> turns = turns("alice");
        List<Crystal> pieces = turns.stream().filter(Crystal::piece).toList();
        assertThat(pieces).extracting(Crystal::text).allMatch(text -> text.startsWith("user: ")
                || text.startsWith("assistant: ")).noneMatch(text -> text.contains("Shall I start?"));
        assertThat(pieces.stream().filter(turn -> turn.text().startsWith("user: "))).hasSizeGreaterThan(1);
        assertThat(turns).filteredOn(turn -> turn.text().contains("Shall I start?"))
                .as("the answer's last piece, with a whole line packed after it").singleElement()
                .matches(turn -> !turn.piece());
        assertThat(turns).filteredOn(turn -> turn.text().contains("Thanks")).singleElement()
                .matches(turn -> !turn.piece());
    }

    @Test
    void should_put_every_thread_of_a_resource_into_its_scope_and_nothing_into_another() {
        WorkingMemoryProvider memories = provider(2);
        for (String thread : List.of("t1", "t2")) {
            ChatMemory chat = memories.get(dev.workingmemory.MemoryKey.of("alice", thread));
            chat.add(UserMessage.from("hello from " + thread));
            chat.add(AiMessage.from("hi"));
            chat.add(UserMessage.from("bye"));
        }

        assertThat(turns("alice")).extracting(Crystal::text).allMatch(text -> text.contains("hello from"))
                .hasSize(2);
        assertThat(turns("bob")).isEmpty();
    }

    @Test
    void should_keep_no_past_turns_when_switched_off() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).clock(clock)
                .crystalStore(crystals).pastTurns(false).build();
        ChatMemory chat = memories.get("alice");
        chat.add(UserMessage.from("hello"));
        chat.add(AiMessage.from("hi"));
        chat.add(UserMessage.from("bye"));

        assertThat(crystals.count("alice")).isZero();
        assertThat(memories.memory("alice").layer(PastTurns.class)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'  a  b\\t\\tc\\n\\r\\nd  '|10",
            "'line one\\nline two\\nline three'|12",
            "'exactly ten'|11",
            "'exactly ten'|10",
            "'x\u2003y \\013\\f z'|20",
            "'\\n\\n'|5",
            "'word   '|4",
            "'a b c d e f g h'|6",
            "' ab cd'|20",
            "'ab cd '|20",
            "'abcdef '|6",
            "'abcdefgh'|6",
            "'abcdef gh'|6"})
    void should_fold_white_space_and_cut_like_the_pattern_it_replaced(String escaped, int max) {
        String text = escaped.translateEscapes();
        String folded = text.strip().replaceAll("\\s+", " ");
        String expected = folded.length() <= max ? folded : folded.substring(0, max - 1) + "…";

        assertThat(PastTurns.oneLine(text, max)).isEqualTo(expected);
    }
}
