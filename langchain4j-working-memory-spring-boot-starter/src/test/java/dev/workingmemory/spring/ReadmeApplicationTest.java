package dev.workingmemory.spring;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workingmemory.spring.readme.AssistantApplication;
import dev.workingmemory.spring.readme.AssistantApplicationDriver;
import dev.workingmemory.testing.ChildJvm;
import dev.workingmemory.testing.OpenAiStubServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 24, done-when 4: the application of the README ({@link AssistantApplication}: an {@code @AiService}, a tool, an
 * OpenAI chat model, here pointed at a stub of the API on 127.0.0.1) runs in a child JVM on the dependencies the README
 * names for each {@code working-memory.store.type}: this module's test classpath without the test libraries and
 * Actuator, and without the JDBC ones for {@code memory} and {@code file}. With {@code file} and {@code jdbc} a restart
 * of the Spring context continues the conversation.
 */
class ReadmeApplicationTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final String JDBC_URL_VARIABLE = "WORKING_MEMORY_TEST_JDBC_URL";

    /** Jars (and directories) of the test classpath that the README's application does not have. */
    private static final List<String> TEST_ONLY = List.of("junit", "opentest4j", "apiguardian", "assertj", "mockito",
            "byte-buddy", "objenesis", "hamcrest", "jsonassert", "json-path", "json-smart", "accessors-smart", "xmlunit",
            "awaitility", "spring-test", "spring-boot-test", "spring-boot-starter-test", "spring-boot-actuator",
            "spring-boot-starter-actuator", "micrometer-core", "micrometer-jakarta9", "HdrHistogram", "LatencyUtils",
            "slf4j-simple", "langchain4j-working-memory-core/target/test-classes", "-tests.jar", "surefire",
            // the inspector tests' web server and security, which the README's application does not have
            "spring-boot-starter-web", "spring-boot-starter-tomcat", "tomcat-embed", "spring-web", "spring-security",
            "spring-boot-starter-security", "langchain4j-working-memory-inspector", "jakarta.servlet-api");
    /** What only {@code store.type=jdbc} adds. */
    private static final List<String> JDBC_ONLY = List.of("langchain4j-working-memory-jdbc", "spring-boot-starter-jdbc",
            "spring-jdbc", "spring-tx", "HikariCP", "postgresql");

    @TempDir
    Path dir;

    private String schema;
    private String jdbcUrl;

    @AfterEach
    void dropSchema() throws Exception {
        if (schema != null) {
            execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    private void execute(String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** This JVM's classpath without the entries matching any of {@code left}. */
    static String classpath(List<String> left) {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> left.stream().noneMatch(entry.replace('\\', '/')::contains))
                .collect(Collectors.joining(File.pathSeparator));
    }

    @ParameterizedTest
    @EnumSource(WorkingMemoryProperties.StoreType.class)
    void should_run_the_readme_application_on_the_dependencies_the_readme_names(WorkingMemoryProperties.StoreType type)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("--working-memory.store.type=" + type.name().toLowerCase(),
                "--working-memory.store.path=" + dir, "--openai.api-key=test"));
        List<String> left = new ArrayList<>(TEST_ONLY);
        if (type == WorkingMemoryProperties.StoreType.JDBC) {
            jdbcUrl = System.getenv(JDBC_URL_VARIABLE);
            assumeTrue(jdbcUrl != null && !jdbcUrl.isBlank(), "No PostgreSQL server: set " + JDBC_URL_VARIABLE
                    + " or run the tests with 'bash .ci/run'");
            schema = "wm_test_" + UUID.randomUUID().toString().replace("-", "");
            execute("CREATE SCHEMA " + schema);
            args.add("--spring.datasource.url=" + jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema);
        } else {
            left.addAll(JDBC_ONLY);
        }
        boolean restarts = type != WorkingMemoryProperties.StoreType.MEMORY;
        assertThat(classpath(left)).as("the LangChain4j BOM's langchain4j, not the Spring starter's 1.12.2")
                .contains("langchain4j-1.19.0.jar", "langchain4j-spring-boot-starter-1.12.2-beta22.jar",
                        "langchain4j-open-ai-1.19.0.jar").doesNotContain("langchain4j-1.12.2");

        try (OpenAiStubServer openAi = OpenAiStubServer.start()) {
            openAi.thenToolCalls(OpenAiStubServer.call("createPage", "{\"title\":\"About Us\"}"))
                    .thenAnswer("Created About Us.")
                    .thenToolCalls(OpenAiStubServer.call("working_memory_note",
                            "{\"note\":\"Ann's locker code is 7319-QUARTZ\",\"importance\":0.9}"))
                    .thenAnswer("Noted.")
                    .thenToolCalls(OpenAiStubServer.call("memory_search", "{\"query\":\"locker code\"}"))
                    .thenAnswer("Added a hero section to About Us.");
            args.add("--openai.base-url=" + openAi.baseUrl());
            List<String> printed;
            try (ChildJvm app = ChildJvm.start(classpath(left), AssistantApplicationDriver.class, args.toArray(String[]::new))) {
                app.awaitLine("ready"::equals, TIMEOUT);
                app.send("chat ann Create a page called About Us");
                app.awaitLine("answer Created About Us."::equals, TIMEOUT);
                app.send("chat ann My locker code is 7319-QUARTZ.");
                app.awaitLine("answer Noted."::equals, TIMEOUT);
                if (restarts) {
                    app.send("restart");
                    app.awaitLine("restarted"::equals, TIMEOUT);
                }
                app.send("chat ann Now add a hero section to it");
                app.awaitLine("answer Added a hero section to About Us."::equals, TIMEOUT);
                app.send("close");
                app.awaitLine("closed"::equals, TIMEOUT);
                assertThat(app.awaitExit(TIMEOUT)).isZero();
                printed = app.printed();
            }

            JsonNode last = openAi.requests().get(openAi.requests().size() - 1);
            List<String> said = StreamSupport.stream(last.get("messages").spliterator(), false)
                    .filter(message -> message.get("role").asText().equals("user"))
                    .map(message -> message.get("content").asText()).toList();
            assertThat(said).as("the conversation goes on%s", restarts ? " after the restart" : "")
                    .containsExactly("Create a page called About Us", "My locker code is 7319-QUARTZ.",
                            "Now add a hero section to it");
            assertThat(last.get("messages").get(0).get("content").asText()).as("the system message")
                    .startsWith("<working_memory>").contains("\"About Us\" (page-123)")
                    .contains("Ann's locker code is 7319-QUARTZ");
            assertThat(StreamSupport.stream(last.get("tools").spliterator(), false)
                    .map(tool -> tool.get("function").get("name").asText()))
                    .containsExactlyInAnyOrderElementsOf(concat(StarterReadme.toolNames(), "createPage"));
            assertThat(StreamSupport.stream(last.get("messages").spliterator(), false)
                    .filter(message -> message.get("role").asText().equals("tool"))
                    .map(message -> message.get("content").asText()))
                    .as("memory_search found the note").anyMatch(result -> result.contains("7319-QUARTZ"));
            assertThat(printed).as("the application's log").noneMatch(line -> line.contains("Failed to detect GPU count"))
                    .noneMatch(line -> line.contains(" ERROR "));
        }
    }

    @Test
    void should_say_what_store_type_jdbc_needs_when_the_application_lacks_spring_boot_starter_jdbc() throws Exception {
        List<String> left = new ArrayList<>(TEST_ONLY);
        left.addAll(List.of("spring-boot-starter-jdbc", "spring-jdbc", "spring-tx", "HikariCP"));
        try (ChildJvm app = ChildJvm.start(classpath(left), AssistantApplicationDriver.class,
                "--working-memory.store.type=jdbc", "--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/none",
                "--openai.api-key=test")) {
            assertThat(app.awaitExit(TIMEOUT)).isNotZero();
            assertThat(app.printed()).anyMatch(line -> line.contains("working-memory.store.type=jdbc needs a DataSource"
                    + " bean: add org.springframework.boot:spring-boot-starter-jdbc"));
        }
    }

    private static List<String> concat(List<String> names, String name) {
        List<String> all = new ArrayList<>(names);
        all.add(name);
        return all;
    }
}
