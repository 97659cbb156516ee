package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.context.PressureEvent;
import dev.workingmemory.context.ToolOutputCacheConfig;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.Await;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.testing.ToolOutputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coding-agent tier (issue 11) end to end through {@code AiServices} with a scripted model and a scripted shell
 * tool: pruning with the full output cached and read back, errors in the session slots, context pressure with its
 * intervention, and storage governance (sweep and delete leave no files behind).
 */
class CodingTierTest {

    private static final Pattern ENTRY = Pattern.compile("read_tool_output\\(\"(tool-output-[0-9TZ]+-[0-9a-f]+)\"\\)");
    private static final Pattern LEVEL = Pattern.compile("<pressure level=\"(\\w+)\" percent=\"(\\d+)\">");

    @TempDir
    Path dir;

    /** A shell whose results are the scripted outputs, in order; empty once they run out. */
    public static final class Shell {
        private final Deque<String> outputs;

        Shell(List<String> outputs) {
            this.outputs = new ArrayDeque<>(outputs);
        }

        @Tool(name = "bash", value = "Runs a shell command")
        public synchronized String bash(@P(name = "command", value = "the command") String command) {
            return outputs.isEmpty() ? "ok" : outputs.poll();
        }
    }

    private static ToolTesting.Assistant assistant(ScriptedChatModel model, WorkingMemoryProvider memories, Shell shell) {
        List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
        tools.add(shell);
        return AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(memories)
                .tools(tools)
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .build();
    }

    /** 400 lines of a Maven build, one ERROR line in the middle, a unique token on line 137. */
    static String buildLog() {
        List<String> lines = new ArrayList<>();
        lines.add("[INFO] Scanning for projects...");
        for (int i = 2; i <= 399; i++) {
            if (i == 200) {
                lines.add("[ERROR] /src/main/java/com/acme/Invoice.java:[57,41] ';' expected");
            } else if (i == 137) {
                lines.add("[INFO] Verified artifact org.acme:ledger checksum zebra-quartz-1137");
            } else {
                lines.add("[INFO] step " + i + ": processed module-" + (i % 17) + " resource " + Integer.toHexString(i * 7919)
                        + (i % 3 == 0 ? " (copied)" : i % 3 == 1 ? " (filtered, unchanged)" : " -> target/classes/r" + i));
            }
        }
        lines.add("[INFO] BUILD FAILURE in 12.4 s");
        return String.join("\n", lines);
    }

    // ---- Done when 1 ------------------------------------------------------------------------------------------

