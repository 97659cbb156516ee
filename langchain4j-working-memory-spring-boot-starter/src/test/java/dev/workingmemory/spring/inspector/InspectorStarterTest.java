package dev.workingmemory.spring.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.spring.inspector.plain.PlainApplication;
import dev.workingmemory.spring.inspector.secured.SecuredApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code working-memory.inspector.enabled}: the inspector on the application's own port, behind its security. */
class InspectorStarterTest {

    private static final String TOKEN = "correct-horse-battery-staple";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ConfigurableApplicationContext run(Class<?> application, String... properties) {
        return new SpringApplicationBuilder(application).properties("server.port=0", "server.address=127.0.0.1",
                "spring.main.banner-mode=off",
                // spring-boot-starter-jdbc is on this module's test classpath for ReadmeApplicationTest's jdbc application
                "spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
                .properties(properties).run();
    }

    private static String base(ConfigurableApplicationContext context) {
        int port = ((ServletWebServerApplicationContext) context).getWebServer().getPort();
        return "http://127.0.0.1:" + port + "/working-memory/inspector";
    }

    private static HttpResponse<String> get(String url, String user) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (user != null) {
            request.header("Authorization", basic(user));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> rollback(String base, String user, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/api/rollback"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"resource\":\"alice\"}"));
        if (user != null) {
            request.header("Authorization", basic(user));
        }
        if (token != null) {
            request.header("X-Inspector-Token", token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString(user.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void should_serve_the_inspector_on_the_applications_port_when_enabled() throws Exception {
        try (ConfigurableApplicationContext context = run(PlainApplication.class,
                "working-memory.inspector.enabled=true")) {
            context.getBean(WorkingMemoryProvider.class).memory("alice").notes()
                    .note("Deadline for the API migration is March 20th", 0.9, null);
            String base = base(context);

            HttpResponse<String> page = get(base + "/", null);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).get().asString().startsWith("text/html");
            assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString()
                    .contains("script-src 'self'");
            assertThat(page.body()).contains("Working memory inspector");
            assertThat(get(base, null).headers().firstValue("Location")).get().asString()
                    .endsWith("/working-memory/inspector/");

            HttpResponse<String> users = get(base + "/api/resources", null);
            assertThat(users.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            JsonNode alice = JSON.readTree(users.body()).path("resources").get(0);
            assertThat(alice.path("resource").asText()).isEqualTo("alice");
            assertThat(alice.path("pendingNotes").asInt()).isEqualTo(1);
            assertThat(JSON.readTree(get(base + "/api/info", null).body()).path("writable").asBoolean()).isFalse();
            assertThat(rollback(base, null, TOKEN).statusCode()).isEqualTo(403);
        }
    }

    @Test
    void should_serve_nothing_by_default() throws Exception {
        try (ConfigurableApplicationContext context = run(PlainApplication.class)) {
            assertThat(context.containsBean("workingMemoryInspector")).isFalse();
            assertThat(get(base(context) + "/", null).statusCode()).isEqualTo(404);
            assertThat(get(base(context) + "/api/resources", null).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void should_be_behind_the_applications_spring_security() throws Exception {
        try (ConfigurableApplicationContext context = run(SecuredApplication.class,
                "working-memory.inspector.enabled=true", "working-memory.inspector.token=" + TOKEN,
                "spring.security.user.name=admin", "spring.security.user.password=secret")) {
            String base = base(context);

            assertThat(get(base + "/", null).statusCode()).isEqualTo(401);
            assertThat(get(base + "/api/resources", null).statusCode()).isEqualTo(401);
            assertThat(rollback(base, null, TOKEN).statusCode()).isEqualTo(401);
            assertThat(get(base + "/", "admin:wrong").statusCode()).isEqualTo(401);

            assertThat(get(base + "/", "admin:secret").statusCode()).isEqualTo(200);
            assertThat(rollback(base, "admin:secret", null).statusCode()).isEqualTo(403);
            HttpResponse<String> signedIn = rollback(base, "admin:secret", TOKEN);
            assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(200);
            assertThat(JSON.readTree(signedIn.body()).path("rolledBack").asBoolean()).isFalse(); // no dream yet
        }
    }
}
