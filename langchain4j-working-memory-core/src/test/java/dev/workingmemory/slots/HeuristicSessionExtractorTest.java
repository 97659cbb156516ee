package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Behaviour of the default extractor that the labelled set does not show. */
class HeuristicSessionExtractorTest {

    private final SessionExtractor extractor = SessionExtractor.defaults();

    private static ToolExecutionResultMessage result(String tool, String text) {
        return ToolExecutionResultMessage.from("call_1", tool, text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"deploy", "run_migrations"})
    void should_not_mine_the_results_of_ignored_tools(String tool) {
        SessionExtractor ignoring = HeuristicSessionExtractor.builder().ignoredTools(java.util.Set.of(tool)).build();

        assertThat(ignoring.extract(result(tool, "src/A.java:1: error: ';' expected"))).isEmpty();
        assertThat(ignoring.extract(result("bash", "src/A.java:1: error: ';' expected"))).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\u001b[1;31m[ERROR]\u001b[m /home/dev/app/src/main/java/com/acme/Foo.java:[12,5] cannot find symbol\n"
                    + "\u001b[1;31m[ERROR]\u001b[m   symbol:   class Bar\n\u001b[1;31m[ERROR]\u001b[m BUILD FAILURE",
            "src/A.java:3: \u001b[31merror:\u001b[0m ';' expected\n\u001b]8;;file:///src/A.java\u001b\\src/A.java\u001b]8;;\u001b\\"})
    void should_read_coloured_output_as_its_plain_text(String coloured) {
        String plain = coloured.replaceAll("\u001b\\[[0-9;]*m|\u001b]8;;[^\u001b]*\u001b\\\\", "");
        List<SessionItem> items = extractor.extract(result("bash", coloured));

        assertThat(items).extracting(SessionItem::slot).contains("error");
        assertThat(items).isEqualTo(extractor.extract(result("bash", plain)));
        assertThat(CodingEvidence.INSTANCE.isEvidence(result("bash", coloured))).isTrue();
    }

    @Test
    void should_keep_an_item_as_the_block_shows_it_without_controls() {
        List<SessionItem> items = extractor.extract(result("bash", "src/A.java:1: error: bad\u0000 char \u202eevil"));

        assertThat(items).extracting(SessionItem::content).contains("A.java:1: bad char evil");
    }

    @Test
    void should_take_a_jest_test_outside_any_describe_for_a_failure_but_not_jests_other_bulleted_headings() {
        String jest = """
                 FAIL  src/app.test.ts
                  ● Console

                    console.log
                      computing 1 + 2

                  ● adds numbers

                    expect(received).toBe(expected) // Object.is equality

                    Expected: 3
                    Received: 4

                      at Object.<anonymous> (src/app.test.ts:5:17)

                Tests:       1 failed, 1 total
                """;
        String systemd = "● nginx.service - A high performance web server\n   Active: failed (Result: exit-code)";

        assertThat(extractor.extract(result("bash", jest))).extracting(SessionItem::slot, SessionItem::content)
                .contains(tuple("error", "app.test.ts: adds numbers"))
                .doesNotContain(tuple("error", "app.test.ts: Console"));
        assertThat(extractor.extract(result("bash", systemd))).extracting(SessionItem::content)
                .noneMatch(content -> content.contains("nginx.service - A high"));
    }

    @Test
    void should_keep_the_first_three_errors_of_a_result() {
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            log.append("src/A.java:").append(i).append(": error: problem ").append(i).append('\n');
        }

        List<SessionItem> items = extractor.extract(result("bash", log.toString()));

        assertThat(items).filteredOn(i -> i.slot().equals("error")).extracting(SessionItem::content)
                .containsExactly("A.java:1: problem 1", "A.java:2: problem 2", "A.java:3: problem 3");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void should_read_a_10_mb_result_in_linear_time_and_find_the_error_at_its_end() {
        String noise = "[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/x/y/1.0/y-1.0.jar\n";
        StringBuilder log = new StringBuilder(10_500_000);
        while (log.length() < 10_000_000) {
            log.append(noise);
        }
        log.append("a".repeat(100_000)).append('\n'); // one very long line
        log.append("[ERROR] /home/dev/app/src/main/java/App.java:[7,1] class, interface, enum, or record expected\n");

        List<SessionItem> items = extractor.extract(result("bash", log.toString()));

        assertThat(items).contains(SessionItem.of("error", "App.java:7: class, interface, enum, or record expected"));
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void should_not_backtrack_on_pathological_lines() {
        String text = ("error" + "a.".repeat(900) + "\n").repeat(2000) + ("import " + "x.".repeat(990) + "\n").repeat(500)
                + ("\tat " + "(".repeat(1500) + "\n").repeat(500);

        assertThat(extractor.extract(result("bash", text))).isNotNull();
        assertThat(extractor.extract(UserMessage.from(text))).isNotNull();
    }

    @Test
    void should_take_the_message_under_a_location_that_stands_alone() {
        List<SessionItem> items = extractor.extract(result("bash", CodingEvidenceTest.NEXT_JS_TYPE_ERROR));

        assertThat(items).contains(SessionItem.of("error",
                "page.tsx:12: Type error: Property 'titel' does not exist on type 'Post'. Did you mean 'title'?"));
        assertThat(items.stream().filter(item -> item.slot().equals("error"))).hasSize(1);
        assertThat(items).as("./ dropped: the same file as app/page.tsx").contains(SessionItem.of("pool", "app/page.tsx"));
        assertThat(extractor.extract(result("bash", "./app/page.tsx:12:5\nRendered the page in 12 ms")))
                .as("a location without an error under it").noneMatch(item -> item.slot().equals("error"));
    }

    @Test
    void should_read_phps_parse_and_fatal_errors() {
        List<SessionItem> parse = extractor.extract(result("bash",
                "PHP Parse error:  syntax error, unexpected token \"}\" in /app/src/index.php on line 14"));
        List<SessionItem> fatal = extractor.extract(result("bash", """
                PHP Fatal error:  Uncaught Error: Call to undefined function foo() in /app/src/cart.php:12
                Stack trace:
                #0 {main}
                  thrown in /app/src/cart.php on line 12"""));

        assertThat(parse).contains(SessionItem.of("error", "index.php:14: syntax error, unexpected token \"}\""),
                SessionItem.of("pool", "src/index.php"));
        assertThat(fatal).contains(SessionItem.of("error",
                "cart.php:12: Uncaught Error: Call to undefined function foo()"));
    }

    @Test
    void should_read_a_commands_output_that_a_tool_returns_as_json() {
        String command = "{\"exit_code\": 1, \"stdout\": \"\", \"stderr\": \"Traceback (most recent call last):\\n"
                + "  File \\\"/workspace/app.py\\\", line 9, in main\\n    print(total(100))\\n"
                + "NameError: name 'total' is not defined\\n\"}";
        String ticket = "{\"subject\": \"The app crashes\", \"description\": \"Hi, since the update the app crashes"
                + " when I open the cart.\\nI already reinstalled it twice and it still happens. My son found this"
                + " in the logs:\\n\\njava.lang.NullPointerException\\n"
                + "\\tat com.acme.shop.Cart.total(Cart.java:41)\\n\\tat com.acme.shop.Cart.show(Cart.java:12)\\n\\n"
                + "Thanks, Maria\"}";
        String failingService = "{\"status\": 500, \"error\": \"Internal Server Error\", \"message\": \"Rate cache\","
                + " \"trace\": \"java.lang.IllegalStateException: Rate cache\\n\\tat com.stay.RateCache.get(RateCache.java:61)"
                + "\\n\\tat com.stay.Search.run(Search.java:14)\"}";

        assertThat(extractor.extract(result("execute", command))).contains(
                SessionItem.of("error", "NameError: name 'total' is not defined at app.py:9 in main"),
                SessionItem.of("pool", "/workspace/app.py"));
        assertThat(extractor.extract(result("get_ticket", ticket))).as("a person's message").isEmpty();
        assertThat(extractor.extract(result("search_hotels", failingService))).as("the service's own trace")
                .containsExactly(SessionItem.of("error", "500 Internal Server Error: Rate cache"));
    }

    @Test
    void should_read_msbuild_python_linters_rspec_phpunit_and_scalatest() {
        List<SessionItem> dotnet = extractor.extract(result("run", """
                  Determining projects to restore...
                /src/Shop.Api/Services/CartService.cs(27,17): error CS0103: The name 'discount' does not exist in the \
                current context [/src/Shop.Api/Shop.Api.csproj]

                Build FAILED."""));
        List<SessionItem> ruff = extractor.extract(result("bash", """
                src/shop/cart.py:14:5: F841 Local variable `total` is assigned to but never used
                src/shop/cart.py:20:1: W291 Trailing whitespace
                src/shop/api.py:9:1: C901 `sync` is too complex (12 > 10)
                Found 3 errors."""));
        List<SessionItem> rspec = extractor.extract(result("run_tests", """
                4 examples, 1 failure

                Failed examples:

                rspec ./spec/cart_spec.rb:12 # Cart#total applies the discount"""));
        List<SessionItem> phpunit = extractor.extract(result("run_tests", """
                There were 2 failures:

                1) Tests\\CartTest::testDiscount
                Failed asserting that 100.0 matches expected 90.0.

                /app/tests/CartTest.php:21

                --

                2) Tests\\CartTest::testEmpty
                Failed asserting that 1 matches expected 0.

                /app/tests/CartTest.php:30

                FAILURES!
                Tests: 3, Assertions: 3, Failures: 2."""));
        List<SessionItem> scalatest = extractor.extract(result("run_tests", """
                [info] CartSpec:
                [info] - should apply the discount *** FAILED ***
                [info]   100 did not equal 90 (CartSpec.scala:12)"""));

        assertThat(dotnet).containsExactly(
                SessionItem.of("error", "CartService.cs:27: CS0103: The name 'discount' does not exist in the current context"),
                SessionItem.of("pool", "src/Shop.Api/Services/CartService.cs"));
        assertThat(ruff).as("not the warning nor the convention").filteredOn(item -> item.slot().equals("error"))
                .containsExactly(SessionItem.of("error", "cart.py:14: F841 Local variable `total` is assigned to but never used"));
        assertThat(rspec).containsExactly(SessionItem.of("error", "cart_spec.rb:12: Cart#total applies the discount"),
                SessionItem.of("pool", "spec/cart_spec.rb"));
        assertThat(phpunit).containsExactly(
                SessionItem.of("error", "Tests\\CartTest::testDiscount: Failed asserting that 100.0 matches expected 90.0."),
                SessionItem.of("error", "Tests\\CartTest::testEmpty: Failed asserting that 1 matches expected 0."),
                SessionItem.of("pool", "/app/tests/CartTest.php"));
        assertThat(scalatest).contains(
                SessionItem.of("error", "CartSpec.scala:12: should apply the discount: 100 did not equal 90"));
    }

    @Test
    void should_read_pyright_the_linker_cmake_playwright_junits_console_launcher_and_testify() {
        assertThat(extractor.extract(result("bash", """
                /home/dev/shop/src/cart.py
                  /home/dev/shop/src/cart.py:27:12 - error: Argument of type "str" cannot be assigned (reportArgumentType)
                1 error, 0 warnings, 0 informations""")))
                .contains(SessionItem.of("error", "cart.py:27: Argument of type \"str\" cannot be assigned (reportArgumentType)"));
        assertThat(extractor.extract(result("shell", """
                /usr/bin/ld: cart.o: in function `cart_total':
                cart.c:(.text+0x4a): undefined reference to `apply_discount'
                collect2: error: ld returned 1 exit status""")))
                .contains(SessionItem.of("error", "cart.c: undefined reference to `apply_discount'"));
        assertThat(extractor.extract(result("shell", """
                CMake Error at CMakeLists.txt:14 (find_package):
                  By not providing "FindFmt.cmake" in CMAKE_MODULE_PATH this project has""")))
                .contains(SessionItem.of("error",
                        "CMakeLists.txt:14: find_package: By not providing \"FindFmt.cmake\" in CMAKE_MODULE_PATH this project has"));
        assertThat(extractor.extract(result("run_tests", "Running 3 tests using 1 worker\n\n"
                + "  1) [chromium] › checkout.spec.ts:12:7 › checkout › applies the discount ──────────\n\n"
                + "    Error: expect(locator).toHaveText(expected) failed\n")))
                .anyMatch(item -> item.slot().equals("error") && item.content().startsWith("checkout.spec.ts:12: checkout")
                        && item.content().endsWith("applies the discount: Error: expect(locator).toHaveText(expected) failed"));
        assertThat(extractor.extract(result("run_tests", """
                Failures (1):
                  JUnit Jupiter:CartTest:appliesDiscount()
                    MethodSource [className = 'com.acme.shop.CartTest', methodName = 'appliesDiscount']
                    => org.opentest4j.AssertionFailedError: expected: <90.00> but was: <100.00>""")))
                .contains(SessionItem.of("error",
                        "CartTest:appliesDiscount(): AssertionFailedError: expected: <90.00> but was: <100.00>"));
        assertThat(extractor.extract(result("exec", """
                --- FAIL: TestApplyDiscount (0.00s)
                    cart_test.go:21:
                        \tError Trace:\t/home/dev/shop/cart/cart_test.go:21
                        \tError:      \tNot equal:
                        \t            \texpected: 90
                        \t            \tactual  : 100
                FAIL""")))
                .as("one item, the assertion's, not the trace's line").filteredOn(item -> item.slot().equals("error"))
                .containsExactly(SessionItem.of("error", "TestApplyDiscount: cart_test.go:21: Not equal: expected: 90 actual : 100"));
    }

    @Test
    void should_mine_a_tool_result_that_has_no_tool_name() {
        ToolExecutionResultMessage unnamed = ToolExecutionResultMessage.builder().id("call_1").toolName(null)
                .text("src/A.java:3: error: ';' expected").build();

        assertThat(extractor.extract(unnamed)).contains(SessionItem.of("error", "A.java:3: ';' expected"));
    }

    @Test
    void should_mine_the_text_parts_of_a_tool_result_with_several_contents() {
        ToolExecutionResultMessage mixed = ToolExecutionResultMessage.builder().id("call_1").toolName("screenshot")
                .contents(List.of(TextContent.from("src/A.java:3: error: ';' expected"),
                        ImageContent.from("aGVsbG8=", "image/png"), TextContent.from("done")))
                .build();

        assertThat(extractor.extract(mixed)).contains(SessionItem.of("error", "A.java:3: ';' expected"));
    }

    @Test
    void should_find_nothing_in_a_tool_result_with_only_an_image() {
        ToolExecutionResultMessage image = ToolExecutionResultMessage.builder().id("call_1").toolName(null)
                .contents(List.of(ImageContent.from("aGVsbG8=", "image/png"))).build();

        assertThat(extractor.extract(image)).isEmpty();
    }

    @Test
    void should_find_nothing_in_a_model_message_that_only_calls_tools() {
        AiMessage calls = AiMessage.from(ToolExecutionRequest.builder().id("1").name("bash")
                .arguments("{\"command\": \"TODO: let's use X\"}").build());

        assertThat(extractor.extract(calls)).isEmpty();
    }

    @Test
    void should_mine_only_the_sources_it_is_told_to() {
        SessionExtractor toolsOnly = HeuristicSessionExtractor.builder()
                .fromUserMessages(false).fromAssistantMessages(false).build();

        assertThat(toolsOnly.extract(UserMessage.from("Let's use PostgreSQL."))).isEmpty();
        assertThat(toolsOnly.extract(AiMessage.from("TODO: write the migration"))).isEmpty();
        assertThat(toolsOnly.extract(result("bash", "error: failed to push some refs"))).isNotEmpty();
    }

    @Test
    void should_ignore_todo_comments_in_code_blocks_of_a_message() {
        String message = "Here is the change:\n```java\n// TODO: let's use a cache\nint x = 1;\n```\nIt compiles.";

        assertThat(extractor.extract(AiMessage.from(message))).isEmpty();
    }

    @Test
    void should_take_the_project_frame_from_configured_library_packages() {
        String trace = "java.lang.IllegalStateException: boom\n\tat com.vendor.sdk.Client.call(Client.java:10)\n"
                + "\tat com.acme.App.main(App.java:5)\n";
        SessionExtractor vendorIsLibrary = HeuristicSessionExtractor.builder()
                .libraryPackages(List.of("java.", "com.vendor.")).build();

        assertThat(extractor.extract(result("bash", trace))).extracting(SessionItem::content)
                .containsExactly("IllegalStateException: boom at Client.call(Client.java:10)");
        assertThat(vendorIsLibrary.extract(result("bash", trace))).extracting(SessionItem::content)
                .containsExactly("IllegalStateException: boom at App.main(App.java:5)");
    }

    @Test
    void should_turn_build_tool_symbols_into_ascii() {
        String jest = " FAIL  src/cart.test.js\n  \u25CF Cart \u203A applies discount\n";

        assertThat(extractor.extract(result("bash", jest))).extracting(SessionItem::content)
                .contains("cart.test.js: Cart > applies discount");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "The endpoint should return 404 when the order is missing.|return 404 when the order is missing",
            "We should add retries to the payment client.|add retries to the payment client",
            "I will fix the flaky importer tests after the release.|fix the flaky importer tests after the release",
            "I'll keep the old column for now and drop it in a follow-up migration.|drop it in a follow-up migration"})
    void should_find_requirements_and_work_put_off_as_todos(String message, String todo) {
        assertThat(extractor.extract(UserMessage.from(message))).contains(SessionItem.of("todo", todo));
    }

    @ParameterizedTest
    @ValueSource(strings = {"This should work now.", "It should be fine after the restart.", "You should see the new header.",
            "We should probably cache the rates, but not now.", "That should fix it.", "I fixed the importer tests after lunch.",
            "We should eventually move to Kotlin."})
    void should_not_take_expectations_hedges_or_advice_for_todos(String message) {
        assertThat(extractor.extract(AiMessage.from(message))).extracting(SessionItem::slot).doesNotContain("todo");
    }

    /** What a coding session holds: three todos, newest first, a decision and a file. */
    private static final List<SessionItem> HELD = List.of(
            SessionItem.of("decision", "Use commons-csv for the export, with a semicolon as delimiter"),
            SessionItem.of("todo", "update the README's export section before we open the PR"),
            SessionItem.of("todo", "add pagination to the export endpoint, but not today"),
            SessionItem.of("todo", "fix the flaky OrderServiceTest"),
            SessionItem.of("pool", "src/main/java/com/acme/orders/ExportController.java"));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "The README's export section is updated.|update the README's export section before we open the PR",
            "README updated.|update the README's export section before we open the PR",
            "I've updated the export section of the README.|update the README's export section before we open the PR",
            "Done with the pagination.|add pagination to the export endpoint, but not today",
            "Great. That was the pagination todo, so it's done.|add pagination to the export endpoint, but not today",
            "Yes, pagination of the export endpoint is done.|add pagination to the export endpoint, but not today",
            "Pagination: finished now.|add pagination to the export endpoint, but not today",
            "The export endpoint pages now. Merged.|add pagination to the export endpoint, but not today",
            "I fixed the flaky OrderServiceTest.|fix the flaky OrderServiceTest",
            "The flaky OrderServiceTest is resolved; next, the README.|fix the flaky OrderServiceTest",
            "- [x] fix the flaky OrderServiceTest|fix the flaky OrderServiceTest",
            "The export, its pagination and the migration are done; the README's export section is still to update."
                    + "|add pagination to the export endpoint, but not today"})
    void should_take_a_statement_that_a_todos_task_is_done_as_completing_it(String message, String todo) {
        assertThat(extractor.done(UserMessage.from(message), HELD)).containsExactly(SessionItem.of("todo", todo));
        assertThat(extractor.done(AiMessage.from(message), HELD)).containsExactly(SessionItem.of("todo", todo));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Don't forget to finish the README.", "Is the README done?", "Is the README updated",
            "So the pagination is done?",
            "The README isn't updated yet.", "The pagination is not done.", "Pagination is almost done.",
            "The README should be updated before the PR.", "Let me know when the pagination is done.",
            "Once the pagination is merged, update the README.", "Make sure the README is updated.",
            "I'll update the README's export section before the PR.", "Update the README export section now.",
            "Let's get the pagination done today.", "I think the flaky OrderServiceTest is fixed.",
            "The export is done.", "The export job is finished.", "Fixed the typo in the changelog.",
            "I fixed the return type of the endpoint.",
            "The README is outdated.", "The export endpoint is implemented in ExportController.",
            "```\nREADME updated\n```", "> The README's export section is updated."})
    void should_not_take_a_plan_a_question_a_negation_or_another_task_for_a_todo_done(String message) {
        assertThat(extractor.done(UserMessage.from(message.replace("\\n", "\n")), HELD)).isEmpty();
    }

    @Test
    void should_complete_two_todos_a_clause_names_apart_and_neither_when_it_names_what_they_share() {
        List<SessionItem> todos = List.of(SessionItem.of("todo", "update the README's export section"),
                SessionItem.of("todo", "add pagination to the export endpoint"));
        List<SessionItem> endpoints = List.of(SessionItem.of("todo", "document the export endpoint"),
                SessionItem.of("todo", "add pagination to the export endpoint"));

        assertThat(extractor.done(UserMessage.from("The pagination and the README are done."), todos))
                .containsExactlyInAnyOrderElementsOf(todos);
        assertThat(extractor.done(UserMessage.from("The export is done."), todos)).isEmpty();
        assertThat(extractor.done(UserMessage.from("The export endpoint is done."), endpoints)).isEmpty();
        assertThat(extractor.done(UserMessage.from("Pagination of the export endpoint is done."), endpoints))
                .containsExactly(endpoints.get(1));
        assertThat(HeuristicSessionExtractor.builder().fromUserMessages(false).build()
                .done(UserMessage.from("Done with the pagination."), todos)).isEmpty();
    }

    @Test
    void should_not_complete_a_todo_by_one_word_the_sessions_other_items_share_unless_said_with_its_own_verb() {
        List<SessionItem> held = List.of(SessionItem.of("decision", "Use PostgreSQL for the export job table"),
                SessionItem.of("todo", "update the export section"), SessionItem.of("pool", "docs/export.md"));

        assertThat(extractor.done(UserMessage.from("The export is done."), held)).isEmpty();
        assertThat(extractor.done(UserMessage.from("Export updated."), held)).containsExactly(held.get(1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "We're going with Flyway for the migrations.|Flyway",
            "Going with option B: keep MongoDB for the catalog.|option B",
            "Decided: the API stays on /v2.|the API stays on /v2"})
    void should_find_decisions_stated_as_going_with_or_decided(String message, String fragment) {
        assertThat(extractor.extract(UserMessage.from(message)))
                .anySatisfy(item -> assertThat(item.slot().equals("decision") && item.content().contains(fragment)).isTrue());
    }

    @Test
    void should_read_the_dependencies_of_a_pyproject_in_both_styles() {
        String pep621 = "[project]\nname = \"x\"\ndependencies = [\n  \"celery[redis]>=5.3\",\n  'httpx',\n]\n"
                + "[tool.ruff]\nline-length = 100\n";
        String poetry = "[tool.poetry.dependencies]\npython = \"^3.11\"\nhttpx = \"^0.27\"\n"
                + "rich = { version = \"^13\", optional = true }\n[build-system]\nrequires = [\"poetry-core\"]\n";

        assertThat(extractor.extract(result("read_file", pep621)))
                .containsExactly(SessionItem.of("dependency", "python: celery>=5.3, httpx"));
        assertThat(extractor.extract(result("read_file", poetry)))
                .containsExactly(SessionItem.of("dependency", "python: httpx ^0.27, rich ^13"));
    }

    @Test
    void should_read_surefire_2_summaries_and_vitest_failures() {
        String surefire = "Failed tests: \n  PriceTest.vat:27 expected:<19> but was:<10>\n    Run 1: flaky\n\n"
                + "Tests in error: \n  OrderTest.create:42 \u00BB NullPointer\n\nTests run: 8, Failures: 1, Errors: 1\n";
        String vitest = " FAIL  src/tax.test.ts > tax > rounds half up\nAssertionError: expected 1 to be 2\n";

        assertThat(extractor.extract(result("bash", surefire))).extracting(SessionItem::content)
                .containsExactly("PriceTest.vat:27 expected:<19> but was:<10>", "OrderTest.create:42 \u00BB NullPointer");
        assertThat(extractor.extract(result("bash", vitest))).containsExactly(
                SessionItem.of("error", "tax.test.ts: tax > rounds half up: AssertionError: expected 1 to be 2"),
                SessionItem.of("pool", "src/tax.test.ts"));
    }

    @Test
    void should_take_a_maven_goals_failure_as_the_error_only_when_the_output_shows_no_other() {
        String flyway = "[INFO] --- flyway:10.10.0:migrate (default-cli) @ orders-service ---\n"
                + "[INFO] Migrating schema \"public\" to version \"7 - export jobs\"\n"
                + "[ERROR] Migration V7__export_jobs.sql failed\n"
                + "[ERROR] Message    : ERROR: relation \"export_jobs_status_idx\" already exists\n"
                + "[INFO] BUILD FAILURE\n"
                + "[ERROR] Failed to execute goal org.flywaydb:flyway-maven-plugin:10.10.0:migrate (default-cli) on project"
                + " orders-service: org.flywaydb.core.internal.command.DbMigrate$FlywayMigrateException: Migration"
                + " V7__export_jobs.sql failed\n";
        String compile = "[ERROR] /src/main/java/com/acme/Invoice.java:[57,41] ';' expected\n[INFO] BUILD FAILURE\n"
                + "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile"
                + " (default-compile) on project billing: Compilation failure\n";

        assertThat(extractor.extract(result("bash", flyway))).filteredOn(item -> item.slot().equals("error"))
                .extracting(SessionItem::content).containsExactly("flyway-maven-plugin:migrate failed: Migration"
                        + " V7__export_jobs.sql failed");
        assertThat(extractor.extract(result("bash", compile))).filteredOn(item -> item.slot().equals("error"))
                .extracting(SessionItem::content).containsExactly("Invoice.java:57: ';' expected");
    }

    @Test
    void should_pool_the_file_a_docker_or_terraform_failure_points_at() {
        String docker = "Dockerfile.prod:9\n--------------------\nERROR: failed to solve: process \"/bin/sh -c make\" "
                + "did not complete successfully: exit code: 2\n";
        String terraform = "\u2502 Error: Invalid reference\n\u2502\n\u2502   on modules/db/main.tf line 14, in resource \"x\":\n";

        assertThat(extractor.extract(result("bash", docker))).contains(SessionItem.of("pool", "Dockerfile.prod"));
        assertThat(extractor.extract(result("bash", terraform))).contains(SessionItem.of("pool", "modules/db/main.tf"));
    }

    @Test
    void should_pool_a_file_pasted_with_its_trace_once() {
        String pasted = "It fails in /home/me/proj/analytics/stats.py:\n\nTraceback (most recent call last):\n"
                + "  File \"/home/me/proj/analytics/stats.py\", line 19, in average\n    return total / count\n"
                + "ZeroDivisionError: division by zero\n";

        assertThat(extractor.extract(UserMessage.from(pasted))).filteredOn(item -> item.slot().equals("pool"))
                .extracting(SessionItem::content).containsExactly("/home/me/proj/analytics/stats.py");
        assertThat(extractor.extract(UserMessage.from("See /srv/app/src/main/java/Cart.java please.")))
                .containsExactly(SessionItem.of("pool", "src/main/java/Cart.java"));
    }

    @Test
    void should_read_go_import_blocks_and_kotlin_imports_without_the_project_own_packages() {
        String go = "package cmd\n\nimport (\n\t\"fmt\"\n\tlog \"github.com/sirupsen/logrus\"\n\t\"gorm.io/gorm/clause\"\n)\n";
        String kotlin = "package app.routes\n\nimport io.ktor.server.routing.*\nimport app.model.Order\n";
        String javaScript = "import \"reflect-metadata\"\nimport { z } from \"zod\"\n";

        assertThat(extractor.extract(result("read_file", go)))
                .containsExactly(SessionItem.of("dependency", "imports: github.com/sirupsen/logrus, gorm.io/gorm/clause"));
        assertThat(extractor.extract(result("read_file", kotlin)))
                .containsExactly(SessionItem.of("dependency", "imports: io.ktor.server"));
        assertThat(extractor.extract(result("read_file", javaScript)))
                .containsExactly(SessionItem.of("dependency", "imports: reflect-metadata, zod"));
    }

    @Test
    void should_read_the_failures_of_yarn_pnpm_and_poetry() {
        String yarn = "[1/4] Resolving packages...\nerror Couldn't find package \"left-pad2\" on the \"npm\" registry.\n";
        String pnpm = " ERR_PNPM_NO_MATCHING_VERSION  No matching version found for lodash@^5.0.0\n";
        String poetry = "Because app depends on pydantic (^3.0) which doesn't match any versions, version solving failed.\n";

        assertThat(extractor.extract(result("bash", yarn))).containsExactly(
                SessionItem.of("error", "yarn: Couldn't find package \"left-pad2\" on the \"npm\" registry."),
                SessionItem.of("dependency", "left-pad2 (unresolved)"));
        assertThat(extractor.extract(result("bash", pnpm))).extracting(SessionItem::content)
                .contains("ERR_PNPM_NO_MATCHING_VERSION: No matching version found for lodash@^5.0.0");
        assertThat(extractor.extract(result("bash", poetry))).containsExactly(
                SessionItem.of("error", "app depends on pydantic (^3.0) which doesn't match any versions, version solving failed."),
                SessionItem.of("dependency", "pydantic ^3.0 (unresolved)"));
    }

    @Test
    void should_read_unittest_failures_and_rust_panics() {
        String unittest = "ERROR: test_parse (tests.test_dates.DateTests.test_parse)\n------\nTraceback (most recent call last):\n"
                + "  File \"/srv/app/app/dates.py\", line 8, in parse\n    return x\nValueError: bad day\n";
        String panic = "thread 'main' panicked at src/main.rs:5:10:\ncalled `Option::unwrap()` on a `None` value\n";
        String oldPanic = "thread 'worker' panicked at 'index out of bounds', src/queue.rs:9:5\n";

        assertThat(extractor.extract(result("bash", unittest))).containsExactly(
                SessionItem.of("error", "test_parse (tests.test_dates.DateTests.test_parse): ValueError: bad day"),
                SessionItem.of("pool", "/srv/app/app/dates.py"));
        assertThat(extractor.extract(result("bash", panic))).containsExactly(
                SessionItem.of("error", "main panicked at main.rs:5: called `Option::unwrap()` on a `None` value"),
                SessionItem.of("pool", "src/main.rs"));
        assertThat(extractor.extract(result("bash", oldPanic))).extracting(SessionItem::content)
                .contains("worker panicked at queue.rs:9: index out of bounds");
    }

    @Test
    void should_read_an_api_error_whose_status_is_text() {
        String github = "{\"message\":\"Not Found\",\"documentation_url\":\"https://docs.github.com/rest\",\"status\":\"404\"}";

        assertThat(extractor.extract(result("http_get", github))).containsExactly(SessionItem.of("error", "404: Not Found"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Going forward, every new endpoint goes under /api/v2.|decision|Going forward, every new endpoint goes under /api/v2",
            "In the client we need to refresh the token on 401.|todo|refresh the token on 401",
            "The index is missing. Next steps:\\n1. Add the index\\n2. Rerun the load test|todo|Rerun the load test"})
    void should_find_rules_todos_after_a_phrase_and_lists_after_a_heading_in_prose(String message, String slot, String item) {
        assertThat(extractor.extract(UserMessage.from(message.replace("\\n", "\n")))).contains(SessionItem.of(slot, item));
    }

    static Stream<Arguments> unresolvedDependencyLines() {
        return Stream.of(
                Arguments.of("Module not found: Error: Can't resolve 'react-query' in '/app/src'", "react-query (missing module)"),
                Arguments.of("error: no matching package named `tokioo` found", "tokioo (unresolved)"),
                Arguments.of("error: failed to select a version for the requirement `serde = \"^9\"`", "serde (unresolved)"),
                Arguments.of("main.go:4:2: no required module provides package github.com/pkg/errors; to add it:",
                        "github.com/pkg/errors (unresolved)"),
                Arguments.of("\tgithub.com/a/b: cannot find module providing package github.com/a/b: module lookup disabled",
                        "github.com/a/b (unresolved)"),
                Arguments.of("go: github.com/x/y@v0.1.0: invalid version: unknown revision v0.1.0", "github.com/x/y@v0.1.0 (unresolved)"),
                Arguments.of("ERROR: Could not find a version that satisfies the requirement numpyy (from versions: none)",
                        "numpyy (unresolved)"),
                Arguments.of("  ERROR: Failed building wheel for lxml", "lxml (wheel build failed)"),
                Arguments.of("Could not find a matching version of package flaskk", "flaskk (unresolved)"),
                Arguments.of("npm ERR! 404 Not Found - GET https://registry.npmjs.org/@types%2fnodee - Not found", "@types/nodee (unresolved)"),
                Arguments.of("ImportError: No module named yaml", "yaml (missing module)"),
                Arguments.of("app.rb:1:in `require': cannot load such file -- httparty (LoadError)", "httparty (missing module)"),
                Arguments.of("/a/A.csproj : error NU1101: Unable to find package Polly.Extensionss. No packages exist with this id",
                        "Polly.Extensionss (unresolved)"),
                Arguments.of("   > Could not resolve com.squareup.okio:okio:9.0.0.", "com.squareup.okio:okio:9.0.0 (unresolved)"),
                Arguments.of("[ERROR] Failed to execute goal on project a: Failure to find org.acme:core:jar:2.0 in https://repo.example.org"
                        + " was cached in the local repository", "org.acme:core:2.0 (unresolved)"),
                Arguments.of("Plugin [id: 'com.acme.build', version: '1.0'] was not found in any of the following sources:",
                        "com.acme.build (unresolved)"),
                Arguments.of("[error] (update) sbt.librarymanagement.ResolveException: Error downloading org.acme:util_2.13:1.0",
                        "org.acme:util_2.13:1.0 (unresolved)"),
                Arguments.of("\u27a4 YN0035: \u2502 left-pd@npm:^1.0.0: Package not found", "left-pd (unresolved)"),
                Arguments.of("\u27a4 YN0082: \u2502 @scope/widgets@npm:^2.0.0: No candidates found", "@scope/widgets (unresolved)"),
                Arguments.of("  \u2570\u2500\u25b6 Because flaskk was not found in the package registry and you require flaskk, we can",
                        "flaskk (unresolved)"),
                Arguments.of("pkg_resources.DistributionNotFound: The 'attrs>=23' distribution was not found and is required by app",
                        "attrs>=23 (unresolved)"),
                Arguments.of("E: Unable to locate package libfoo-dev", "libfoo-dev (unresolved)"),
                Arguments.of("cmd/a.go:3:2: cannot find package \"github.com/acme/x\" in any of:", "github.com/acme/x (unresolved)"),
                Arguments.of("Could not find gem 'sinatraa (~> 4.0)' in rubygems repository https://rubygems.org/ or installed locally.",
                        "sinatraa (unresolved)"),
                Arguments.of("    - Root composer.json requires acme/sdk, it could not be found in any version, there may be a typo",
                        "acme/sdk (unresolved)"),
                Arguments.of("Because app depends on yamll any which doesn't exist (could not find package yamll at https://pub.dev), "
                        + "version solving failed.", "yamll (unresolved)"),
                Arguments.of("** (Mix) No package with name plugg (from: mix.exs) in registry", "plugg (unresolved)"),
                Arguments.of("  Could not find a package configuration file provided by \"Boost\" with any", "Boost (unresolved)"),
                Arguments.of("Can't locate JSON/XS.pm in @INC (you may need to install the JSON::XS module) (@INC contains: /etc/perl)",
                        "JSON::XS (unresolved)"),
                Arguments.of("\u2718 [ERROR] Could not resolve \"lodash-es\"", "lodash-es (missing module)"),
                Arguments.of("error: Cannot find package \"zod\" from \"/app/src/index.ts\"", "zod (missing module)"));
    }

    @ParameterizedTest
    @MethodSource("unresolvedDependencyLines")
    void should_read_each_tool_standard_message_for_a_dependency_it_could_not_get(String line, String dependency) {
        assertThat(extractor.extract(result("bash", "$ build\n" + line + "\n")))
                .filteredOn(item -> item.slot().equals("dependency")).containsExactly(SessionItem.of("dependency", dependency));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "go: finding module for package github.com/google/uuid",
            "Module not found: Error: Can't resolve './routes' in '/app/src'",
            "app.rb:1:in `require_relative': cannot load such file -- /app/lib/config (LoadError)",
            "Requirement already satisfied: requests in ./venv/lib/python3.12/site-packages (2.31.0)",
            "      \"resolved\": \"https://registry.npmjs.org/axios/-/axios-1.6.8.tgz\",",
            "\u2718 [ERROR] Could not resolve \"./util/ids\"",
            "-- Found Boost: /usr/lib/x86_64-linux-gnu/cmake/Boost-1.74.0/BoostConfig.cmake (found version \"1.74.0\")"})
    void should_not_take_a_local_module_or_a_package_that_was_found_for_a_missing_dependency(String line) {
        assertThat(extractor.extract(result("bash", "$ build\n" + line + "\n"))).noneMatch(item -> item.slot().equals("dependency"));
    }

    @Test
    void should_report_a_package_named_by_several_lines_of_one_failure_once() {
        String pip = "ERROR: Could not find a version that satisfies the requirement torchh==9.0 (from versions: none)\n"
                + "ERROR: No matching distribution found for torchh==9.0\n";
        String npm = "npm ERR! 404 Not Found - GET https://registry.npmjs.org/lodahs - Not found\n"
                + "npm ERR! 404  'lodahs@^4.0.0' is not in this registry.\n";

        assertThat(extractor.extract(result("bash", pip))).filteredOn(item -> item.slot().equals("dependency"))
                .containsExactly(SessionItem.of("dependency", "torchh==9.0 (unresolved)"));
        assertThat(extractor.extract(result("bash", npm))).filteredOn(item -> item.slot().equals("dependency"))
                .containsExactly(SessionItem.of("dependency", "lodahs (unresolved)"));
    }

    @Test
    void should_read_the_crates_a_rust_file_uses_without_the_standard_library_and_its_own_modules() {
        String rust = "use std::io;\nuse anyhow::Result;\npub(crate) use crate::db::Pool;\nuse super::Config;\n\nuse reqwest::Client;\n";

        assertThat(extractor.extract(result("read_file", rust))).containsExactly(SessionItem.of("dependency", "imports: anyhow, reqwest"));
    }

    @Test
    void should_read_the_packages_conda_lists_as_not_available() {
        String conda = "Solving environment: failed\n\nPackagesNotFoundError: The following packages are not available from current channels:"
                + "\n\n  - pytorch-cudaa=11.8\n  - numpyy\n\nCurrent channels:\n\n  - https://repo.anaconda.com/pkgs/main/linux-64\n";

        assertThat(extractor.extract(result("bash", conda))).filteredOn(item -> item.slot().equals("dependency")).containsExactly(
                SessionItem.of("dependency", "pytorch-cudaa (unresolved)"), SessionItem.of("dependency", "numpyy (unresolved)"));
    }

    @Test
    void should_give_an_exit_code_the_error_line_before_it_not_a_routine_log_line() {
        String compose = "db-1  | 2026-11-27 08:21:58 FATAL:  password authentication failed for user \"shop\"\n"
                + "api-1 | 2026-11-27T08:21:59.109Z  INFO 1 --- [exec-9] c.a.api.web.AccessLog : GET /api/v1/orders/53217"
                + " 200 29ms\n"
                + "api-1 exited with code 1";
        String routineOnly = "api-1 | 2026-11-27T08:21:59.109Z  INFO 1 --- [main] c.a.Api : Started Api in 2.1 s\n"
                + "api-1 exited with code 1";

        assertThat(extractor.extract(result("bash", compose))).extracting(SessionItem::content)
                .contains("Exit code 1: db-1 | 2026-11-27 08:21:58 FATAL: password authentication failed for user"
                        + " \"shop\"") // spacing folded, as in every item
                .noneSatisfy(item -> assertThat(item).contains("AccessLog"));
        assertThat(extractor.extract(result("bash", routineOnly))).extracting(SessionItem::content)
                .contains("Exit code 1").noneSatisfy(item -> assertThat(item).contains("Started Api"));
    }
}