    @Test
    void should_send_a_400_line_log_pruned_with_its_error_line_and_read_the_cut_lines_back() throws IOException {
        List<Crystal> crystals = Collections.synchronizedList(new ArrayList<>());
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir))
                .toolOutputCache(ToolOutputCacheConfig.builder().crystals(crystals::addAll).build())
                .build();
        String log = buildLog();
        ToolExecutionRequest build = ScriptedChatModel.toolCall("bash", "{\"command\": \"mvn -q verify\"}");
        List<String> entry = new ArrayList<>();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTools(build)
                .then(request -> {
                    Matcher m = ENTRY.matcher(lastToolResult(request));
                    assertThat(m.find()).as("the pruned output names its cache entry").isTrue();
                    entry.add(m.group(1));
                    return AiMessage.from(ScriptedChatModel.toolCall(ToolOutputTools.READ_TOOL_OUTPUT,
                            "{\"id\": \"" + m.group(1) + "\", \"fromLine\": 130, \"lines\": 20}"));
                })
                .thenAnswer("The build fails at Invoice.java:57.");

        String answer = assistant(model, memories, new Shell(List.of(log))).chat("dev", "Build the project");

        assertThat(answer).isEqualTo("The build fails at Invoice.java:57.");
        ChatRequest afterBuild = model.requests().get(1);
        ToolExecutionResultMessage sent = lastResult(afterBuild);
        assertThat(sent.id()).isEqualTo(build.id());
        assertThat(sent.toolName()).isEqualTo("bash");
        List<String> lines = sent.text().lines().toList();
        assertThat(lines.size()).isLessThanOrEqualTo(65);
        assertThat(lines.get(0)).isEqualTo("[INFO] Scanning for projects...");
        assertThat(sent.text()).contains("[ERROR] /src/main/java/com/acme/Invoice.java:[57,41] ';' expected")
                .contains("[INFO] BUILD FAILURE in 12.4 s")
                .doesNotContain("zebra-quartz-1137")
                .containsPattern("cut \\d+ lines")
                .contains("The full output is kept: read_tool_output(\"tool-output-");
        // the cut line comes back through the tool, from the cache
        String page = lastToolResult(model.lastRequest());
        assertThat(page).startsWith("Lines 130-149 of 400 of " + entry.get(0) + ":\n")
                .contains("[INFO] Verified artifact org.acme:ledger checksum zebra-quartz-1137")
                .contains("[251 more lines: call read_tool_output with fromLine 150.]");

        memories.close(); // waits for the cache writer
        assertThat(filesNamed(entry.get(0))).hasSize(1);
        assertThat(Files.readString(filesNamed(entry.get(0)).get(0))).isEqualTo(log);
        assertThat(crystals).isNotEmpty().allSatisfy(c -> {
            assertThat(c.kind()).isEqualTo(CrystalKind.TOOL_OUTPUT);
            assertThat(c.scope()).isEqualTo("dev");
            assertThat(c.source()).isEqualTo(entry.get(0));
            assertThat(c.text().length()).isLessThanOrEqualTo(1_500);
        });
        assertThat(crystals.stream().map(Crystal::text).collect(Collectors.joining())).isEqualTo(log);
        assertThat(crystals).filteredOn(c -> c.text().contains("zebra-quartz-1137")).hasSize(1);
    }

    @Test
    void should_size_pages_to_the_room_left_so_that_reading_back_never_overflows_a_small_window() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(8000).build();
        String log = buildLog().lines().map(line -> line + " " + "detail ".repeat(6)).collect(Collectors.joining("\n"))
                + "\n";
        Pattern more = Pattern.compile("call read_tool_output with fromLine (\\d+)");
        List<String> entry = new ArrayList<>();
        List<String> pages = new ArrayList<>();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            List<ChatMessage> messages = request.messages();
            if (!(messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage)) {
                return AiMessage.from(ScriptedChatModel.toolCall("bash", "{\"command\": \"mvn verify\"}"));
            }
            String last = lastToolResult(request);
            String from = "1";
            if (entry.isEmpty()) {
                Matcher pruned = ENTRY.matcher(last);
                assertThat(pruned.find()).as("the log is pruned").isTrue();
                entry.add(pruned.group(1));
            } else {
                Matcher next = more.matcher(last);
                if (!last.startsWith("Lines ") || !next.find()) {
                    return AiMessage.from("Done reading.");
                }
                pages.add(last);
                from = next.group(1);
            }
            return AiMessage.from(ScriptedChatModel.toolCall(ToolOutputTools.READ_TOOL_OUTPUT,
                    "{\"id\": \"" + entry.get(0) + "\", \"fromLine\": " + from + ", \"lines\": 200}"));
        });

        assistant(model, memories, new Shell(List.of(log))).chat("dev", "Build the project and read the whole log");

        // the pruned output and the pages number the lines alike: no empty line after the last line break
        assertThat(pages).hasSizeGreaterThan(1)
                .allSatisfy(page -> assertThat(page).containsPattern("^Lines \\d+-\\d+ of 400 of "));
        for (ChatRequest request : model.requests()) {
            assertThat(CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(request.messages()))
                    .as("a request's tokens").isLessThanOrEqualTo(8000);
        }
        assertThat(lastToolResult(model.lastRequest())).startsWith("Error: The context is nearly full: ")
                .contains("no page of the output fits");
        memories.close();
    }

    @Test
    void should_share_the_room_among_pages_read_in_parallel_and_read_again_on_the_next_turn() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4000).build();
        String log = buildLog().lines().map(line -> line + " " + "detail ".repeat(6)).collect(Collectors.joining("\n"));
        List<String> entry = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            List<ChatMessage> messages = request.messages();
            ChatMessage last = messages.get(messages.size() - 1);
            if (last instanceof UserMessage user && user.singleText().startsWith("Build")) {
                return AiMessage.from(ScriptedChatModel.toolCall("bash", "{\"command\": \"mvn verify\"}"));
            }
            if (last instanceof ToolExecutionResultMessage result && result.toolName().equals("bash")) {
                Matcher pruned = ENTRY.matcher(result.text());
                assertThat(pruned.find()).as("the log is pruned").isTrue();
                entry.add(pruned.group(1));
                return AiMessage.from(List.of(read(entry.get(0), 1), read(entry.get(0), 101), read(entry.get(0), 201),
                        read(entry.get(0), 301)));
            }
            if (last instanceof UserMessage) { // the next turn: read on
                return AiMessage.from(List.of(read(entry.get(0), 351)));
            }
            answers.add(lastToolResult(request));
            return AiMessage.from("Read.");
        });
        ToolTesting.Assistant assistant = assistant(model, memories, new Shell(List.of(log)));

        assistant.chat("dev", "Build the project and read the log");
        assistant.chat("dev", "Read the rest");

        for (ChatRequest request : model.requests()) {
            assertThat(CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(request.messages()))
                    .as("a request's tokens").isLessThanOrEqualTo(4000);
        }
        // the four pages of one answer (each alone a quarter of the window) shared the room; the next turn's page came,
        // the older pages being evictable
        List<String> pages = model.requests().get(2).messages().stream().filter(ToolExecutionResultMessage.class::isInstance)
                .map(message -> ((ToolExecutionResultMessage) message).text())
                .filter(text -> text.startsWith("Lines ")).toList();
        assertThat(pages).isNotEmpty();
        assertThat(answers.get(answers.size() - 1)).startsWith("Lines 351-");
        memories.close();
    }

    private static ToolExecutionRequest read(String id, int fromLine) {
        return ScriptedChatModel.toolCall(ToolOutputTools.READ_TOOL_OUTPUT,
                "{\"id\": \"" + id + "\", \"fromLine\": " + fromLine + ", \"lines\": 100}");
    }

    @Test
    void should_find_a_cut_line_of_a_pruned_output_with_memory_search_in_the_provider_crystals() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"mvn -q verify\"}")
                .then(request -> {
                    // the cache's writer thread adds the full output's crystals just after the result was pruned:
                    // a real model call takes longer than that
                    Await.until("the output's crystals", Duration.ofSeconds(10),
                            () -> memories.crystalStore().orElseThrow().count("dev") > 0);
                    return AiMessage.from(ScriptedChatModel.toolCall(WorkingMemoryTools.MEMORY_SEARCH,
                            "{\"query\": \"zebra-quartz-1137 checksum\"}"));
                })
                .thenAnswer("Found it.");

        assistant(model, memories, new Shell(List.of(buildLog()))).chat("dev", "Build, then find the checksum line");

        assertThat(lastToolResult(model.requests().get(1))).doesNotContain("zebra-quartz-1137"); // cut for the model
        assertThat(lastToolResult(model.lastRequest()))
                .contains("(tool_output, id tool-output-")
                .contains("[INFO] Verified artifact org.acme:ledger checksum zebra-quartz-1137");
        memories.close();
    }

    @Test
    void should_answer_read_tool_output_with_errors_for_unknown_ids_and_bad_pages() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ToolOutputTools tools = new ToolOutputTools(memories);

        assertThat(tools.readToolOutput("dev", "tool-output-20261123T091500Z-0000000000000000", null, null, null))
                .startsWith("Error: No cached tool output has the id");
        assertThat(tools.readToolOutput("dev", "x", 0, null, null)).startsWith("Error: fromLine must be 1 or more");
        assertThat(tools.readToolOutput("dev", "x", 1, 500, null)).startsWith("Error: lines must be from 1 to 200");
        assertThat(tools.readToolOutput("dev", " ", null, null, null)).startsWith("Error: The parameter 'id' is empty.");
        assertThat(new ToolOutputTools(WorkingMemoryProvider.builder().withoutContextPressure().build())
                .readToolOutput("dev", "tool-output-x", null, null, null)).startsWith("Error: This working memory keeps no tool outputs");
        memories.close();
    }

    /**
     * The reads of one model answer share the room left in the next request; a call answered with an error (a line
     * past the end) claimed a page of it all the same, so a few such calls (a model's, or a prompt-injected one's)
     * left no room for the read that would have worked.
     */
    @Test
    void should_leave_the_room_of_an_answer_to_its_reads_after_calls_answered_with_errors() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4_000).build();
        String listing = IntStream.range(0, 400).mapToObj(i -> "order ORD-" + (10_000 + i) + " shipped on day " + i)
                .collect(Collectors.joining("\n"));
        ToolOutputTools tools = new ToolOutputTools(memories);
        String many = cachedOutputId(memories, "c1", listing);

        for (int call = 0; call < 5; call++) {
            assertThat(tools.readToolOutput("dev", many, Integer.MAX_VALUE, null, null))
                    .startsWith("Error: The output has 400 lines; fromLine 2147483647 is past its end.");
            assertThat(tools.readToolOutput("dev", many, 1, null, 5_000)).startsWith("Error: Line 1 has");
        }

        assertThat(tools.readToolOutput("dev", many, 1, 20, null)).startsWith("Lines 1-20 of 400 of " + many + ":\n");
        memories.close();
    }

    @Test
    void should_read_back_a_one_line_output_in_slices_of_a_page_and_many_lines_a_page_at_a_time() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4_000).build();
        String json = IntStream.range(0, 250).mapToObj(i -> "{\"order_id\":\"ORD-" + (10_000 + i)
                + "\",\"name\":\"Order of coffee beans\",\"total\":" + (12 + i) + ".50}")
                .collect(Collectors.joining(",", "[", "]"));
        String listing = IntStream.range(0, 400).mapToObj(i -> "order ORD-" + (10_000 + i) + " shipped on day " + i)
                .collect(Collectors.joining("\n"));
        ToolOutputTools tools = new ToolOutputTools(memories);
        String one = cachedOutputId(memories, "c1", json);
        String many = cachedOutputId(memories, "c2", listing);
        int page = ToolOutputTools.pageChars(4_000);

        // each read as the answer to its own model call: the pages of one answer share the room left (below)
        String first = tools.readToolOutput("dev", one, null, null, null);
        memories.get("dev").messages();
        int lastSlice = json.length() / page * page;
        String last = tools.readToolOutput("dev", one, 1, null, lastSlice + 1);
        memories.get("dev").messages();
        String lines = tools.readToolOutput("dev", many, 10, 200, null);

        assertThat(page).isEqualTo(4_000);
        assertThat(first).startsWith("Line 1 of 1 of " + one + ", characters 1-4000 of " + json.length() + ":\n"
                + json.substring(0, 4_000) + "\n").endsWith("[Line 1 goes on: call read_tool_output with fromLine 1 and"
                + " fromChar 4001.]");
        assertThat(last).isEqualTo("Lines 1 (from character " + (lastSlice + 1) + ")-1 of 1 of " + one + ":\n"
                + json.substring(lastSlice));
        assertThat(lines).startsWith("Lines 10-").contains("order ORD-10009 shipped on day 9\n")
                .containsPattern("\\[\\d+ more lines: call read_tool_output with fromLine \\d+; a page holds at most 4000"
                        + " characters\\.]$");
        assertThat(lines.length()).isLessThan(page + 300);
        assertThat(tools.readToolOutput("dev", one, 1, null, json.length() + 1))
                .startsWith("Error: Line 1 has " + json.length() + " characters; fromChar " + (json.length() + 1));
        assertThat(tools.readToolOutput("dev", one, 1, null, 0)).startsWith("Error: fromChar must be 1 or more");
        memories.close();
    }

    @Test
    void should_page_a_pruned_output_holding_unpaired_surrogates_the_same_after_a_file_store_restart() {
        String log = buildLog().replace(" processed ", " processed \uD800").replace("(copied)", "(copied \uDC00\u0000)");
        String before;
        String id;
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(4_000)
                .store(new FileWorkingMemoryStore(dir)).build()) {
            ToolOutputTools tools = new ToolOutputTools(memories); // the pruned output names read_tool_output
            id = cachedOutputId(memories, "c1", log);
            before = tools.readToolOutput("dev", id, 130, 20, null);
        }

        try (WorkingMemoryProvider reopened = WorkingMemoryProvider.builder().contextWindow(4_000)
                .store(new FileWorkingMemoryStore(dir)).build()) {
            String after = new ToolOutputTools(reopened).readToolOutput("dev", id, 130, 20, null);

            assertThat(before).startsWith("Lines 130-149 of 400 of " + id + ":\n[INFO] step 130: processed \uFFFDmodule-")
                    .contains("(copied \uFFFD)");
            assertThat(after).isEqualTo(before);
        }
    }

    /** Adds a tool turn whose result the memory prunes and caches, and returns the id the pruned text names. */
    private static String cachedOutputId(WorkingMemoryProvider memories, String callId, String output) {
        dev.langchain4j.memory.ChatMemory chat = memories.get("dev");
        chat.add(dev.langchain4j.data.message.UserMessage.from("Show the orders"));
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id(callId).name("listOrders").arguments("{}").build()));
        chat.add(ToolExecutionResultMessage.from(callId, "listOrders", output));
        chat.add(AiMessage.from("Here they are."));
        for (ChatMessage message : chat.messages()) {
            if (message instanceof ToolExecutionResultMessage result && callId.equals(result.id())) {
                Matcher m = ENTRY.matcher(result.text());
                assertThat(m.find()).as("the output was pruned and cached").isTrue();
                return m.group(1);
            }
        }
        throw new AssertionError("no result " + callId + " in the request");
    }

    // ---- Done when 2 ------------------------------------------------------------------------------------------

    @Test
    void should_show_a_javac_error_and_a_stack_trace_under_errors_clear_them_and_drop_the_oldest_of_four() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build(); // session slots are on by default
        String javac = "src/main/java/com/acme/Invoice.java:57: error: ';' expected\n"
                + "        total = total.add(line.amount())\n                                        ^\n1 error";
        String trace = "Exception in thread \"main\" java.lang.IllegalStateException: no invoice\n"
                + "\tat com.acme.Billing.close(Billing.java:31)\n\tat com.acme.App.main(App.java:9)";
        Shell shell = new Shell(List.of(javac, trace, "src/A.java:1: error: broken one\n1 error",
                "src/B.java:2: error: broken two\n1 error", "src/C.java:3: error: broken three\n1 error",
                "src/D.java:4: error: broken four\n1 error"));
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"javac Invoice.java\"}")
                .thenCallTool("bash", "{\"command\": \"java App\"}")
                .thenAnswer("two errors");
        ToolTesting.Assistant assistant = assistant(model, memories, shell);
        assistant.chat("dev", "build and run");

        String block = memories.memory("dev").render();
        assertThat(block).contains("errors (2/3):\n- IllegalStateException: no invoice at Billing.close(Billing.java:31)\n"
                + "- Invoice.java:57: ';' expected");
        assertThat(new MemoryStatsTools(memories).workingMemoryStats("dev")).contains("\n- session: error 2/3, decision 0/5,");

        model.thenCallTool(SlotTools.WORKING_MEMORY_CLEAR_SLOT, "{\"slot\": \"error\"}").thenAnswer("cleared");
        assistant.chat("dev", "both are fixed");
        SessionSlots session = memories.memory("dev").sessionSlots();
        assertThat(session.items("error")).isEmpty();

        for (String file : List.of("A", "B", "C", "D")) {
            model.thenCallTool("bash", "{\"command\": \"javac " + file + ".java\"}");
        }
        model.thenAnswer("four errors");
        assistant.chat("dev", "compile the rest");
        assertThat(session.items("error")).containsExactly("D.java:4: broken four", "C.java:3: broken three",
                "B.java:2: broken two");
        memories.close();
    }

    @Test
    void should_keep_the_builds_errors_when_the_model_calls_a_tool_it_lacks_or_sends_unreadable_arguments() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Shell shell = new Shell(List.of("src/main/java/App.java:42: error: cannot find symbol\n"
                + "  symbol:   variable userRepo\n1 error"));
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"javac App.java\"}")
                .thenCallTool("search_web", "{\"query\": \"cannot find symbol userRepo\"}")
                .thenCallTool("open_file", "{\"path\": \"App.java\"}")
                .thenCallTool("bash", "this is not json")
                .thenAnswer("App.java does not compile");
        List<Object> tools = new ArrayList<>(WorkingMemoryTools.all(memories));
        tools.add(shell);
        ToolTesting.Assistant assistant = AiServices.builder(ToolTesting.Assistant.class)
                .chatModel(model).chatMemoryProvider(memories).tools(tools)
                .toolArgumentsErrorHandler(WorkingMemoryTools.argumentsErrorHandler())
                .toolExecutionErrorHandler(WorkingMemoryTools.executionErrorHandler())
                .hallucinatedToolNameStrategy(WorkingMemoryTools.hallucinatedToolNameStrategy())
                .build();

        assistant.chat("dev", "build it");

        // the handlers' answers reached the model, and the session kept the compiler's error alone
        List<String> answers = model.requests().get(model.requests().size() - 1).messages().stream()
                .filter(ToolExecutionResultMessage.class::isInstance)
                .map(message -> ((ToolExecutionResultMessage) message).text()).toList();
        assertThat(answers).anyMatch(text -> text.startsWith("Error: There is no tool 'search_web' here."))
                .anyMatch(text -> text.startsWith("Error: The arguments of tool 'bash' could not be read"));
        assertThat(memories.memory("dev").sessionSlots().items("error"))
                .containsExactly("App.java:42: cannot find symbol (symbol: variable userRepo)");
        assertThat(memories.memory("dev").render()).doesNotContain("There is no tool", "this is not json");
        memories.close();
    }

    /**
     * {@code AiServices} builds a turn's first request from {@code messages()} before it adds the user's message to the
     * memory, so the user's "done" shows from the request after: here the one that carries the build's result.
     */
    @Test
    void should_drop_a_todo_from_the_next_requests_session_once_the_user_says_it_is_done() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Shell shell = new Shell(List.of("src/main/java/com/acme/ExportController.java:12: error: cannot find symbol\n"
                + "  symbol:   class PageRequest\n1 error"));
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"mvn -q compile\"}")
                .thenAnswer("ExportController does not compile.")
                .thenAnswer("Understood, pagination is for later.")
                .thenCallTool("bash", "{\"command\": \"mvn -q verify\"}")
                .thenAnswer("The build passes.");
        ToolTesting.Assistant assistant = assistant(model, memories, shell);
        assistant.chat("dev", "Build the project.");
        assistant.chat("dev", "We still need to add pagination to the export endpoint, but not today.");
        int before = model.requests().size();

        assistant.chat("dev", "Done with the pagination. Build it again.");

        assertThat(systemText(model.requests().get(before)))
                .contains("todos (1/3):\n- add pagination to the export endpoint, but not today\n");
        assertThat(systemText(model.requests().get(before + 1))).contains("<session>").doesNotContain("todos", "pagination");
        assertThat(memories.memory("dev").sessionSlots().items("todo")).isEmpty();
        memories.close();
    }

    @Test
    void should_show_one_pool_item_for_report_py_named_bare_by_the_user_and_by_its_path_in_git_status() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        Shell shell = new Shell(List.of("""
                On branch feature/report
                Changes not staged for commit:
                  (use "git add <file>..." to update what will be committed)
                	modified:   scripts/report.py

                no changes added to commit (use "git add" and/or "git commit -a")"""));
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("bash", "{\"command\": \"git status\"}")
                .thenAnswer("report.py is modified.")
                .thenAnswer("It totals the CSV by month.");
        ToolTesting.Assistant assistant = assistant(model, memories, shell);

        assistant.chat("dev", "Is report.py changed? Check git status.");
        assistant.chat("dev", "What does report.py do?");

        String session = systemText(model.lastRequest());
        assertThat(session).contains("pool (1):\n- scripts/report.py\n");
        assertThat(memories.memory("dev").sessionSlots().pool()).singleElement().satisfies(item -> {
            assertThat(item.content()).isEqualTo("scripts/report.py");
            assertThat(item.mentions()).isPositive();
        });
        memories.close();
    }

    // ---- Done when 4 ------------------------------------------------------------------------------------------

    @Test
    void should_go_moderate_then_high_and_intervene_so_that_no_request_exceeds_the_window() {
        List<PressureEvent> events = Collections.synchronizedList(new ArrayList<>());
        WorkingMemoryProvider memories = pressured(events);
        List<String> outputs = IntStream.rangeClosed(1, 12).mapToObj(ToolOutputs::testReport).toList();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            List<ChatMessage> messages = request.messages();
            return messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage
                    ? AiMessage.from("All tests passed.")
                    : AiMessage.from(ScriptedChatModel.toolCall("bash", "{\"command\": \"mvn test\"}"));
        });
        ToolTesting.Assistant assistant = assistant(model, memories, new Shell(outputs));

        for (int turn = 1; turn <= 12; turn++) {
            assistant.chat("dev", "Run the tests again, round " + turn);
        }

        List<String> levels = new ArrayList<>();
        List<Integer> tokens = new ArrayList<>();
        for (ChatRequest request : model.requests()) {
            Matcher m = LEVEL.matcher(systemText(request));
            levels.add(m.find() ? m.group(1) : "safe");
            tokens.add(CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(request.messages()));
        }
        int firstModerate = levels.indexOf("moderate");
        int firstHigh = levels.indexOf("high");
        assertThat(firstModerate).as("levels %s", levels).isGreaterThan(0);
        assertThat(firstHigh).as("levels %s", levels).isGreaterThan(firstModerate);
        assertThat(events).isNotEmpty().allSatisfy(e -> assertThat(e.tokensAfter()).isLessThan(3600));
        PressureEvent first = events.get(0);
        assertThat(first.tokensBefore()).isGreaterThanOrEqualTo(3600);
        assertThat(first.tokensAfter()).isLessThan(3600);
        // at high every tool result is pruned hyper-aggressively: first and last 10 lines, a marker and the summary
        assertThat(model.requests().get(firstHigh).messages()).filteredOn(ToolExecutionResultMessage.class::isInstance)
                .allSatisfy(m -> assertThat(((ToolExecutionResultMessage) m).text().lines().count()).isLessThanOrEqualTo(22));
        // the request the intervention shaped, and the one after it, are under the high mark
        assertThat(tokens.get(firstHigh)).as("tokens %s", tokens).isLessThan(3600);
        assertThat(tokens.get(firstHigh + 1)).as("tokens %s", tokens).isLessThan(3600);
        assertThat(levels.get(firstHigh + 1)).isNotEqualTo("high");
        assertThat(tokens).allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(4000));
        ContextPressure pressure = memories.memory("dev").contextPressure();
        assertThat(pressure.stats().interventions()).isEqualTo(events.size());
        assertThat(new MemoryStatsTools(memories).workingMemoryStats("dev"))
                .containsPattern("- pressure: context pressure (safe|moderate|high): the last request took \\d+% of the"
                        + " 4000-token context window \\(\\d+ tokens, \\d+ as sent after pruning\\); " + events.size()
                        + " interventions? so far");
        System.out.println("pressure levels per request: " + levels + "\ntokens per request: " + tokens
                + "\ninterventions: " + events);
        memories.close();
    }

    @Test
    void should_shorten_older_outputs_of_one_long_turn_where_no_turn_can_be_evicted() {
        List<PressureEvent> events = Collections.synchronizedList(new ArrayList<>());
        WorkingMemoryProvider memories = pressured(events);
        List<String> outputs = IntStream.rangeClosed(1, 14).mapToObj(ToolOutputs::testReport).toList();
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            long results = request.messages().stream().filter(ToolExecutionResultMessage.class::isInstance).count();
            return results < 14 ? AiMessage.from(ScriptedChatModel.toolCall("bash", "{\"command\": \"mvn test\"}"))
                    : AiMessage.from("Fourteen runs, all green.");
        });

        String answer = assistant(model, memories, new Shell(outputs)).chat("dev", "Run the tests fourteen times");

        assertThat(answer).isEqualTo("Fourteen runs, all green.");
        assertThat(events).isNotEmpty().allSatisfy(e -> {
            assertThat(e.turnsEvicted()).isZero();
            assertThat(e.outputsShortened()).isPositive();
            assertThat(e.tokensAfter()).isLessThan(3600);
        });
        List<Integer> tokens = model.requests().stream()
                .map(r -> CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(r.messages())).toList();
        assertThat(tokens).allSatisfy(t -> assertThat(t).isLessThan(3600));
        // the latest output is never shortened: the model reads it now
        assertThat(lastToolResult(model.lastRequest())).startsWith("Test 14.1 ");
        assertThat(model.lastRequest().messages()).filteredOn(ToolExecutionResultMessage.class::isInstance)
                .extracting(m -> ((ToolExecutionResultMessage) m).text())
                .anySatisfy(text -> assertThat(text).startsWith("[Output of bash (48 lines").contains("read_tool_output(\""));
        memories.close();
    }

    @Test
    void should_evict_the_oldest_turns_when_nothing_is_left_to_prune_and_keep_the_newest_turn() {
        List<PressureEvent> events = Collections.synchronizedList(new ArrayList<>());
        WorkingMemoryProvider memories = pressured(events);
        ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Noted."));
        ToolTesting.Assistant assistant = assistant(model, memories, new Shell(List.of()));

        for (int turn = 1; turn <= 20; turn++) {
            assistant.chat("dev", ("Requirement " + turn + ": the ledger must balance per currency and per day. ").repeat(16));
        }

        List<Integer> tokens = model.requests().stream()
                .map(r -> CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(r.messages())).toList();
        assertThat(events).isNotEmpty().allSatisfy(e -> {
            assertThat(e.turnsEvicted()).isPositive();
            assertThat(e.tokensAfter()).isLessThan(3600);
        });
        assertThat(tokens).allSatisfy(t -> assertThat(t).isLessThan(3600));
        List<ChatMessage> last = model.lastRequest().messages();
        assertThat(((dev.langchain4j.data.message.UserMessage) last.get(last.size() - 1)).singleText())
                .startsWith("Requirement 20:");
        memories.close();
    }

    /** A 4,000-token context window and a window that never evicts by count: only pressure makes room. */
    private static WorkingMemoryProvider pressured(List<PressureEvent> events) {
        return WorkingMemoryProvider.builder().contextWindow(4000).maxMessages(200).pressureListener(events::add).build();
    }

    // ---- Done when 5 ------------------------------------------------------------------------------------------

    /** A clock the test moves forward. */
    static final class MovableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-11-23T09:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private WorkingMemoryProvider governed(MovableClock clock) {
        return WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir))
                .clock(clock)
                .withoutNotes()
                // a turn with a tool call is four messages: every turn ends with a sweep
                .toolOutputCache(ToolOutputCacheConfig.builder().sweepEveryEvents(4).keepNewest(2).build())
                .build();
    }

    private static void toolTurns(WorkingMemoryProvider memories, List<String> outputs) {
        ScriptedChatModel model = ScriptedChatModel.answering(request -> {
            List<ChatMessage> messages = request.messages();
            return messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage
                    ? AiMessage.from("done")
                    : AiMessage.from(ScriptedChatModel.toolCall("bash", "{\"command\": \"make\"}"));
        });
        ToolTesting.Assistant assistant = assistant(model, memories, new Shell(outputs));
        for (int i = 0; i < outputs.size(); i++) {
            assistant.chat("dev", "run step " + i);
        }
    }

    @Test
    void should_sweep_the_cache_to_its_newest_entries_then_by_age_and_delete_a_memory_without_leaving_files()
            throws IOException, InterruptedException {
        MovableClock clock = new MovableClock();
        List<String> bigOutputs = IntStream.range(0, 5)
                .mapToObj(run -> IntStream.range(0, 400).mapToObj(i -> "line " + i + " of run " + run + " " + "x".repeat(i % 7))
                        .collect(Collectors.joining("\n")))
                .toList();

        WorkingMemoryProvider first = governed(clock);
        first.withMemory("dev", memory -> memory); // nothing cached yet
        toolTurns(first, bigOutputs.subList(0, 1));
        first.close();
        assertThat(cacheFiles()).hasSize(1);

        WorkingMemoryProvider second = governed(clock);
        toolTurns(second, bigOutputs.subList(1, 5));
        second.close();
        List<Path> afterSweep = cacheFiles();
        System.out.println("cache files: 5 written, " + afterSweep.size() + " after the count sweeps");
        assertThat(afterSweep).hasSize(2); // the newest two of five

        clock.advance(Duration.ofDays(8));
        WorkingMemoryProvider third = governed(clock);
        toolTurns(third, List.of("short output"));
        third.close();
        // the conversation goes on after the restart: the window still shows the last pruned results, whose full
        // outputs are cached again (at the new time) so that read_tool_output works on what the model sees
        assertThat(cacheFiles()).as("entries older than 7 days are swept")
                .allSatisfy(file -> assertThat(file.getFileName().toString()).startsWith("tool-output-20261201T0900"));

        WorkingMemoryProvider fourth = governed(clock);
        toolTurns(fourth, bigOutputs.subList(0, 1));
        fourth.flush();
        for (int i = 0; i < 500 && cacheFiles().isEmpty(); i++) {
            Thread.sleep(10); // the cache writes the output on its own thread
        }
        long before = allFiles().size();
        assertThat(before).isGreaterThan(0);
        fourth.delete("dev");
        System.out.println("files before delete: " + before + ", after: " + allFiles().size());
        // the thread's files are gone; its crystals belong to the user's long-term memory, which forget removes
        assertThat(allFiles()).allSatisfy(file -> assertThat(dir.relativize(file).toString()).startsWith(".crystals"));
        fourth.forget("dev");
        fourth.close();
        assertThat(allFiles()).filteredOn(file -> file.toString().contains("crystals.jsonl")).isEmpty();
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static ToolExecutionResultMessage lastResult(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result) {
                return result;
            }
        }
        throw new AssertionError("No tool result in " + messages);
    }

    /** The files under the store's root, without the store's shared lock stripes (.locks/NN.lock) and temporary files of writes under way. */
    private List<Path> allFiles() throws IOException {
        for (int attempt = 1; ; attempt++) {
            try (Stream<Path> files = Files.walk(dir)) {
                return files.filter(Files::isRegularFile).map(Path::toString)
                        .filter(f -> !f.endsWith(".lock") && !f.endsWith(".tmp")).map(Path::of).toList();
            } catch (java.io.UncheckedIOException e) {
                if (attempt == 5) {
                    throw e; // a temporary file moved away while walking: walk again
                }
            }
        }
    }

    private List<Path> cacheFiles() throws IOException {
        return allFiles().stream().filter(f -> f.getFileName().toString().startsWith("tool-output-")).toList();
    }

    private List<Path> filesNamed(String name) throws IOException {
        return allFiles().stream().filter(f -> f.getFileName().toString().equals(name)).toList();
    }
}
