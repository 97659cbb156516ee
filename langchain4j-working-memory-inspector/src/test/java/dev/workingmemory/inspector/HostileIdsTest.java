package dev.workingmemory.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.WorkingMemoryProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The inspector opens every user the memory holds, also one whose id holds an unpaired surrogate, which no UTF-8
 * URL can carry: the API reads such an id as the page sends it, the surrogate as the three bytes of its code point.
 */
class HostileIdsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> ids() {
        return Stream.of("sur\uD800rogate", "low\uDC00 and high\uD800", "mal\u0000lory\u202E", "a+b c&d=e%f", "😀", "#x",
                " ", "x".repeat(1_000), "../sur\uFFFDrogate", "sur\uFFFDrogate/..", "thread:5:sur\uFFFDrogate:default");
    }

    @ParameterizedTest
    @MethodSource("ids")
    void should_open_a_user_whose_id_holds_an_unpaired_surrogate_or_controls(String id) throws Exception {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().withoutCrystals().build();
             MemoryInspector inspector = MemoryInspector.builder().provider(memories).port(0).build().start()) {
            memories.memory(id).notes().note("A note of this user", 0.8, List.of());
            memories.memory("sur\uFFFDrogate").notes().note("Another user's note", 0.8, List.of());
            memories.flush();

            JsonNode resources = get(inspector, "api/resources?q=");
            assertThat(resources.path("resources").findValuesAsText("resource")).contains(id);
            JsonNode resource = get(inspector, "api/resource?resource=" + encode(id));
            assertThat(resource.path("resource").textValue()).isEqualTo(id);
            assertThat(resource.path("pendingNotes").findValuesAsText("text")).containsExactly("A note of this user");
            JsonNode thread = get(inspector, "api/thread?resource=" + encode(id) + "&thread=default");
            assertThat(thread.path("resource").textValue()).isEqualTo(id);
            assertThat(thread.path("loaded").asBoolean()).isTrue();
        }
    }

    @Test
    void should_decode_utf8_a_surrogates_own_bytes_and_plus_and_refuse_a_bad_escape() {
        assertThat(InspectorHandler.decode("sur%ED%A0%80rogate+%F0%9F%98%80%ED%B0%80")).isEqualTo("sur\uD800rogate 😀\uDC00");
        assertThat(InspectorHandler.decode("%25ED%25A0%2580")).isEqualTo("%ED%A0%80");
        assertThat(InspectorHandler.decode("bad%FFbyte")).isEqualTo("bad\uFFFDbyte");
        assertThatThrownBy(() -> InspectorHandler.decode("cut%4")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InspectorHandler.decode("%zz")).isInstanceOf(IllegalArgumentException.class);
    }

    private static JsonNode get(MemoryInspector inspector, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(inspector.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** As the page's encodeText: UTF-8 percent-escapes, an unpaired surrogate as its own three bytes. */
    private static String encode(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(java.net.URLEncoder.encode(text.substring(i, i + 2), java.nio.charset.StandardCharsets.UTF_8));
                i++;
            } else if (Character.isSurrogate(c)) {
                out.append(String.format("%%ED%%%02X%%%02X", 0x80 | (c >> 6) & 0x3F, 0x80 | c & 0x3F));
            } else {
                out.append(java.net.URLEncoder.encode(String.valueOf(c), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return out.toString();
    }
}
