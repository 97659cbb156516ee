package dev.workingmemory.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.dream.DreamGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JSON API and the JDK server's guards, read over HTTP as a script would. */
class InspectorApiTest {

    private static final String TOKEN = "correct-horse-battery-staple";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Scenario scenario;
    private static MemoryInspector inspector;
    private static MemoryInspector readOnly;

    @BeforeAll
    static void start() {
        scenario = Scenario.build();
        inspector = MemoryInspector.builder().provider(scenario.provider).port(0).token(TOKEN).build().start();
        readOnly = MemoryInspector.builder().provider(scenario.provider).port(0).build().start();
    }

    @AfterAll
    static void stop() {
        inspector.close();
        readOnly.close();
        scenario.close();
    }

    private static HttpResponse<String> get(MemoryInspector server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String path) throws Exception {
        HttpResponse<String> response = get(inspector, path);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        return JSON.readTree(response.body());
    }

    private static HttpResponse<String> post(MemoryInspector server, String action, String token, String origin)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + "api/" + action))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"resource\":\"alice\"}"));
        if (token != null) {
            request.header("X-Inspector-Token", token);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    @Test
    void should_serve_the_page_and_its_files_under_a_strict_content_security_policy() throws Exception {
        for (String path : List.of("", "inspector.js", "inspector.css")) {
            HttpResponse<String> response = get(inspector, path);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Security-Policy")).get().asString()
                    .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'")
                    .doesNotContain("unsafe-inline", "unsafe-eval");
            assertThat(response.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        }
        assertThat(get(inspector, "").body()).contains("<script src=\"inspector.js\" defer></script>")
                .doesNotContain("<script>", "onclick=", "style=");
        assertThat(get(inspector, "inspector.js").body()).doesNotContain("innerHTML", "outerHTML",
                "insertAdjacentHTML", "document.write", "eval(");
        assertThat(get(inspector, "nothing-here").statusCode()).isEqualTo(404);
        assertThat(inspector.url()).startsWith("http://127.0.0.1:");
    }

    @Test
    void should_list_users_with_their_threads_notes_crystals_and_last_dream() throws Exception {
        JsonNode answer = json("api/resources?q=ALI");

        JsonNode alice = answer.path("resources").get(0);
        assertThat(alice.path("resource").asText()).isEqualTo("alice");
        assertThat(alice.path("threads").get(0).path("thread").asText()).isEqualTo("default");
        assertThat(alice.path("threads").get(0).path("loaded").asBoolean()).isTrue();
        assertThat(alice.path("pendingNotes").asInt()).isEqualTo(1);
        assertThat(alice.path("crystals").asInt()).isPositive();
        assertThat(alice.path("lastDream").path("committed").asBoolean()).isFalse();
        assertThat(json("api/resources?q=nobody").path("resources")).isEmpty();
    }

    @Test
    void should_give_the_block_as_sent_with_each_layers_share_and_the_pressure() throws Exception {
        JsonNode thread = json("api/thread?resource=alice&thread=default");

        JsonNode request = thread.path("request");
        String block = scenario.provider.memory("alice").lastRequest().orElseThrow().block();
        assertThat(request.path("block").asText()).isEqualTo(block).contains("About Us", "page-123");
        assertThat(request.path("systemMessage").asText()).startsWith("You are a CMS assistant.").endsWith(block);
        assertThat(request.path("tokens").asInt()).isPositive();
        assertThat(request.path("layers").findValuesAsText("layer")).contains("entities", "core_memory", "pressure");
        assertThat(request.path("messages").toString()).contains("[Pruned tool output: 400 lines");
        assertThat(thread.path("pressure").path("history")).isNotEmpty();
        assertThat(thread.path("entities").get(0).path("name").asText()).isEqualTo("About Us");
        assertThat(thread.path("toolOutputs")).hasSize(1);
        // the tools the model listener saw: the pruned output names no read_tool_output, which is not among them
        assertThat(thread.path("toolsOffered").toString()).isEqualTo("[\"bash\",\"cms_createPage\"]");
        assertThat(request.path("messages").toString()).doesNotContain("read_tool_output");

        String name = thread.path("toolOutputs").get(0).path("name").asText();
        JsonNode output = json("api/tool-output?resource=alice&thread=default&name=" + encode(name));
        assertThat(output.path("text").asText()).contains("test line 1\n", "test line 200\n", "test line 400");
    }

    @Test
    void should_show_the_text_of_messages_with_images_and_not_their_data() throws Exception {
        String png = Base64.getEncoder().encodeToString(new byte[3_000]);
        ChatMemory chat = scenario.provider.get("pictures");
        chat.add(UserMessage.from(
                TextContent.from("What is on this screen?"),
                ImageContent.from(png, "image/png")));
        chat.add(AiMessage.from(ToolExecutionRequest.builder()
                .id("s1").name("screenshot").arguments("{}").build()));
        chat.add(ToolExecutionResultMessage.builder().id("s1").toolName("screenshot")
                .contents(TextContent.from("Screen of the pricing page"),
                        ImageContent.from(png, "image/png")).build());
        chat.messages();

        String messages = json("api/thread?resource=pictures&thread=default").path("request").path("messages")
                .toString();
        assertThat(messages).contains("What is on this screen?\\n[1 part other than text]")
                .contains("Screen of the pricing page\\n[1 part other than text]").doesNotContain(png.substring(0, 40));
    }

    @Test
    void should_tell_whether_a_threads_window_still_waits_for_its_pause_to_reach_the_long_term_memory()
            throws Exception {
        // the scenario's conversations go on (no pause for ten minutes, no close)
        assertThat(json("api/thread?resource=alice&thread=default").path("pausePending").asBoolean()).isTrue();
        assertThat(json("api/thread?resource=nobody&thread=default").path("pausePending").asBoolean()).isFalse();
    }

    @Test
    void should_give_the_size_of_the_threads_message_log_as_stored() throws Exception {
        JsonNode log = json("api/thread?resource=alice&thread=default").path("messageLog");

        // the system message and the scenario's seven messages, one entry each, none trimmed
        assertThat(log.path("lastSeq").asLong()).isEqualTo(8);
        assertThat(log.path("firstSeq").asLong()).isEqualTo(1);
        assertThat(log.path("entries").asInt()).isEqualTo(8);
        assertThat(log.path("messages").asInt()).isEqualTo(7);
        assertThat(json("api/thread?resource=nobody&thread=default").path("messageLog").path("lastSeq").asLong())
                .isZero();
    }

    @Test
    void should_tell_which_layers_act_the_session_only_once_a_coding_agents_output_was_seen() throws Exception {
        // alice's CMS tools returned a page and 400 lines of plain text: no coding agent's output
        JsonNode alice = json("api/thread?resource=alice&thread=default").path("tiers");
        assertThat(active(alice, "entities")).isTrue();
        assertThat(active(alice, "session")).isFalse();

        ChatMemory chat = scenario.provider.get(MemoryKey.of("carol", "build"));
        chat.add(UserMessage.from("Run the tests"));
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id("t1").name("bash").arguments("{}").build()));
        chat.add(ToolExecutionResultMessage.from("t1", "bash", String.join("\n",
                "[ERROR] /app/src/main/java/com/acme/App.java:[12,5] cannot find symbol",
                "[INFO] BUILD FAILURE")));
        chat.messages();

        JsonNode carol = json("api/thread?resource=carol&thread=build").path("tiers");
        assertThat(active(carol, "session")).isTrue();
        assertThat(carol.findValuesAsText("layer"))
                .containsExactlyElementsOf(scenario.provider.memory(MemoryKey.of("carol", "build")).layers().stream()
                        .map(layer -> layer.name()).toList());
    }

    private static boolean active(JsonNode tiers, String layer) {
        for (JsonNode tier : tiers) {
            if (tier.path("layer").asText().equals(layer)) {
                return tier.path("active").asBoolean();
            }
        }
        throw new AssertionError("no layer " + layer + " in " + tiers);
    }

    @Test
    void should_give_every_dream_with_its_guards_notes_pointers_and_diff() throws Exception {
        JsonNode resource = json("api/resource?resource=alice");

        JsonNode dreams = resource.path("dreams");
        assertThat(dreams).hasSize(3);
        JsonNode rejected = dreams.get(0);
        assertThat(rejected.path("outcome").asText()).isEqualTo("rejected");
        assertThat(rejected.path("guard").asText()).isEqualTo(DreamGuard.MISSING_SECTION.name());
        JsonNode failed = rejected.path("guardChecks").get(rejected.path("guardChecks").size() - 1);
        assertThat(failed.path("passed").asBoolean()).isFalse();
        assertThat(failed.path("detail").asText()).isNotBlank();
        JsonNode second = dreams.get(1);
        assertThat(second.path("outcome").asText()).isEqualTo("committed");
        assertThat(second.path("canRollBack").asBoolean()).isTrue();
        assertThat(second.path("consumedNotes").toString()).contains("Deadline for the API migration");
        assertThat(second.path("pointers").path("checked").asBoolean()).isTrue();
        assertThat(second.path("diff").toString()).contains("{\"op\":\"-\",\"text\":\"" + Scenario.DROPPED_LINE + "\"}");
        assertThat(dreams.get(2).path("canRollBack").asBoolean()).isFalse();
        assertThat(resource.path("state").asText()).doesNotContain(Scenario.DROPPED_LINE);
        assertThat(resource.path("pendingNotes").get(0).path("text").asText()).isEqualTo(Scenario.PENDING_NOTE);
    }

    @Test
    void should_search_as_memory_search_does_and_give_each_hit_its_score() throws Exception {
        JsonNode answer = json("api/search?resource=alice&q=" + encode("migration deadline") + "&limit=5");

        JsonNode first = answer.path("hits").get(0);
        assertThat(first.path("text").asText()).contains("migration");
        dev.workingmemory.crystal.HitScores expected = scenario.provider.search(MemoryKey.of("alice"),
                "migration deadline", 5).get(0).scores();
        JsonNode scores = first.path("scores");
        assertThat(scores.path("fused").asDouble()).isEqualTo(expected.fused());
        // the top hit holds both words: the keyword list and the vector list both measured it
        assertThat(scores.path("keyword").asDouble()).isPositive().isEqualTo(expected.keyword());
        assertThat(scores.path("vector").asDouble()).isEqualTo(expected.vector());
        assertThat(scores.path("keywordStandardized").asDouble()).isEqualTo(expected.keywordStandardized());
        assertThat(scores.path("vectorStandardized").asDouble()).isEqualTo(expected.vectorStandardized());
        assertThat(scores.has("context")).isTrue();
        assertThat(answer.path("hits").findValuesAsText("text"))
                .isEqualTo(scenario.provider.search(MemoryKey.of("alice"), "migration deadline", 5).stream()
                        .map(hit -> hit.text()).toList());
    }

    @Test
    void should_say_where_each_crystal_and_hit_came_from() throws Exception {
        JsonNode crystals = json("api/crystals?resource=alice").path("crystals");

        JsonNode output = stream(crystals).filter(c -> c.path("kind").asText().equals("tool_output")).findFirst()
                .orElseThrow(() -> new AssertionError("no tool output crystal in " + crystals));
        assertThat(output.path("from").toString()).isEqualTo("[\"tool\"]");
        assertThat(stream(crystals).filter(c -> c.path("kind").asText().endsWith("note")))
                .isNotEmpty().allSatisfy(note -> assertThat(note.path("from").toString()).isEqualTo("[\"model\"]"));
        String outputWords = output.path("text").asText().lines().findFirst().orElseThrow();
        JsonNode hits = json("api/search?resource=alice&q=" + encode(outputWords) + "&limit=10").path("hits");
        assertThat(stream(hits).filter(hit -> hit.path("kind").asText().equals("tool_output")))
                .isNotEmpty().allSatisfy(hit -> assertThat(hit.path("from").toString()).isEqualTo("[\"tool\"]"));
    }

    private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"api/resource", "api/thread?thread=default", "api/search?resource=alice",
            "api/search?resource=alice&q=", "api/search?resource=alice&q=x&limit=0",
            "api/search?resource=alice&q=x&limit=many", "api/crystals?resource=alice&kind=poems"})
    void should_answer_bad_parameters_with_400_saying_what_is_wrong(String path) throws Exception {
        HttpResponse<String> response = get(inspector, path);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("error").asText()).isNotBlank();
    }

    @Test
    void should_refuse_a_roll_back_without_the_token_and_change_nothing() throws Exception {
        String state = scenario.provider.dreamState("alice").orElseThrow();
        int pending = scenario.provider.memory("alice").notes().notes().size();

        assertThat(post(readOnly, "rollback", TOKEN, null).statusCode()).isEqualTo(403);
        assertThat(post(inspector, "rollback", null, null).statusCode()).isEqualTo(403);
        assertThat(post(inspector, "rollback", TOKEN + "x", null).statusCode()).isEqualTo(403);
        assertThat(post(inspector, "rollback", TOKEN, "http://evil.example").statusCode()).isEqualTo(403);
        assertThat(post(inspector, "forget", "wrong-token-of-some-length", null).statusCode()).isEqualTo(403);

        assertThat(scenario.provider.dreamState("alice")).contains(state);
        assertThat(scenario.provider.memory("alice").notes().notes()).hasSize(pending);
        assertThat(scenario.provider.dreamHistory("alice")).hasSize(2);
        assertThat(json("api/info").path("writable").asBoolean()).isTrue();
        assertThat(JSON.readTree(get(readOnly, "api/info").body()).path("writable").asBoolean()).isFalse();
    }

    @Test
    void should_roll_back_with_the_token_bringing_back_the_state_before_and_its_notes() throws Exception {
        try (Scenario other = Scenario.build();
             MemoryInspector server = MemoryInspector.builder().provider(other.provider).port(0).token(TOKEN).build()
                     .start()) {
            String before = other.provider.dreamHistory("alice").get(1).previousState();

            HttpResponse<String> response = post(server, "rollback", TOKEN, "http://127.0.0.1:" + server.port());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).path("rolledBack").asBoolean()).isTrue();
            assertThat(other.provider.dreamState("alice")).contains(before);
            assertThat(other.provider.memory("alice").notes().notes()).extracting(note -> note.text())
                    .contains("Deadline for the API migration is March 20th", Scenario.PENDING_NOTE);
            assertThat(other.provider.dreamLog("alice").get(1).rolledBack()).isPresent();
        }
    }

    @Test
    void should_dream_now_and_forget_a_user_with_the_token() throws Exception {
        try (Scenario other = Scenario.build();
             MemoryInspector server = MemoryInspector.builder().provider(other.provider).port(0).token(TOKEN).build()
                     .start()) {
            HttpResponse<String> dream = post(server, "dream", TOKEN, null);

            assertThat(dream.statusCode()).as(dream.body()).isEqualTo(200);
            JsonNode report = JSON.readTree(dream.body());
            assertThat(report.path("outcome").asText()).isEqualTo("rejected"); // the scripted model still says "lol"
            assertThat(report.path("guard").asText()).isEqualTo(DreamGuard.MISSING_SECTION.name());
            assertThat(report.path("summary").asText()).contains("rejected by MISSING_SECTION");
            assertThat(other.provider.dreamLog("alice")).hasSize(4);

            HttpResponse<String> forget = post(server, "forget", TOKEN, null);

            assertThat(forget.statusCode()).as(forget.body()).isEqualTo(200);
            assertThat(other.provider.dreamState("alice")).isEmpty();
            assertThat(other.provider.store().keys()).noneMatch(key -> key.contains("alice"));

            // nothing new to dream of: no synthesis ran, nothing failed
            JsonNode again = JSON.readTree(post(server, "dream", TOKEN, null).body());
            assertThat(again.path("outcome").asText()).as(again.toString()).isEqualTo("skipped");
            assertThat(again.path("reason").asText()).startsWith("Nothing new since the last dream");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.example", "evil.example:80", "127.0.0.1.nip.io", "localhost.evil.example"})
    void should_refuse_a_request_for_another_host_against_dns_rebinding(String host) throws IOException {
        assertThat(raw("GET /api/resources HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 421").doesNotContain("alice");
    }

    /** The README: every answer carries the policy headers; a refusal before the handler carried two of them. */
    @Test
    void should_send_a_refusal_with_the_headers_of_every_answer() throws Exception {
        String refused = raw("GET /api/resources HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
                .toLowerCase(Locale.ROOT);
        HttpResponse<String> crossSite = post(inspector, "rollback", TOKEN, "http://evil.example");

        assertThat(refused).startsWith("http/1.1 421").contains("content-security-policy: default-src 'none'",
                "x-frame-options: deny", "x-content-type-options: nosniff", "cache-control: no-store",
                "content-type: application/json");
        assertThat(crossSite.statusCode()).isEqualTo(403);
        assertThat(crossSite.headers().firstValue("Content-Security-Policy")).get().asString().contains("default-src 'none'");
        assertThat(crossSite.headers().firstValue("X-Frame-Options")).contains("DENY");
        assertThat(JSON.readTree(crossSite.body()).path("error").asText()).contains("Origin was 'http://evil.example'");
    }

    @Test
    void should_say_which_methods_are_allowed_when_refusing_one() throws Exception {
        HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(URI.create(inspector.url() + "api/info"))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> delete = HTTP.send(HttpRequest.newBuilder(URI.create(inspector.url())).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).contains("GET, HEAD, POST");
        assertThat(delete.statusCode()).isEqualTo(405);
        assertThat(delete.headers().firstValue("Allow")).contains("GET, HEAD");
    }

    /** HTTP: a server answers HEAD wherever it answers GET (a monitor's {@code curl -I}, say). */
    @Test
    void should_answer_head_on_the_api_as_get_without_a_body() throws Exception {
        HttpResponse<String> head = HTTP.send(HttpRequest.newBuilder(URI.create(inspector.url() + "api/info"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Type")).get().asString().startsWith("application/json");
        assertThat(head.body()).isEmpty();
    }

    @Test
    void should_answer_a_request_for_its_own_host() throws IOException {
        assertThat(raw("GET /api/info HTTP/1.1\r\nHost: localhost:" + inspector.port() + "\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
    }

    private static String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", inspector.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "short", " padded-token-of-length ", "fifteen-chars!!"})
    void should_refuse_a_weak_token(String token) {
        assertThatThrownBy(() -> MemoryInspector.builder().token(token))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16 characters");
    }

    @Test
    void should_name_the_setting_given_null_as_every_builder_of_the_library_does() {
        assertThatThrownBy(() -> MemoryInspector.builder().provider(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("provider must not be null");
        assertThatThrownBy(() -> MemoryInspector.builder().bindAddress(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("address must not be null");
        assertThatThrownBy(() -> MemoryInspector.builder().allowedHost(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("host must not be null");
        assertThatThrownBy(() -> MemoryInspector.builder().token(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("token must not be null");
        assertThatThrownBy(() -> new InspectorRequest("GET", null, "", java.util.Map.of(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("path must not be null");
        assertThatThrownBy(() -> new InspectorRequest("GET", "/", "", java.util.Map.of(), null).header(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("name must not be null");
        assertThatThrownBy(() -> new InspectorResponse(200, null, new byte[0], java.util.Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("contentType must not be null");
    }

    @Test
    void should_need_a_provider() {
        assertThatThrownBy(() -> MemoryInspector.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("provider");
    }
}
