package dev.workingmemory.metrics;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.event.DreamFinished;
import dev.workingmemory.event.SaveFailed;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.store.WorkingMemoryStoreException;
import dev.workingmemory.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WorkingMemoryMetricsTest {

    interface Assistant {
        String chat(@MemoryId String userId, @UserMessage String message);
    }

    static class CmsTools {
        @Tool("Creates a CMS page")
        String createPage(String title) {
            return "{\"page\":{\"id\":\"page-123\",\"title\":\"" + title + "\"}}";
        }
    }

    @Test
    void should_count_a_scripted_conversation() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("createPage", "{\"title\":\"About Us\"}").thenAnswer("Created About Us.")
                .thenAnswer("Added a hero section to it.");

        // README: begin
        WorkingMemoryMetrics metrics = new WorkingMemoryMetrics(registry);
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .listener(metrics)                     // timers and counters, fed by the memory's events
                .build();
        metrics.monitor(memories);                     // gauges: memories cached, pending notes
        // README: end

        try (memories) {
            Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(memories)
                    .tools(new CmsTools()).build();
            assistant.chat("alice", "Create a page called About Us");
            memories.memory("alice").notes().note("The client wants a hero section", 0.8, List.of());
            assistant.chat("alice", "Now add a hero section to it");

            assertThat(registry.get("working.memory.render").timer().count()).isGreaterThanOrEqualTo(2);
            assertThat(registry.get("working.memory.render").timer().totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.get("working.memory.entities.tracked").counter().count()).isEqualTo(1);
            assertThat(registry.get("working.memory.notes.appended").counter().count()).isEqualTo(1);
            assertThat(registry.get("working.memory.memories.cached").gauge().value()).isEqualTo(1);
            assertThat(registry.get("working.memory.notes.pending").gauge().value()).isEqualTo(1);
            // No dream yet: the dream meters exist at zero.
            assertThat(registry.get("working.memory.dreams").tag("outcome", "committed").counter().count()).isZero();
            assertThat(registry.get("working.memory.dreams").tag("outcome", "rejected").counter().count()).isZero();
            assertThat(registry.get("working.memory.dream").tag("outcome", "committed").timer().count()).isZero();
            assertThat(registry.get("working.memory.search").timer().count()).isZero();
        }
        assertThat(registry.get("working.memory.memories.cached").gauge().value()).isZero();
    }

    @Test
    void should_show_a_conversation_with_a_dream_a_search_and_indexing() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WorkingMemoryMetrics metrics = new WorkingMemoryMetrics(registry);
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("createPage", "{\"title\":\"About Us\"}").thenAnswer("Created About Us.")
                .thenAnswer("Added a hero section to it.");
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().listener(metrics).build()) {
            metrics.monitor(memories);
            Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(memories)
                    .tools(new CmsTools()).build();
            assistant.chat("alice", "Create a page called About Us");
            memories.memory("alice").notes().note("The client wants a hero section", 0.8, List.of());
            memories.memory("alice").notes().note("The About Us page goes live on Friday", 0.7, List.of());
            assistant.chat("alice", "Now add a hero section to it");
            assertThat(registry.get("working.memory.notes.pending").gauge().value()).isEqualTo(2);

            assertThat(memories.dream("alice").committed()).isTrue();
            assertThat(memories.memory("alice").search("hero section", 5)).isNotEmpty();

            assertThat(registry.get("working.memory.dreams").tag("outcome", "committed").counter().count()).isEqualTo(1);
            assertThat(registry.get("working.memory.dreams").tag("outcome", "rejected").counter().count()).isZero();
            assertThat(registry.get("working.memory.dream").tag("outcome", "committed").timer()
                    .totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.get("working.memory.notes.pending").gauge().value()).isZero();
            assertThat(registry.get("working.memory.search").timer().count()).isEqualTo(1);
            // the search waited for the notes' crystals, which the indexer reports before it lets searches go on
            assertThat(registry.get("working.memory.index").timer().count()).isPositive();
            assertThat(registry.get("working.memory.crystals.indexed").counter().count()).isGreaterThanOrEqualTo(2);
            assertThat(registry.get("working.memory.index.pending").gauge().value()).as("alice's crystals, all indexed")
                    .isZero();
            assertThat(registry.get("working.memory.render").timer().count()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void should_count_dreams_by_outcome_and_failed_saves_by_scope() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WorkingMemoryMetrics metrics = new WorkingMemoryMetrics(registry);

        metrics.onDreamFinished(new DreamFinished("alice", true, "committed", 3, 400, 520, Duration.ofMillis(120)));
        metrics.onDreamFinished(new DreamFinished("alice", false, "collapse guard: too short", 3, 400, 20,
                Duration.ofMillis(80)));
        metrics.onDreamFinished(new DreamFinished("bob", true, "committed", 1, 0, 200, Duration.ofMillis(40)));
        metrics.onSaveFailed(new SaveFailed("alice/default", LayerScope.RESOURCE, new WorkingMemoryStoreException("down")));

        assertThat(registry.get("working.memory.dreams").tag("outcome", "committed").counter().count()).isEqualTo(2);
        assertThat(registry.get("working.memory.dreams").tag("outcome", "rejected").counter().count()).isEqualTo(1);
        assertThat(registry.get("working.memory.dream").tag("outcome", "committed").timer()
                .totalTime(TimeUnit.MILLISECONDS)).isEqualTo(160);
        assertThat(registry.get("working.memory.saves.failed").tag("scope", "resource").counter().count()).isEqualTo(1);
        assertThat(registry.get("working.memory.saves.failed").tag("scope", "thread").counter().count()).isZero();
    }

    @Test
    void should_count_the_crystals_deferred_by_a_provider_s_crystal_store_behind_by_its_whole_queue(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WorkingMemoryMetrics metrics = new WorkingMemoryMetrics(registry);
        dev.workingmemory.testing.GatedEmbeddingModel held = new dev.workingmemory.testing.GatedEmbeddingModel();
        assertThat(registry.get("working.memory.crystals.deferred").counter().count()).isZero();

        try (dev.workingmemory.crystal.CrystalStore crystals = dev.workingmemory.internal.ProviderCrystals.open(
                directory, held, null, metrics)) {
            java.time.Instant now = java.time.Instant.now();
            for (int i = 0; i < 10_025; i++) { // the default bound is 10,000 (one batch of up to 16 is being indexed)
                crystals.add(List.of(new dev.workingmemory.crystal.Crystal("c" + i, i < 10_000 ? "others" : "alice",
                        dev.workingmemory.crystal.CrystalKind.TURN, now, 0.5, List.of(), "Turn " + i, null)));
            }
            assertThat(registry.get("working.memory.crystals.deferred").counter().count()).isBetween(9.0, 25.0);
            held.open();
            // alice's crystals, deferred, are read back ahead of the 10,000 others waiting in memory
            assertThat(crystals.count("alice")).isEqualTo(25);
        }
    }
}
