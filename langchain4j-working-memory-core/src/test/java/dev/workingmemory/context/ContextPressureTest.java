package dev.workingmemory.context;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.testing.ToolOutputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The context pressure layer and the tool-output cache, through the {@code ChatMemory} of a provider. */
class ContextPressureTest {

    @TempDir
    Path dir;

    private static String lines(int count, String prefix) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> prefix + " line " + i + " " + "abcdefghij".substring(i % 10))
                .collect(Collectors.joining("\n"));
    }

    private static ToolExecutionResultMessage toolTurn(ChatMemory chat, String id, String tool, String output) {
        chat.add(UserMessage.from("go " + id));
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id(id).name(tool).arguments("{}").build()));
        ToolExecutionResultMessage result = ToolExecutionResultMessage.from(id, tool, output);
        chat.add(result);
        return result;
    }

    private static ToolExecutionResultMessage sent(List<ChatMessage> messages, String id) {
        return messages.stream().filter(ToolExecutionResultMessage.class::isInstance).map(ToolExecutionResultMessage.class::cast)
                .filter(m -> m.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void should_send_a_pruned_copy_with_the_same_id_and_keep_the_full_result_stored() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memoryToolNames().register(ContextPressure.READ_TOOL_OUTPUT); // the tools module does this
        ChatMemory chat = memories.get("dev");
        String output = lines(400, "log");
        toolTurn(chat, "c1", "bash", output);

        ToolExecutionResultMessage pruned = sent(chat.messages(), "c1");

        assertThat(pruned.toolName()).isEqualTo("bash");
        assertThat(pruned.text().lines().count()).isLessThanOrEqualTo(63);
        assertThat(pruned.text()).containsPattern("cut 3\\d\\d lines").contains("read_tool_output(\"tool-output-");
        ContextPressure pressure = memories.memory("dev").layer(ContextPressure.class).orElseThrow();
        String entry = pruned.text().replaceAll("(?s).*read_tool_output\\(\"([^\"]+)\"\\).*", "$1");
        assertThat(pressure.toolOutput(entry)).contains(output);
        assertThat(pressure.toolOutput("tool-output-nothing")).isEmpty();
        // the same result keeps its entry: no second copy
        assertThat(sent(chat.messages(), "c1").text()).isEqualTo(pruned.text());
        memories.close();
    }

    @Test
    void should_send_a_large_result_that_holds_an_image_whole_with_its_image() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        chat.add(UserMessage.from("go"));
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id("c1").name("browse").arguments("{}").build()));
        ImageContent screen = ImageContent.from(Base64.getEncoder().encodeToString(new byte[2_000]), "image/png");
        String log = lines(400, "page");
        chat.add(ToolExecutionResultMessage.builder().id("c1").toolName("browse")
                .contents(TextContent.from(log), screen).build());
        toolTurn(chat, "c2", "bash", lines(400, "log")); // a text result as large: pruned, as the test above shows

        List<ChatMessage> sent = chat.messages();

        // what cannot be cut by lines is sent as it came: its text whole, its image with it
        assertThat(sent(sent, "c1").contents()).containsExactly(TextContent.from(log), screen);
        assertThat(sent(sent, "c2").text()).containsPattern("cut 3\\d\\d lines");
        assertThat(memories.memory("dev").contextPressure().history()).hasSize(1);
        memories.close();
    }

    @Test
    void should_keep_one_cache_entry_for_a_result_pruned_again_after_a_restart() throws Exception {
        dev.langchain4j.store.memory.chat.ChatMemoryStore messages = new dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore();
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .chatMemoryStore(messages).build();
        ChatMemory chat = first.get("dev");
        toolTurn(chat, "c1", "bash", lines(400, "build"));
        String before = sent(chat.messages(), "c1").text();
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .chatMemoryStore(messages).build();
        String after = sent(second.get("dev").messages(), "c1").text();
        second.close();

        assertThat(after).isEqualTo(before);
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("tool-output-"))).hasSize(1);
        }
    }

    @Test
    void should_cut_a_long_single_line_output_by_the_character_threshold() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memoryToolNames().register(ContextPressure.READ_TOOL_OUTPUT);
        ChatMemory chat = memories.get("dev");
        String minified = "{\"items\":[" + IntStream.range(0, 2_000).mapToObj(i -> "{\"id\":" + i + "}")
                .collect(Collectors.joining(",")) + "]}";
        toolTurn(chat, "c1", "http_get", minified);

        String text = sent(chat.messages(), "c1").text();

        assertThat(minified.length()).isGreaterThan(5_000);
        assertThat(text.length()).isLessThan(4_000 + 300); // the first and last 2,000 chars, a marker and the summary
        assertThat(text).contains("chars cut").contains("read_tool_output(");
        memories.close();
    }

    @Test
    void should_never_prune_the_results_of_the_memorys_own_tools() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memoryToolNames().register(ContextPressure.READ_TOOL_OUTPUT); // the tools module does this
        ChatMemory chat = memories.get("dev");
        String page = lines(400, "page");
        toolTurn(chat, "c1", ContextPressure.READ_TOOL_OUTPUT, page);
        String log = lines(400, "log");
        toolTurn(chat, "c2", "bash", log);

        assertThat(sent(chat.messages(), "c1").text()).isEqualTo(page);
        assertThat(sent(chat.messages(), "c2").text()).isNotEqualTo(log).contains("[Pruned tool output: 400 lines");
        memories.close();
    }

    @Test
    void should_send_a_small_output_whole_however_many_lines_it_has() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        String small = IntStream.range(0, 60).mapToObj(i -> String.format("item %04d", i)).collect(Collectors.joining("\n"));
        ToolExecutionResultMessage result = toolTurn(chat, "c1", "list_items", small);

        assertThat(small).hasSize(599);
        assertThat(sent(chat.messages(), "c1")).isSameAs(result);
        memories.close();
    }

    @ParameterizedTest
    @CsvSource({"128000, 1000, 500, 250", "1000000, 1000, 500, 250", "8000, 80, 40, 20", "1200, 12, 6, 3"})
    void should_call_an_output_large_from_a_share_of_the_context_window(int window, int normal, int aggressive, int hyper) {
        ContextPressureConfig config = ContextPressureConfig.defaults();

        assertThat(config.largeOutputTokens(PruningMode.NORMAL, window)).isEqualTo(normal);
        assertThat(config.largeOutputTokens(PruningMode.AGGRESSIVE, window)).isEqualTo(aggressive);
        assertThat(config.largeOutputTokens(PruningMode.HYPER, window)).isEqualTo(hyper);
        assertThat(ContextPressureConfig.builder().largeOutput(0, 0).build().largeOutputTokens(PruningMode.NORMAL, window))
                .isZero();
    }

    @ParameterizedTest
    @CsvSource({"-0.1, 10", "1.5, 10", "0.01, -1"})
    void should_reject_a_bad_large_output_setting(double share, int maxTokens) {
        assertThatThrownBy(() -> ContextPressureConfig.builder().largeOutput(share, maxTokens).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_keep_level_and_interventions_across_a_restart_and_start_safe_from_an_unreadable_snapshot() {
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .contextWindow(1_500).maxMessages(100).build();
        ChatMemory chat = first.get("dev");
        for (int i = 0; i < 8; i++) {
            toolTurn(chat, "c" + i, "bash", lines(45, "run " + i));
            chat.add(AiMessage.from("done " + i));
            chat.messages();
        }
        PressureStats before = first.memory("dev").layer(ContextPressure.class).orElseThrow().stats();
        first.close();
        assertThat(before.interventions()).isPositive();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir))
                .contextWindow(1_500).maxMessages(100).build();
        PressureStats after = second.memory("dev").layer(ContextPressure.class).orElseThrow().stats();
        assertThat(after.level()).isEqualTo(before.level());
        assertThat(after.percent()).isEqualTo(before.percent());
        assertThat(after.interventions()).isEqualTo(before.interventions());
        second.close();

        ContextPressure fresh = (ContextPressure) ContextPressure.factory(ContextPressureConfig.defaults(),
                new ToolOutputCache(new InMemoryWorkingMemoryStore(), ToolOutputCacheConfig.defaults(), Clock.systemUTC()),
                PressureListener.NONE).create(new dev.workingmemory.layer.TestLayerContext());
        fresh.restore(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("formatVersion", 99));
        assertThat(fresh.stats().level()).isEqualTo(PressureLevel.SAFE);
        assertThat(fresh.render(1_000)).isEmpty();
    }

    @Test
    void should_advise_only_tools_for_what_the_memory_holds() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(1_000).maxMessages(100).build();
        List.of(MemoryToolNames.CORE_MEMORY_UPDATE, MemoryToolNames.WORKING_MEMORY_CLEAR_SLOT,
                MemoryToolNames.WORKING_MEMORY_REMOVE).forEach(memories.memoryToolNames()::register);
        ChatMemory chat = memories.get("ann");
        for (int i = 0; chat.messages().stream().noneMatch(m -> pressureOf(m) != null) && i < 40; i++) {
            chat.add(UserMessage.from("Tell me more about the lake trip, day " + i + ": " + "we walked and talked ".repeat(8)));
            chat.add(AiMessage.from("That sounds lovely, a long walk around the lake on day " + i + "."));
        }
        String plain = pressure(chat);
        assertThat(plain).as("a chat's pressure").startsWith("<pressure level=");
        assertThat(plain).doesNotContain("To free space", "working_memory_", "core_memory_update");

        // the block rendered without measuring a request again: the element changes with the other layers alone
        WorkingMemory memory = memories.memory("ann");
        memory.coreMemory().append("context", "Plans a lake trip in May.");
        assertThat(pressureOf(memory.render())).contains("To free space: compress core memory blocks"
                + " (core_memory_update).").doesNotContain("working_memory_");

        memory.sessionSlots().add("error", "Trip.java:12: cannot find symbol");
        assertThat(pressureOf(memory.render())).contains("compress core memory blocks (core_memory_update); clear"
                + " resolved errors (working_memory_clear_slot) and stale session items (working_memory_remove).");

        memory.sessionSlots().clear();
        assertThat(pressureOf(memory.render())).contains("core_memory_update").doesNotContain("working_memory_");
        assertThat(pressure(chat)).contains("core_memory_update").doesNotContain("working_memory_");

        // the model listener saw a request of this memory without the memory's tools: none is advised any more
        offer(memories, chat.messages(), "get_weather");
        assertThat(pressure(chat)).startsWith("<pressure level=").doesNotContain("To free space", "core_memory_update");
        memories.close();
    }

    @Test
    void should_point_to_read_tool_output_only_when_the_model_has_it() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        toolTurn(chat, "c1", "bash", lines(400, "log"));

        // no bean of the tools module was made for this provider and no model listener saw a request: a model that
        // called read_tool_output would make AiServices abort the call
        assertThat(sent(chat.messages(), "c1").text()).contains("[Pruned tool output: 400 lines")
                .doesNotContain("read_tool_output");
        memories.memoryToolNames().register(ContextPressure.READ_TOOL_OUTPUT);
        assertThat(sent(chat.messages(), "c1").text()).contains("read_tool_output(\"tool-output-");

        // once the listener saw a request of this memory, the tools of its last request are what counts
        offer(memories, chat.messages(), "bash");
        assertThat(sent(chat.messages(), "c1").text()).contains("[Pruned tool output: 400 lines")
                .doesNotContain("read_tool_output");
        offer(memories, chat.messages(), "bash", ContextPressure.READ_TOOL_OUTPUT);
        assertThat(sent(chat.messages(), "c1").text()).contains("read_tool_output(\"tool-output-");
        memories.close();
    }

    /** What the provider's model listener hears when a model is sent {@code request} with {@code tools}. */
    private static void offer(WorkingMemoryProvider memories, List<ChatMessage> request, String... tools) {
        List<ToolSpecification> specifications = Stream.of(tools)
                .map(name -> ToolSpecification.builder().name(name).description("A tool").build()).toList();
        memories.chatModelListener().onRequest(new ChatModelRequestContext(ChatRequest.builder().messages(request)
                .toolSpecifications(specifications).build(), ModelProvider.OTHER, new HashMap<>()));
    }

    private static String pressure(ChatMemory chat) {
        return chat.messages().stream().map(ContextPressureTest::pressureOf).filter(java.util.Objects::nonNull)
                .findFirst().orElse("");
    }

    private static String pressureOf(ChatMessage message) {
        return message instanceof SystemMessage system ? pressureOf(system.text()) : null;
    }

    private static String pressureOf(String text) {
        Matcher element = Pattern.compile("<pressure .*?</pressure>").matcher(text);
        return element.find() ? element.group() : null;
    }

    /** A tool whose specification is large, as an agent's tools together are. */
    static final class Catalog {

        static final String FILTERS = "Filters by brand, size, colour, material, season and price range. ";
        static final String DESCRIPTION = "Searches the product catalog. " + FILTERS + FILTERS + FILTERS + FILTERS
                + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS
                + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS + FILTERS;

        @Tool(DESCRIPTION)
        String searchCatalog(String query) {
            return "no results";
        }
    }

    interface Shopper {
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    /** A shop assistant with one tool, {@link Catalog}, its model with the provider's listener when {@code listening}. */
    private static Shopper shopper(WorkingMemoryProvider memories, boolean listening) {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Sure."));
        if (listening) {
            model.listeners(memories.chatModelListener());
        }
        return AiServices.builder(Shopper.class).chatModel(model).chatMemoryProvider(memories).tools(new Catalog())
                .build();
    }

    @Test
    void should_count_the_tool_specifications_the_models_listener_saw() {
        int[] measured = new int[2];
        for (int listening = 0; listening < 2; listening++) {
            WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).build();
            Shopper shopper = shopper(memories, listening == 1);
            shopper.chat("ann", "Do you have running shoes?");
            shopper.chat("ann", "In size 42?");
            shopper.chat("ann", "And in blue?"); // measured after the listener saw a request of this memory
            List<PressureSample> history = memories.memory("ann").contextPressure().history();
            measured[listening] = history.get(history.size() - 1).tokens();
            memories.close();
        }
        // the tool's name, description and parameters' schema, estimated as the messages are (chars / 4)
        int description = CharsPerTokenEstimator.INSTANCE.estimateTokenCountInText(Catalog.DESCRIPTION);
        assertThat(measured[1] - measured[0]).isBetween(description, description + 40);
    }

    @Test
    void should_count_for_a_new_conversation_the_tools_the_listener_saw_in_others() {
        int[] firstOfBob = new int[2];
        for (int listening = 0; listening < 2; listening++) {
            WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).build();
            Shopper shopper = shopper(memories, listening == 1);
            shopper.chat("ann", "Do you have running shoes?");
            shopper.chat("ann", "In size 42?"); // the listener tells ann's request by its first message
            // bob's first request starts with his own message, which no memory sent: the listener cannot tell it
            shopper.chat("bob", "Do you have running shoes?");
            firstOfBob[listening] = memories.memory("bob").contextPressure().history().get(0).tokens();
            memories.close();
        }
        int description = CharsPerTokenEstimator.INSTANCE.estimateTokenCountInText(Catalog.DESCRIPTION);
        assertThat(firstOfBob[1] - firstOfBob[0]).isBetween(description, description + 40);
    }

    @Test
    void should_add_the_tools_a_request_went_out_with_when_they_were_not_known_at_its_measure() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).build();
        Shopper shopper = shopper(memories, true);

        shopper.chat("ann", "Do you have running shoes?"); // no request of any memory told yet
        shopper.chat("ann", "In size 42?"); // measured without the tools, then told as it went out

        ContextPressure pressure = memories.memory("ann").contextPressure();
        PressureSample measured = pressure.history().get(pressure.history().size() - 1);
        int description = CharsPerTokenEstimator.INSTANCE.estimateTokenCountInText(Catalog.DESCRIPTION);
        // what read_tool_output's pages may still take is counted from the request as it went out
        assertThat(pressure.stats().sentTokens() - measured.sentTokens()).isBetween(description, description + 40);
        memories.close();
    }

    interface Coder {
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    @Test
    void should_say_at_moderate_what_the_request_measured_before_its_outputs_were_cut_harder() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).maxMessages(100).build();
        ChatMemory chat = memories.get("dev");
        chat.add(UserMessage.from("Here is the plan. " + "We migrate the billing service step by step. ".repeat(110)));
        chat.add(AiMessage.from("Understood. " + "I will keep every step small and tested. ".repeat(110)));
        // distinct lines (no run of similar ones collapses): only head and tail decide what is sent
        toolTurn(chat, "c1", "bash", IntStream.rangeClosed(1, 110).mapToObj(i -> (char) ('a' + i % 26)
                + " compiled module " + i + " of the billing service").collect(Collectors.joining("\n")));
        chat.add(AiMessage.from("The build failed."));
        chat.add(UserMessage.from("Fix it.")); // the output is no longer the newest turn's, which is cut normally only

        chat.messages();

        PressureSample sample = memories.memory("dev").contextPressure().history().get(0);
        assertThat(sample.level()).isEqualTo(PressureLevel.MODERATE);
        Matcher element = Pattern.compile("<pressure level=\"moderate\" percent=\"(\\d+)\">Context \\1% full \\(of 4000"
                + " tokens\\), (\\d+)% before tool outputs were cut harder").matcher(memories.memory("dev").render());
        assertThat(element.find()).as(memories.memory("dev").render()).isTrue();
        assertThat(Integer.parseInt(element.group(1))).isLessThan(75);
        assertThat(Integer.parseInt(element.group(2))).isEqualTo(sample.percent()).isBetween(75, 89);
        // a block with little room keeps both percents: the level is of the higher one
        assertThat(memories.memory("dev").contextPressure().render(120)).isEqualTo("<pressure level=\"moderate\" percent=\""
                + element.group(1) + "\">Context " + element.group(1) + "% full, " + element.group(2)
                + "% before tool outputs were cut harder.</pressure>");
        memories.close();
    }

    @Test
    void should_show_the_percent_of_the_request_the_model_receives_also_after_an_intervention() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).maxMessages(200).build();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            List<ChatMessage> messages = request.messages();
            return messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage
                    ? AiMessage.from("All tests passed.")
                    : AiMessage.from(ScriptedChatModel.toolCall("bash", "{\"command\": \"mvn test\"}"));
        });
        AtomicInteger runs = new AtomicInteger();
        Coder coder = AiServices.builder(Coder.class).chatModel(model).chatMemoryProvider(memories)
                .tools(new Object() {
                    @Tool("Runs a shell command")
                    String bash(String command) {
                        return ToolOutputs.testReport(runs.incrementAndGet());
                    }
                }).build();

        for (int turn = 1; turn <= 14; turn++) {
            coder.chat("dev", "Run the tests again, round " + turn);
        }

        Pattern element = Pattern.compile("<pressure level=\"(\\w+)\" percent=\"(\\d+)\">([^<]*)</pressure>");
        Set<String> levels = new HashSet<>();
        int afterToolResults = 0;
        for (ChatRequest request : model.requests()) {
            Matcher shown = element.matcher(ScriptedChatModel.systemText(request));
            if (!shown.find()) {
                continue;
            }
            levels.add(shown.group(1));
            double real = 100.0 * CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(request.messages()) / 4000;
            List<ChatMessage> messages = request.messages();
            if (messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage) {
                // the request is the memory's messages as they are: the figure is exact
                assertThat(Integer.parseInt(shown.group(2))).as("shown vs %s%% sent", real).isCloseTo((int) Math.round(real), within(1));
                afterToolResults++;
            } else {
                // the user's new message was added after the memory measured, its size estimated from the one before
                assertThat(Integer.parseInt(shown.group(2))).as("shown vs %s%% sent", real).isCloseTo((int) Math.round(real), within(3));
            }
            if (shown.group(1).equals("high")) {
                Matcher before = Pattern.compile("after the memory intervened at (\\d+)%").matcher(shown.group(3));
                assertThat(before.find()).as(shown.group()).isTrue();
                assertThat(Integer.parseInt(before.group(1))).isGreaterThanOrEqualTo(90)
                        .isGreaterThan(Integer.parseInt(shown.group(2)));
            } else {
                // the level is of the request pruned normally: a lower percent sent says what it was before
                Matcher before = Pattern.compile(", (\\d+)% before tool outputs were cut harder").matcher(shown.group(3));
                if (Integer.parseInt(shown.group(2)) < 75) {
                    assertThat(before.find()).as(shown.group()).isTrue();
                    assertThat(Integer.parseInt(before.group(1))).isBetween(75, 89);
                }
            }
        }
        assertThat(levels).contains("moderate", "high");
        assertThat(afterToolResults).isGreaterThan(3);
        memories.close();
    }

    @Test
    void should_say_what_each_intervention_did_and_nothing_it_did_not() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).maxMessages(200).build();
        ChatMemory chat = memories.get("dev");
        ContextPressure pressure = memories.memory("dev").contextPressure();
        int told = 0;
        for (int turn = 1; turn <= 14; turn++) {
            toolTurn(chat, "c" + turn, "bash", ToolOutputs.testReport(turn));
            chat.add(AiMessage.from("Round " + turn + " checked."));
            ChatMessage first = chat.messages().get(0);
            String system = first instanceof SystemMessage message ? message.text() : "";
            PressureSample sample = pressure.history().get(pressure.history().size() - 1);
            if (!sample.intervened()) {
                continue;
            }
            String element = system.substring(system.indexOf("<pressure"), system.indexOf("</pressure>"));
            assertThat(element).startsWith("<pressure level=\"high\"");
            int shortened = sample.outputsShortened();
            int evicted = sample.turnsEvicted();
            if (shortened == 0) {
                assertThat(element).doesNotContain("replaced");
            } else {
                assertThat(element).contains("replaced " + shortened + " older tool output");
            }
            if (evicted == 0) {
                assertThat(element).doesNotContain("moved the oldest");
            } else {
                assertThat(element).contains("moved the oldest " + (evicted == 1 ? "turn" : evicted + " turns") + " out");
            }
            assertThat(element.contains("Nothing older was left")).isEqualTo(shortened == 0 && evicted == 0);
            told++;
        }
        assertThat(told).isPositive();
        // a block with little room keeps the percent the memory intervened at, which explains the level
        assertThat(pressure.render(120)).matches("<pressure level=\"high\" percent=\"\\d+\">Context \\d+% full after the"
                + " memory intervened at \\d+%\\.</pressure>");
        memories.close();
    }

    @Test
    void should_say_when_the_current_turn_alone_fills_the_context() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(2000).build();
        ChatMemory chat = memories.get("solo");
        chat.add(UserMessage.from("Please review this. " + "The quick brown fox jumps over the lazy dog. ".repeat(180)));

        String system = ((SystemMessage) chat.messages().get(0)).text();

        PressureSample sample = memories.memory("solo").contextPressure().history().get(0);
        assertThat(sample.intervened()).isTrue();
        assertThat(sample.outputsShortened() + sample.turnsEvicted()).isZero();
        assertThat(system).contains("<pressure level=\"high\"")
                .contains("Nothing older was left to shorten or move out: the current turn fills it (1 intervention).")
                .doesNotContain("replaced").doesNotContain("moved the oldest");
        memories.close();
    }

    @Test
    void should_tell_a_failing_listener_nothing_more_and_still_send_the_request() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(800)
                .pressureListener(event -> {
                    throw new IllegalStateException("listener down");
                }).build();
        ChatMemory chat = memories.get("dev");
        for (int i = 0; i < 5; i++) {
            toolTurn(chat, "c" + i, "bash", lines(30, "run " + i));
            chat.add(AiMessage.from("done " + i));
        }

        List<ChatMessage> messages = chat.messages();

        assertThat(messages.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(((SystemMessage) messages.get(0)).text()).contains("<pressure level=\"high\"");
        assertThat(memories.memory("dev").layer(ContextPressure.class).orElseThrow().stats().interventions()).isPositive();
        memories.close();
    }

    @Test
    void should_report_pruned_outputs_and_level_changes_to_the_providers_listeners() {
        List<dev.workingmemory.event.OutputPruned> pruned = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<dev.workingmemory.event.PressureChanged> levels = new java.util.concurrent.CopyOnWriteArrayList<>();
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(1_500).maxMessages(100)
                .listener(new dev.workingmemory.event.WorkingMemoryListener() {
                    @Override
                    public void onOutputPruned(dev.workingmemory.event.OutputPruned event) {
                        pruned.add(event);
                    }

                    @Override
                    public void onPressureChanged(dev.workingmemory.event.PressureChanged event) {
                        levels.add(event);
                    }
                }).build();
        ChatMemory chat = memories.get("dev");
        for (int i = 0; i < 8; i++) {
            toolTurn(chat, "c" + i, "bash", lines(45, "run " + i));
            chat.add(AiMessage.from("done " + i));
            chat.messages();
        }

        assertThat(levels).extracting(dev.workingmemory.event.PressureChanged::to).startsWith("moderate", "high");
        assertThat(levels.get(0).from()).isEqualTo("safe");
        assertThat(pruned).isNotEmpty().allSatisfy(event -> {
            assertThat(event.toolName()).isEqualTo("bash");
            assertThat(event.mode()).isIn("AGGRESSIVE", "HYPER");
            assertThat(event.charsAfter()).isLessThan(event.charsBefore());
        });
        memories.close();
    }

    @ParameterizedTest
    @CsvSource({"0.0, 0.9", "0.9, 0.75", "0.75, 0.75", "0.75, 1.1", "-0.1, 0.5"})
    void should_reject_thresholds_out_of_order(double moderate, double high) {
        assertThatThrownBy(() -> ContextPressureConfig.builder().thresholds(moderate, high).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 < moderate < high <= 1");
    }

    @Test
    void should_reject_bad_cache_settings() {
        assertThatThrownBy(() -> ToolOutputCacheConfig.builder().sweepEveryEvents(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ToolOutputCacheConfig.builder().maxAge(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ToolOutputCacheConfig.builder().crystalChunkChars(10).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_chunk_a_full_output_into_crystals_that_join_back_to_it() {
        ToolOutputCache cache = new ToolOutputCache(new InMemoryWorkingMemoryStore(), ToolOutputCacheConfig.defaults(),
                Clock.systemUTC());
        String text = lines(500, "chunked") + "\n" + "x".repeat(4_000);
        List<Crystal> chunks = cache.crystals(MemoryKey.of("alice", "t1"), "tool-output-20261123T091500Z-0123456789abcdef",
                "bash", text);

        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.text().length()).isLessThanOrEqualTo(1_500);
            assertThat(c.scope()).isEqualTo("alice");
            assertThat(c.tags()).as("the tool's name, and a piece of the output").containsExactly("bash", Crystal.PIECE);
        });
        assertThat(cache.crystals(MemoryKey.of("alice", "t1"), "tool-output-20261123T091500Z-0123456789abcdef", "bash",
                "exit 0")).singleElement().satisfies(c -> assertThat(c.tags()).containsExactly("bash"));
        assertThat(cache.crystals(MemoryKey.of("alice", "t1"), "tool-output-20261123T091500Z-0123456789abcdef", null,
                text)).allSatisfy(c -> assertThat(c.tags()).containsExactly(Crystal.PIECE));
        assertThat(chunks.stream().map(Crystal::text).collect(Collectors.joining())).isEqualTo(text);
        // named by the scope and the entry: the entry's name alone is the same for two users given one result
        assertThat(chunks.get(0).id()).matches("tool-output-[0-9a-f]{32}#0");
        assertThat(chunks).extracting(Crystal::source).containsOnly("tool-output-20261123T091500Z-0123456789abcdef");
        assertThat(cache.crystals(MemoryKey.of("#alice", "t1"), "tool-output-20261123T091500Z-0123456789abcdef",
                "bash", text)).allSatisfy(c -> assertThat(c.scope()).isEqualTo(MemoryKey.of("#alice").crystalScope()))
                .extracting(Crystal::id).doesNotContainAnyElementsOf(chunks.stream().map(Crystal::id).toList());
        cache.close();
    }

    @Test
    void should_write_nothing_for_a_memory_forgotten_before_its_write_ran() throws Exception {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        // the first write's crystals wait for the latch: the writer thread is busy until the key is forgotten
        ToolOutputCache cache = new ToolOutputCache(store, ToolOutputCacheConfig.builder().crystals(chunks -> {
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).build(), Clock.systemUTC());
        MemoryKey key = MemoryKey.of("dev");
        MemoryKey other = MemoryKey.of("other");
        cache.keep(other, "o1", "bash", "other output");
        String name = cache.keep(key, "c1", "bash", "full output");
        assertThat(cache.read(key, name)).contains("full output");

        cache.forget(key);
        hold.countDown();
        cache.close();

        assertThat(store.documents(key.threadStoreKey())).isEmpty();
        assertThat(cache.read(key, name)).isEmpty();
        assertThat(store.documents(other.threadStoreKey())).hasSize(1);
    }

    /**
     * A forget that comes while a written entry's crystals are being handed over returns after they were: the scope's
     * crystals deleted next include them (else a forgotten user's tool output stayed searchable).
     */
    @Test
    void should_wait_in_forget_for_the_crystals_of_an_entry_already_written() throws Exception {
        java.util.concurrent.CountDownLatch keeping = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<Crystal> kept = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ToolOutputCache cache = new ToolOutputCache(new InMemoryWorkingMemoryStore(), ToolOutputCacheConfig.builder()
                .crystals(chunks -> {
                    keeping.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    kept.addAll(chunks);
                }).build(), Clock.systemUTC());
        MemoryKey key = MemoryKey.of("dev");
        cache.keep(key, "c1", "bash", "full output");
        assertThat(keeping.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        Thread forget = new Thread(() -> cache.forget(key));
        forget.start();
        forget.join(300);
        assertThat(forget.isAlive()).as("forget waits for the crystals being kept").isTrue();
        release.countDown();
        forget.join(10_000);
        assertThat(forget.isAlive()).isFalse();
        assertThat(kept).isNotEmpty();
        cache.close();
    }

    @Test
    void should_report_what_a_sweep_could_not_delete() {
        InMemoryWorkingMemoryStore delegate = new InMemoryWorkingMemoryStore();
        WorkingMemoryStore store = (WorkingMemoryStore) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {WorkingMemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("deleteDocument")) {
                        throw new WorkingMemoryStoreException("disk gone");
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ToolOutputCache cache = new ToolOutputCache(store, ToolOutputCacheConfig.builder().keepNewest(0).build(),
                Clock.systemUTC());
        MemoryKey key = MemoryKey.of("dev");
        store.putDocument(key.threadStoreKey(), "tool-output-20261123T091500Z-0123456789abcdef", "old output");
        store.putDocument(key.threadStoreKey(), "notes.md", "not an entry");

        SweepResult result = cache.sweep(key.threadStoreKey());

        assertThat(result.scanned()).isEqualTo(1);
        assertThat(result.deleted()).isZero();
        assertThat(result.errors()).singleElement().asString().contains("disk gone");
        cache.close();
    }
}
