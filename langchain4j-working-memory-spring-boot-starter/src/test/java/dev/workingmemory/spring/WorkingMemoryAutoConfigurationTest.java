package dev.workingmemory.spring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.metrics.WorkingMemoryMetrics;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.tools.CoreMemoryTools;
import dev.workingmemory.tools.MemoryStatsTools;
import dev.workingmemory.tools.NoteTools;
import dev.workingmemory.tools.TextScratchpadTools;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.workingmemory.event.EntityTracked;
import dev.workingmemory.event.WorkingMemoryListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(OutputCaptureExtension.class)
class WorkingMemoryAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WorkingMemoryAutoConfiguration.class));

    private static ToolExecutionResultMessage pageResult() {
        return ToolExecutionResultMessage.from("call-1", "createPage",
                "{\"page\":{\"id\":\"page-123\",\"title\":\"About Us\"}}");
    }

    @Test
    void should_configure_a_provider_in_memory_with_the_tool_beans() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(WorkingMemoryProvider.class)
                    .hasSingleBean(TextScratchpadTools.class).hasSingleBean(CoreMemoryTools.class)
                    .hasSingleBean(NoteTools.class).hasSingleBean(MemoryStatsTools.class)
                    .doesNotHaveBean(WorkingMemoryMetrics.class);
            assertThat(context.getBean(WorkingMemoryStore.class)).isInstanceOf(InMemoryWorkingMemoryStore.class);
            assertThat(context.getBean(WorkingMemoryProvider.class).blockBudget()).isEqualTo(6_000);
        });
    }

    @Test
    void should_offer_the_providers_model_listener_as_a_bean_for_the_model_starters() {
        runner.run(context -> assertThat(context.getBean(ChatModelListener.class))
                .isSameAs(context.getBean(WorkingMemoryProvider.class).chatModelListener()));
    }

    @Test
    void should_apply_the_window_and_the_context_window() {
        runner.withPropertyValues("working-memory.max-messages=4", "working-memory.context-window=32000").run(context -> {
            WorkingMemoryProvider memories = context.getBean(WorkingMemoryProvider.class);
            ChatMemory memory = memories.get("alice");
            for (int i = 0; i < 6; i++) {
                memory.add(UserMessage.from("message " + i));
            }
            assertThat(memory.messages()).hasSize(4);
            assertThat(memories.blockBudget()).isEqualTo(3_200);
        });
    }

    @Test
    void should_make_a_paused_conversation_searchable_after_the_pause_the_property_gives() {
        runner.withPropertyValues("working-memory.pause-after=200ms").run(context -> {
            WorkingMemoryProvider memories = context.getBean(WorkingMemoryProvider.class);
            ChatMemory monday = memories.get(MemoryKey.of("alice", "monday"));
            monday.add(UserMessage.from("My sister Lena arrives from Lisbon on the 14th."));
            monday.add(AiMessage.from("Noted: the 14th."));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            List<?> hits = List.of();
            while (hits.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
                hits = memories.memory(MemoryKey.of("alice", "tuesday")).search("when does my sister arrive", 5);
            }
            assertThat(hits).as("the first conversation, searched from the second").hasSize(1);
        });
    }

    @Test
    void should_keep_state_in_the_file_store_and_save_what_is_pending_when_the_context_closes(@TempDir Path dir) {
        WorkingMemoryProvider[] closed = new WorkingMemoryProvider[1];
        runner.withPropertyValues("working-memory.store.type=file", "working-memory.store.path=" + dir,
                "working-memory.save-delay=1h").run(context -> {
            assertThat(context.getBean(WorkingMemoryStore.class)).isInstanceOf(FileWorkingMemoryStore.class);
            closed[0] = context.getBean(WorkingMemoryProvider.class);
            closed[0].get("alice").add(pageResult()); // an entity, saved behind the turn: an hour later
        });

        assertThatThrownBy(() -> closed[0].memory("alice")).isInstanceOf(IllegalStateException.class);
        try (WorkingMemoryProvider restarted = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir)).build()) {
            assertThat(restarted.memory("alice").entities()).containsExactly(new Entity("page-123", "About Us", "page"));
        }
    }

    @Test
    void should_back_off_when_the_application_defines_its_own_beans() {
        runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasSingleBean(WorkingMemoryProvider.class).hasSingleBean(WorkingMemoryStore.class)
                    .hasSingleBean(CoreMemoryTools.class);
            assertThat(context.getBean(WorkingMemoryProvider.class)).isSameAs(context.getBean("ownProvider"));
            assertThat(context.getBean(WorkingMemoryStore.class)).isSameAs(context.getBean("ownStore"));
            assertThat(context.getBean(CoreMemoryTools.class)).isSameAs(context.getBean("ownCoreMemoryTools"));
            assertThat(context).hasSingleBean(NoteTools.class); // the others come from the application's provider
        });
    }

    @Test
    void should_say_which_tools_do_not_fit_a_provider_of_the_application() {
        runner.withUserConfiguration(ProviderWithoutCoreMemory.class).run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("lacks the layer that CoreMemoryTools works on")
                        .hasMessageContaining("working-memory.tools.enabled=false"));
        runner.withUserConfiguration(ProviderWithoutCoreMemory.class)
                .withPropertyValues("working-memory.tools.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(MemoryStatsTools.class));
    }

    @Test
    void should_send_messages_to_the_application_chat_memory_store() {
        runner.withBean(ChatMemoryStore.class, InMemoryChatMemoryStore::new).run(context -> {
            context.getBean(WorkingMemoryProvider.class).get("alice").add(UserMessage.from("hello"));
            List<ChatMessage> stored = context.getBean(ChatMemoryStore.class).getMessages("alice");
            assertThat(stored).containsExactly(UserMessage.from("hello"));
        });
    }

    @Test
    void should_dream_with_the_named_model_bean_and_the_dream_properties() {
        dev.workingmemory.testing.ScriptedChatModel dreamer = dev.workingmemory.testing.ScriptedChatModel.script()
                .thenAnswer("lol");
        runner.withBean("dreamer", dev.langchain4j.model.chat.ChatModel.class, () -> dreamer)
                .withPropertyValues("working-memory.dreams.model=dreamer", "working-memory.dreams.min-notes=3",
                        "working-memory.dreams.interval=30m", "working-memory.dreams.scheduled=false")
                .run(context -> {
                    WorkingMemoryProvider provider = context.getBean(WorkingMemoryProvider.class);
                    assertThat(provider.dreamEngine().config().minNotes()).isEqualTo(3);
                    assertThat(provider.dreamEngine().config().interval()).isEqualTo(java.time.Duration.ofMinutes(30));
                    assertThat(provider.dreamEngine().config().scheduled()).isFalse();
                    provider.memory("alice").notes().note("The deadline is March 20th", 0.8, List.of());

                    assertThat(provider.dream("alice").committed()).isFalse(); // "lol" is no state document
                    assertThat(dreamer.requests()).isNotEmpty(); // the named bean dreamed, not the offline synthesizer
                });
    }

    @Test
    void should_fail_to_start_naming_a_dream_model_bean_that_does_not_exist() {
        runner.withPropertyValues("working-memory.dreams.model=nope").run(context ->
                assertThat(context.getStartupFailure()).isNotNull().hasStackTraceContaining("nope")
                        .hasStackTraceContaining("working-memory.dreams.model=nope names no ChatModel bean"));
        // a bean of that name that is no ChatModel
        runner.withPropertyValues("working-memory.dreams.model=workingMemoryStore").run(context ->
                assertThat(context.getStartupFailure()).isNotNull()
                        .hasStackTraceContaining("working-memory.dreams.model=workingMemoryStore names no ChatModel bean"));
    }

    @Test
    void should_configure_nothing_when_disabled() {
        runner.withPropertyValues("working-memory.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(WorkingMemoryProvider.class)
                        .doesNotHaveBean(MemoryStatsTools.class));
    }

    @Test
    void should_meter_the_provider_when_there_is_a_registry() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            assertThat(context).hasSingleBean(WorkingMemoryMetrics.class);
            context.getBean(WorkingMemoryProvider.class).get("alice").add(pageResult());
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("working.memory.entities.tracked").counter().count()).isEqualTo(1);
            assertThat(registry.get("working.memory.memories.cached").gauge().value()).isEqualTo(1);
        });
    }

    @Test
    void should_give_the_provider_the_application_listeners() {
        List<EntityTracked> heard = new CopyOnWriteArrayList<>();
        WorkingMemoryListener listener = new WorkingMemoryListener() {
            @Override
            public void onEntityTracked(EntityTracked event) {
                heard.add(event);
            }
        };
        runner.withBean(WorkingMemoryListener.class, () -> listener).run(context -> {
            context.getBean(WorkingMemoryProvider.class).get("alice").add(pageResult());
            assertThat(heard).singleElement().satisfies(event -> assertThat(event.entities())
                    .containsExactly(new Entity("page-123", "About Us", "page")));
        });
    }

    @Test
    void should_start_without_micrometer() {
        runner.withClassLoader(new FilteredClassLoader("io.micrometer")).run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(WorkingMemoryProvider.class)
                        .doesNotHaveBean(WorkingMemoryMetrics.class));
    }

    @ParameterizedTest
    @CsvSource({
            "working-memory.store.type=redis, working-memory.store.type",
            "working-memory.tools.enabled=maybe, working-memory.tools.enabled"})
    void should_refuse_a_bad_property_saying_which(String property, String message) {
        runner.withPropertyValues(property).run(context ->
                assertThat(context).getFailure().hasStackTraceContaining(message));
    }

    /**
     * Spring's validation names the property (Spring Boot's failure analysis prints it with its origin and the reason);
     * before, the builders' exception named their own parameter ({@code tokens}, {@code interval}) and no property.
     */
    @ParameterizedTest
    @CsvSource({
            "working-memory.max-messages=0, maxMessages, maxMessages must be positive",
            "working-memory.context-window=-1, contextWindow, contextWindowTokens must be positive",
            "working-memory.max-cached-memories=0, maxCachedMemories, maxCachedMemories must be positive",
            "working-memory.save-delay=-1s, saveDelay, saveDelay must not be negative",
            "working-memory.pause-after=0s, pauseAfter, pauseAfter must be positive",
            "working-memory.crystals.search-token-budget=0, crystals.searchTokenBudget, tokens must be positive",
            "working-memory.dreams.interval=-1m, dreams.interval, interval must be positive",
            "working-memory.dreams.min-notes=0, dreams.minNotes, minNotes must be positive"})
    void should_refuse_a_value_the_builders_refuse_naming_its_property(String property, String field, String reason) {
        runner.withPropertyValues(property).run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("on field '" + field + "'").hasMessageContaining(reason));
        // unused while the crystals are off, and refused all the same: the value is wrong wherever it is read
        runner.withPropertyValues("working-memory.crystals.enabled=false", property).run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("on field '" + field + "'"));
    }

    @Test
    void should_explain_what_the_jdbc_store_needs() {
        runner.withPropertyValues("working-memory.store.type=jdbc").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("needs a DataSource bean")
                        .hasMessageContaining("org.springframework.boot:spring-boot-starter-jdbc")
                        .hasMessageContaining("spring.datasource.url"));
        runner.withPropertyValues("working-memory.store.type=jdbc").withClassLoader(new FilteredClassLoader("dev.workingmemory.jdbc"))
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("needs dev.workingmemory:langchain4j-working-memory-jdbc on the classpath"));
    }

    @Test
    void should_refuse_a_blank_store_path_rather_than_use_the_default() {
        runner.withPropertyValues("working-memory.store.type=file", "working-memory.store.path= ").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("working-memory.store.path is blank"));
    }

    @Test
    void should_say_that_the_inspector_needs_its_module() {
        runner.withPropertyValues("working-memory.inspector.enabled=true")
                .withClassLoader(new FilteredClassLoader("dev.workingmemory.inspector"))
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("working-memory.inspector.enabled=true needs dev.workingmemory:"
                                + "langchain4j-working-memory-inspector on the classpath"));
        runner.withClassLoader(new FilteredClassLoader("dev.workingmemory.inspector"))
                .run(context -> assertThat(context).hasNotFailed());
    }

    /** The inspector is mounted on a servlet container only: elsewhere it was not served and nothing said so. */
    @Test
    void should_warn_that_the_inspector_is_not_served_outside_a_servlet_application(CapturedOutput output) {
        String warning = "working-memory.inspector.enabled=true, but this is no servlet web application";
        runner.withPropertyValues("working-memory.inspector.enabled=true").run(context ->
                assertThat(context).hasNotFailed());
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WorkingMemoryAutoConfiguration.class))
                .withPropertyValues("working-memory.inspector.enabled=true")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getOut().split(warning, -1)).hasSize(3); // once for each application

        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WorkingMemoryAutoConfiguration.class))
                .withPropertyValues("working-memory.inspector.enabled=true")
                .run(context -> assertThat(context).hasNotFailed());
        runner.run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getOut().split(warning, -1)).hasSize(3);
    }

    @Test
    void should_describe_every_property_with_its_default_for_ides() throws Exception {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        Map<String, String> defaults = new HashMap<>();
        for (JsonNode property : metadata.get("properties")) {
            assertThat(property.path("description").asText()).as(property.get("name").asText()).isNotBlank();
            defaults.put(property.get("name").asText(), property.path("defaultValue").asText());
        }
        assertThat(defaults).containsAllEntriesOf(Map.of(
                "working-memory.enabled", "true",
                "working-memory.max-messages", "20",
                "working-memory.context-window", "128000",
                "working-memory.max-cached-memories", "10000",
                "working-memory.save-delay", "1s",
                "working-memory.pause-after", "10m",
                "working-memory.store.type", "memory",
                "working-memory.store.path", "working-memory",
                "working-memory.tools.enabled", "true",
                "working-memory.tools.provider", "false"));
        assertThat(defaults).containsAllEntriesOf(Map.of(
                "working-memory.crystals.enabled", "true",
                "working-memory.crystals.past-turns", "true",
                "working-memory.crystals.search-token-budget", "600"));
    }

    @Test
    void should_turn_the_long_term_memory_off() {
        runner.run(context -> assertThat(context.getBean(WorkingMemoryProvider.class).crystalStore()).isPresent());
        runner.withPropertyValues("working-memory.crystals.enabled=false").run(context -> {
            assertThat(context.getBean(WorkingMemoryProvider.class).crystalStore()).isEmpty();
            assertThatThrownBy(() -> context.getBean(WorkingMemoryProvider.class).memory("alice").search("anything", 5))
                    .isInstanceOf(IllegalStateException.class);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean
        WorkingMemoryStore ownStore() {
            return new InMemoryWorkingMemoryStore();
        }

        @Bean
        WorkingMemoryProvider ownProvider(WorkingMemoryStore store) {
            return WorkingMemoryProvider.builder().store(store).build();
        }

        @Bean
        CoreMemoryTools ownCoreMemoryTools(WorkingMemoryProvider provider) {
            return new CoreMemoryTools(provider);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ProviderWithoutCoreMemory {
        @Bean
        WorkingMemoryProvider ownProvider() {
            return WorkingMemoryProvider.builder().withoutCoreMemory().build();
        }
    }
}
