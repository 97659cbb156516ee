package dev.workingmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.render.BlockText;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.testing.WordCountEstimator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkingMemoryProviderTest {

    /** A layer of our own: counts messages and renders, to test the layer mechanism. */
    static class CounterLayer implements MemoryLayer {
        static final AtomicInteger RENDERS = new AtomicInteger();
        private final LayerContext context;
        private final int order;
        private final int priority;
        private final LayerBudget budget;
        private String text = "";

        CounterLayer(LayerContext context, int order, int priority, LayerBudget budget) {
            this.context = context;
            this.order = order;
            this.priority = priority;
            this.budget = budget;
        }

        void set(String text) {
            context.write(() -> {
                this.text = text;
                context.changed();
                return null;
            });
        }

        @Override
        public void onMessage(ChatMessage message) {
            if (message instanceof UserMessage) {
                set(text + "u");
            }
        }

        @Override
        public String name() {
            return "counter" + order;
        }

        @Override
        public LayerScope scope() {
            return LayerScope.THREAD;
        }

        @Override
        public int order() {
            return order;
        }

        @Override
        public int priority() {
            return priority;
        }

        @Override
        public LayerBudget budget() {
            return budget;
        }

        @Override
        public String render(int maxChars) {
            RENDERS.incrementAndGet();
            String element = BlockText.element(name(), BlockText.escape(text));
            if (element.length() <= maxChars) {
                return element;
            }
            int tags = name().length() * 2 + 5;
            return maxChars <= tags ? "" : BlockText.element(name(), BlockText.fit(BlockText.escape(text), maxChars - tags));
        }

        @Override
        public JsonNode snapshot() {
            return JsonNodeFactory.instance.textNode(text);
        }

        @Override
        public void restore(JsonNode snapshot) {
            text = snapshot.asText();
        }
    }

    @Test
    void should_score_salience_by_default_and_not_without_it() {
        try (WorkingMemoryProvider with = WorkingMemoryProvider.builder().withoutCrystals().build();
             WorkingMemoryProvider without = WorkingMemoryProvider.builder().withoutCrystals().withoutSalience().build()) {
            assertThat(with.memory("a").layer(dev.workingmemory.dream.SalienceLayer.class)).isPresent();
            assertThat(without.memory("a").layer(dev.workingmemory.dream.SalienceLayer.class)).isEmpty();
        }
    }

    @Test
    void should_reject_contradictory_and_invalid_options() {
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().maxMessages(10).maxTokens(1000, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().maxMessages(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().contextWindow(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WorkingMemoryProvider.builder().store(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_reject_two_layers_with_one_name_when_creating_a_memory() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .layer(context -> new CounterLayer(context, 1, 1, LayerBudget.of(0, 100)))
                .layer(context -> new CounterLayer(context, 1, 1, LayerBudget.of(0, 100)))
                .build();

        assertThatThrownBy(() -> memories.memory("x")).isInstanceOf(IllegalStateException.class).hasMessageContaining("counter1");
    }

    @Test
    void should_size_the_block_from_the_context_window() {
        assertThat(WorkingMemoryProvider.builder().contextWindow(200_000).build().blockBudget()).isEqualTo(8_000);
        assertThat(WorkingMemoryProvider.builder().contextWindow(128_000).build().blockBudget()).isEqualTo(6_000);
        assertThat(WorkingMemoryProvider.builder().contextWindow(64_000).build().blockBudget()).isEqualTo(4_000);
        assertThat(WorkingMemoryProvider.builder().contextWindow(32_000).build().blockBudget()).isEqualTo(3_200);
        assertThat(WorkingMemoryProvider.builder().contextWindow(8_000).build().blockBudget()).isEqualTo(800);
        assertThat(WorkingMemoryProvider.builder().contextWindow(8_000).blockBudget(5_000).build().blockBudget()).isEqualTo(5_000);
    }

    @Test
    void should_let_a_new_layer_observe_messages_render_and_persist_without_touching_the_chat_memory() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store)
                .layer(context -> new CounterLayer(context, 35, 50, LayerBudget.of(0, 500)))
                .build();
        ChatMemory chat = memories.get("alice");

        chat.add(UserMessage.from("one"));
        chat.add(UserMessage.from("two"));

        assertThat(memories.memory("alice").render()).isEqualTo("<working_memory>\n<counter35>uu</counter35>\n</working_memory>");
        memories.close();
        WorkingMemoryProvider reopened = WorkingMemoryProvider.builder().store(store)
                .layer(context -> new CounterLayer(context, 35, 50, LayerBudget.of(0, 500)))
                .build();
        assertThat(reopened.memory("alice").layer(CounterLayer.class).orElseThrow().render(500)).isEqualTo("<counter35>uu</counter35>");
    }

    @Test
    void should_keep_the_stored_state_of_a_layer_that_a_later_configuration_lacks() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        WorkingMemoryProvider withCounter = WorkingMemoryProvider.builder().store(store)
                .layer(context -> new CounterLayer(context, 35, 50, LayerBudget.of(0, 500)))
                .build();
        withCounter.get("alice").add(UserMessage.from("one"));
        withCounter.close();

        WorkingMemoryProvider without = WorkingMemoryProvider.builder().store(store).build();
        without.memory("alice").coreMemory().replace("goal", "saved without the counter");
        without.close();

        WorkingMemoryProvider again = WorkingMemoryProvider.builder().store(store)
                .layer(context -> new CounterLayer(context, 35, 50, LayerBudget.of(0, 500)))
                .build();
        assertThat(again.memory("alice").render()).contains("<counter35>u</counter35>").contains("saved without the counter");
    }

    @Test
    void should_render_again_only_when_a_layer_changed() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .layer(context -> new CounterLayer(context, 35, 50, LayerBudget.of(0, 500)))
                .build();
        ChatMemory chat = memories.get("bob");
        chat.add(UserMessage.from("hi"));
        chat.messages();
        int renders = CounterLayer.RENDERS.get();

        for (int i = 0; i < 5; i++) {
            chat.messages();
            chat.add(ToolExecutionResultMessage.from("x" + i, "noop", "plain text"));
        }
        assertThat(CounterLayer.RENDERS.get()).isEqualTo(renders);

        chat.add(UserMessage.from("again"));
        chat.messages();
        assertThat(CounterLayer.RENDERS.get()).isGreaterThan(renders);
    }

    @Test
    void should_merge_the_block_into_the_single_system_message_and_replace_it_on_a_new_text() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("carol");
        assertThat(chat.messages()).isEmpty();

        chat.add(SystemMessage.from("Be brief."));
        chat.add(UserMessage.from("hi"));
        assertThat(chat.messages()).containsExactly(SystemMessage.from("Be brief."), UserMessage.from("hi"));

        memories.memory("carol").coreMemory().replace("goal", "Greet");
        chat.add(SystemMessage.from("Be brief."));
        List<ChatMessage> messages = chat.messages();
        assertThat(((SystemMessage) messages.get(0)).text())
                .isEqualTo("Be brief.\n\n<working_memory>\n<core_memory>\n<goal chars=\"5/1000\">Greet</goal>\n</core_memory>\n</working_memory>");

        chat.add(SystemMessage.from("Be verbose."));
        assertThat(((SystemMessage) chat.messages().get(0)).text()).startsWith("Be verbose.\n\n<working_memory>");
        assertThat(chat.messages()).filteredOn(SystemMessage.class::isInstance).hasSize(1);

        chat.clear();
        assertThat(chat.messages()).containsExactly(SystemMessage.from(memories.memory("carol").render()));
    }

    @Test
    void should_give_the_budget_by_priority_never_exceed_the_total_and_mark_cuts() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .withoutEntities().withoutCoreMemory().withoutScratchpad().withoutNotes()
                .withoutSessionSlots().withoutContextPressure().withoutCrystals()
                .blockBudget(500)
                .layer(context -> new CounterLayer(context, 1, 10, LayerBudget.of(50, 1000)))
                .layer(context -> new CounterLayer(context, 2, 90, LayerBudget.of(50, 1000)))
                .build();
        WorkingMemory memory = memories.memory("dave");
        memory.layers().stream().filter(CounterLayer.class::isInstance) // the state and salience layers render nothing here
                .forEach(layer -> ((CounterLayer) layer).set("x".repeat(300)));

        String block = memory.render();

        assertThat(block).hasSizeLessThanOrEqualTo(500);
        assertThat(block.indexOf("<counter1>")).isLessThan(block.indexOf("<counter2>"));
        String low = block.substring(block.indexOf("<counter1>"), block.indexOf("</counter1>"));
        String high = block.substring(block.indexOf("<counter2>"), block.indexOf("</counter2>"));
        assertThat(high).doesNotContain("chars cut");
        assertThat(low).contains("chars cut]").hasSizeGreaterThanOrEqualTo(50);
    }

    @Test
    void should_give_what_a_cut_layer_leaves_of_its_share_to_the_next_one_cut() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .withoutEntities().withoutCoreMemory().withoutScratchpad().withoutNotes()
                .withoutSessionSlots().withoutContextPressure().withoutCrystals()
                .blockBudget(500)
                .layer(context -> new CounterLayer(context, 1, 10, LayerBudget.of(50, 1000)))
                .layer(context -> new CounterLayer(context, 2, 90, LayerBudget.of(50, 1000)) {
                    @Override
                    public String render(int maxChars) { // whole, or a brief form far below its share
                        String whole = super.render(Integer.MAX_VALUE);
                        return whole.length() <= maxChars ? whole : "<counter2>brief</counter2>";
                    }
                })
                .build();
        WorkingMemory memory = memories.memory("dave");
        List<CounterLayer> counters = memory.layers().stream().filter(CounterLayer.class::isInstance)
                .map(CounterLayer.class::cast).toList();
        counters.get(0).set("x".repeat(300));
        counters.get(1).set("y".repeat(400));

        String block = memory.render();

        assertThat(block).contains("<counter2>brief</counter2>").hasSizeLessThanOrEqualTo(500);
        // the low-priority layer is given the share the brief form left: all of its 300 characters fit
        assertThat(block).contains("<counter1>" + "x".repeat(300) + "</counter1>");
    }

    @Test
    void should_bound_the_window_by_tokens_when_asked() {
        TokenCountEstimator wordsOfText = new WordCountEstimator();
        ChatMemory chat = WorkingMemoryProvider.builder().maxTokens(10, wordsOfText).build().get("erin");

        for (int i = 0; i < 6; i++) {
            chat.add(UserMessage.from("one two three " + i));
        }

        assertThat(chat.messages()).containsExactly(UserMessage.from("one two three 4"), UserMessage.from("one two three 5"));
    }

    @Test
    void should_map_memory_ids_to_keys() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .memoryKeyMapper(id -> MemoryKey.of("tenant", String.valueOf(id)))
                .build();

        assertThat(memories.keyOf(42)).isEqualTo(MemoryKey.of("tenant", "42"));
        assertThat(memories.keyOf(MemoryKey.of("a", "b"))).isEqualTo(MemoryKey.of("a", "b"));
        assertThat(WorkingMemoryProvider.builder().build().keyOf(7)).isEqualTo(MemoryKey.of("7", MemoryKey.DEFAULT_THREAD));
    }
}
