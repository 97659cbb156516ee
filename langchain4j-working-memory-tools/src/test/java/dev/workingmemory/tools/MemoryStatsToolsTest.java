package dev.workingmemory.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.scratchpad.ScratchpadConfig;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.workingmemory.tools.ToolTesting.assistant;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code working_memory_stats} through real {@code AiServices} with a scripted model. */
class MemoryStatsToolsTest {

    /** A layer the stats tool does not know, standing for the layers of later issues. */
    static final class RemindersLayer implements MemoryLayer {

        @Override
        public String name() {
            return "reminders";
        }

        @Override
        public LayerScope scope() {
            return LayerScope.THREAD;
        }

        @Override
        public int order() {
            return 90;
        }

        @Override
        public int priority() {
            return 10;
        }

        @Override
        public LayerBudget budget() {
            return LayerBudget.of(0, 300);
        }

        @Override
        public String render(int maxChars) {
            String element = "<reminders>Call the customer back</reminders>";
            return element.length() <= maxChars ? element : "";
        }

        @Override
        public JsonNode snapshot() {
            return JsonNodeFactory.instance.objectNode();
        }

        @Override
        public void restore(JsonNode snapshot) {
        }
    }

    @Test
    void should_report_each_layer_against_its_limits_and_the_block_against_its_budget() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .scratchpad(ScratchpadConfig.builder().jsonSchema(ToolTesting.GOAL_SCHEMA).build())
                .layer(context -> new RemindersLayer())
                .build();
        WorkingMemory memory = memories.memory("alice");
        memory.entityMemory().track(List.of(new Entity("page-123", "About Us", "page")));
        memory.coreMemory().replace("goal", "Ship v2");
        memory.scratchpad().update("{\"currentGoal\": \"Deploy\"}");
        memory.notes().note("Deadline is March 20th", 0.8, null);
        int blockChars = memory.render().length();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("working_memory_stats", "{}")
                .thenAnswer("Plenty of room.");

        String answer = assistant(model, memories).chat("alice", "how full is your memory?");

        assertThat(answer).isEqualTo("Plenty of room.");
        String stats = lastToolResult(model.lastRequest());
        int percent = Math.round(100f * blockChars / 6000);
        assertThat(stats).startsWith("Working memory block: " + blockChars + "/6000 chars (" + percent + "%), status: safe.\n");
        assertThat(stats.lines().toList()).hasSize(9);
        assertThat(stats).containsPattern("\n- core_memory: goal 7/1000 chars \\(1%\\), progress 0/2000 chars \\(0%\\),"
                + " context 0/1500 chars \\(0%\\); total 7/4500 chars \\(0%\\); \\d+ chars in the block \\(layer budget 600-4692 chars\\)\\.");
        assertThat(stats).containsPattern("\n- entities: 1/10 entities tracked \\(10%\\); \\d+ chars in the block"
                + " \\(layer budget 300-2000 chars\\)\\.");
        assertThat(stats).contains("\n- scratchpad: structured JSON, writable, 24/20000 chars (0%); ");
        assertThat(stats).contains("\n- reminders: 45 chars in the block (layer budget 0-300 chars).");
        assertThat(stats).containsPattern("\n- unsynthesized_notes: 1 notes pending a dream; soft limit 35 \\(archives the"
                + " oldest unprotected\\), hard limit 50 \\(deletes the oldest\\); utilization 3%, status: healthy;"
                + " \\d+ chars in the block \\(layer budget 300-2500 chars\\)\\.");
        assertThat(stats.indexOf("- core_memory")).isLessThan(stats.indexOf("- entities"));
        assertThat(stats.indexOf("- scratchpad")).isLessThan(stats.indexOf("- reminders"));
    }

    @Test
    void should_say_when_layers_are_empty() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();

        String stats = new MemoryStatsTools(memories).workingMemoryStats("bob");

        assertThat(stats).isEqualTo("""
                Working memory block: 0/6000 chars (0%), status: safe.
                - state: no state document yet (a dream writes it from the notes); not in the block (empty) \
                (layer budget 1500-6064 chars).
                - unsynthesized_notes: 0 notes pending a dream; soft limit 35 (archives the oldest unprotected), \
                hard limit 50 (deletes the oldest); utilization 0%, status: healthy; not in the block (empty) \
                (layer budget 300-2500 chars).
                - core_memory: goal 0/1000 chars (0%), progress 0/2000 chars (0%), context 0/1500 chars (0%); \
                total 0/4500 chars (0%); not in the block (empty) (layer budget 600-4692 chars).
                - entities: 0/10 entities tracked (0%); not in the block (empty) (layer budget 300-2000 chars).
                - session: error 0/3, decision 0/5, todo 0/3, dependency 0/3, pool 0/50 items; not in the block (empty) \
                (layer budget 300-1600 chars).
                - scratchpad: free text, writable, 0/20000 chars (0%); not in the block (empty) (layer budget 200-1500 chars).
                - pressure: context pressure: no request measured yet; not in the block (empty) (layer budget 0-600 chars).""");
    }

    @Test
    void should_report_the_state_document_after_a_dream() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build()) {
            memories.memory("dan").notes().note("User's name is Dan, prefers tabs over spaces", 0.8, null);
            String state = memories.dream("dan").committed() ? memories.dreamEngine().state("dan").orElseThrow() : "";

            String stats = new MemoryStatsTools(memories).workingMemoryStats("dan");

            assertThat(stats).containsPattern("\n- state: state document " + state.length()
                    + "/6000 chars, last dream 20\\d\\d-[^;]+Z; \\d+ chars in the block \\(layer budget 1500-6064 chars\\)\\.")
                    .doesNotContain("salience");
        }
    }

    @Test
    void should_warn_when_the_block_is_nearly_full_and_say_which_layer_was_cut() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().blockBudget(400).build();
        memories.memory("carol").coreMemory().replace("goal", "g".repeat(900));

        String stats = new MemoryStatsTools(memories).workingMemoryStats("carol");

        assertThat(stats).containsPattern("^Working memory block: (3[6-9]\\d|400)/400 chars \\((9\\d|100)%\\), status: high\\."
                + " The block is nearly full");
        assertThat(stats).containsPattern("- core_memory: goal 900/1000 chars \\(90%\\), .*; \\d+ chars in the block, cut to fit");
        memories.get("carol").messages(); // as before a model call: the block as sent says what was cut
        assertThat(new MemoryStatsTools(memories).workingMemoryStats("carol"))
                .containsPattern("- core_memory: .*; \\d+ chars in the block, cut to fit");
    }

    @Test
    void should_not_call_a_layer_cut_because_its_own_text_says_cut() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memory("dana").coreMemory().replace("goal", "Compare the prices [before the 10% cut]");
        memories.get("dana").messages();

        String stats = new MemoryStatsTools(memories).workingMemoryStats("dana");

        assertThat(stats).contains("- core_memory: ").doesNotContain("cut to fit");
    }
}
