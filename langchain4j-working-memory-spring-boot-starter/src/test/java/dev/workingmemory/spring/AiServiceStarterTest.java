package dev.workingmemory.spring;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.spring.app.Assistant;
import dev.workingmemory.spring.app.CmsApplication;
import dev.workingmemory.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.metrics.MetricsEndpoint;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application of {@code app} (an {@code @AiService}, a tool, a scripted model, no memory code) with the starter:
 * "it" resolves through the {@code <working_memory>} block, the memory tools are there, and the metrics show.
 */
@SpringBootTest(classes = CmsApplication.class, properties = {
        "working-memory.max-messages=30",
        "working-memory.context-window=64000",
        "working-memory.store.type=file",
        "management.endpoints.web.exposure.include=metrics",
        // spring-boot-starter-jdbc is on this module's test classpath for ReadmeApplicationTest's jdbc application
        "spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"})
// the context, whose crystal store writes into memoryDir from its own threads, closes before JUnit deletes memoryDir
// (a cached context would outlive the class, and a segment written meanwhile failed the deletion)
@DirtiesContext
class AiServiceStarterTest {

    @TempDir
    static Path memoryDir;

    @DynamicPropertySource
    static void memoryDir(DynamicPropertyRegistry registry) {
        registry.add("working-memory.store.path", () -> memoryDir.toString());
    }

    @Autowired
    Assistant assistant;
    @Autowired
    ScriptedChatModel model;
    @Autowired
    WorkingMemoryProvider memories;
    @Autowired
    MeterRegistry registry;
    @Autowired
    MetricsEndpoint metricsEndpoint;

    @Test
    void should_resolve_it_through_the_block_with_no_memory_code_in_the_application() {
        assistant.chat("alice", "Create a page called About Us");
        String answer = assistant.chat("alice", "Now add a hero section to it");

        assertThat(answer).isEqualTo("Added a hero section to About Us.");
        ChatRequest resolving = model.requests().get(2); // the first call of the second turn
        assertThat(ScriptedChatModel.systemText(resolving))
                .startsWith("<working_memory>")
                .contains("<entities>pages:\n  - \"About Us\" (page-123)");
        assertThat(resolving.toolSpecifications()).extracting(spec -> spec.name())
                .as("the application's tools and exactly those of the README's table")
                .containsExactlyInAnyOrderElementsOf(withAppTools(StarterReadme.toolNames()));
        assertThat(memories.memory("alice").notes().notes()).extracting(note -> note.text())
                .containsExactly("The About Us page has a hero section");
        assertThat(memories.blockBudget()).as("context-window=64000").isEqualTo(4_000);

        assertThat(registry.get("working.memory.render").timer().count()).isPositive();
        assertThat(registry.get("working.memory.entities.tracked").counter().count()).isEqualTo(2);
        assertThat(registry.get("working.memory.notes.appended").counter().count()).isEqualTo(1);
        assertThat(registry.get("working.memory.notes.pending").gauge().value()).isEqualTo(1);
        assertThat(registry.get("working.memory.dreams").tag("outcome", "committed").counter().count()).isZero();
        assertThat(metricsEndpoint.listNames().getNames()).contains("working.memory.render",
                "working.memory.memories.cached", "working.memory.dreams");
        assertThat(metricsEndpoint.metric("working.memory.memories.cached", null).getMeasurements())
                .singleElement().satisfies(sample -> assertThat(sample.getValue()).isEqualTo(1));
    }

    private static List<String> withAppTools(List<String> memoryTools) {
        List<String> all = new ArrayList<>(memoryTools);
        all.addAll(List.of("createPage", "addSection"));
        return all;
    }
}
