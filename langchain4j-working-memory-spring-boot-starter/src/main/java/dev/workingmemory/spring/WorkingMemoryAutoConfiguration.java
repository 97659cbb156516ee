package dev.workingmemory.spring;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.jdbc.JdbcWorkingMemoryStore;
import dev.workingmemory.metrics.WorkingMemoryMetrics;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.tools.WorkingMemoryTools;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.nio.file.Path;

/**
 * Auto-configures a {@link WorkingMemoryProvider} (a LangChain4j {@code ChatMemoryProvider}, which
 * {@code @AiService} interfaces pick up), its {@link WorkingMemoryStore}, the tool beans of
 * {@link WorkingMemoryTools#all} and, with Micrometer and a {@code MeterRegistry}, {@link WorkingMemoryMetrics}, from
 * the {@code working-memory.*} properties ({@link WorkingMemoryProperties}). Each bean backs off when the application
 * defines its own. The provider is closed when the context closes, which saves what is pending.
 *
 * <p>Thread-safe (stateless); Spring calls it once at startup.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(WorkingMemoryProvider.class)
@ConditionalOnProperty(prefix = WorkingMemoryProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(WorkingMemoryProperties.class)
public class WorkingMemoryAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WorkingMemoryAutoConfiguration.class);

    /**
     * The store of {@code working-memory.store.type}, unless the application defines one: in memory, or files in
     * {@code working-memory.store.path}; for {@code jdbc} the JDBC module's configuration defines it.
     *
     * @throws IllegalStateException for {@code jdbc} without the JDBC module, or a blank {@code store.path}
     */
    @Bean
    @ConditionalOnMissingBean
    public WorkingMemoryStore workingMemoryStore(WorkingMemoryProperties properties, Environment environment) {
        return switch (properties.getStore().getType()) {
            case MEMORY -> new InMemoryWorkingMemoryStore();
            case FILE -> new FileWorkingMemoryStore(storePath(properties, environment));
            // JdbcStoreConfiguration defines the store when the module is there
            case JDBC -> throw new IllegalStateException("working-memory.store.type=jdbc needs dev.workingmemory:"
                    + "langchain4j-working-memory-jdbc on the classpath (dev.workingmemory.jdbc.JdbcWorkingMemoryStore"
                    + " was not found)");
        };
    }

    /**
     * The file store's directory. Spring leaves the default in place for a blank value ({@code store.path=}, or an
     * environment variable set empty), which would put every user's memory in {@code ./working-memory} unannounced.
     */
    private static Path storePath(WorkingMemoryProperties properties, Environment environment) {
        String given = environment.getProperty(WorkingMemoryProperties.PREFIX + ".store.path");
        if (given != null && given.isBlank()) {
            throw new IllegalStateException(WorkingMemoryProperties.PREFIX + ".store.path is blank: name the directory"
                    + " of the file store, or leave the property out for ./working-memory");
        }
        return properties.getStore().getPath();
    }

    /**
     * Built from the properties with the store (which keeps the messages too), the application's
     * {@link ChatMemoryStore} if it has one (the messages go there instead), and every {@link WorkingMemoryListener}
     * bean. Closed with the context (Spring calls {@code close()}).
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public WorkingMemoryProvider workingMemoryProvider(WorkingMemoryProperties properties, WorkingMemoryStore store,
                                                       ObjectProvider<ChatMemoryStore> chatMemoryStore,
                                                       ObjectProvider<WorkingMemoryListener> listeners,
                                                       BeanFactory beans) {
        WorkingMemoryProvider.Builder builder = ProviderSettings.builder(properties).store(store);
        String dreamModel = properties.getDreams().getModel();
        if (dreamModel != null && !dreamModel.isBlank()) {
            try {
                builder.dreamModel(beans.getBean(dreamModel, ChatModel.class));
            } catch (BeansException e) {
                throw new IllegalStateException(WorkingMemoryProperties.PREFIX + ".dreams.model=" + dreamModel
                        + " names no ChatModel bean of the application: " + e.getMessage(), e);
            }
        }
        chatMemoryStore.ifAvailable(builder::chatMemoryStore);
        listeners.orderedStream().forEach(builder::listener);
        return builder.build();
    }

    /**
     * The provider's {@link WorkingMemoryProvider#chatModelListener()}: LangChain4j's model starters give their models
     * every {@link ChatModelListener} bean, so that context pressure counts the tool specifications the model
     * receives. A model the application builds itself takes it with {@code .listeners(...)}.
     */
    @Bean
    @ConditionalOnBean(WorkingMemoryProvider.class)
    public ChatModelListener workingMemoryChatModelListener(WorkingMemoryProvider provider) {
        return provider.chatModelListener();
    }

    /**
     * {@code working-memory.store.type=jdbc} with langchain4j-working-memory-jdbc on the classpath: the store on the
     * application's {@link DataSource}, which keeps the message windows too. Member classes are registered before the
     * outer bean methods, so the store bean above backs off.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JdbcWorkingMemoryStore.class)
    @ConditionalOnProperty(prefix = WorkingMemoryProperties.PREFIX, name = "store.type", havingValue = "jdbc")
    static class JdbcStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkingMemoryStore workingMemoryStore(ObjectProvider<DataSource> dataSource) {
            return new JdbcWorkingMemoryStore(dataSource.getIfAvailable(() -> {
                throw new IllegalStateException("working-memory.store.type=jdbc needs a DataSource bean: add"
                        + " org.springframework.boot:spring-boot-starter-jdbc, which makes one from spring.datasource.*"
                        + " (spring.datasource.url=jdbc:postgresql://…), or define one");
            }));
        }
    }

    /**
     * {@code working-memory.inspector.enabled=true} without langchain4j-working-memory-inspector on the classpath:
     * startup fails saying so, as {@code store.type=jdbc} does without its module, rather than serve nothing silently.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = InspectorProperties.PREFIX, name = "enabled", havingValue = "true")
    @ConditionalOnMissingClass("dev.workingmemory.inspector.InspectorHandler")
    static class InspectorModuleMissing {

        InspectorModuleMissing() {
            throw new IllegalStateException(InspectorProperties.PREFIX + ".enabled=true needs dev.workingmemory:"
                    + "langchain4j-working-memory-inspector on the classpath (dev.workingmemory.inspector.InspectorHandler"
                    + " was not found)");
        }
    }

    /**
     * {@code working-memory.inspector.enabled=true} in an application that is no servlet web application (a reactive
     * one, or none): {@link InspectorAutoConfiguration} mounts the inspector on a servlet container only, so it is not
     * served, and a WARN says so and what to do instead, rather than nothing at all.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = InspectorProperties.PREFIX, name = "enabled", havingValue = "true")
    @ConditionalOnClass(name = "dev.workingmemory.inspector.InspectorHandler")
    @Conditional(NotServletApplication.class)
    static class InspectorNotServed {

        InspectorNotServed() {
            log.warn("{}.enabled=true, but this is no servlet web application (a reactive one, or none): the inspector"
                    + " is mounted on a servlet container only and is not served. Start"
                    + " dev.workingmemory.inspector.MemoryInspector on a port of its own instead", InspectorProperties.PREFIX);
        }
    }

    /** Matches unless the application is a servlet web application. */
    static class NotServletApplication extends NoneNestedConditions {

        NotServletApplication() {
            super(ConfigurationPhase.PARSE_CONFIGURATION);
        }

        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
        static class Servlet {
        }
    }

    /** The tool beans, registered by class so that LangChain4j's {@code @AiService} wiring finds their tools. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(WorkingMemoryTools.class)
    @ConditionalOnProperty(prefix = WorkingMemoryProperties.PREFIX, name = "tools.enabled", matchIfMissing = true)
    @Import(WorkingMemoryToolsRegistrar.class)
    static class ToolsConfiguration {
    }

    /** Meters fed by the provider's events, when the application has Micrometer and a registry (Actuator). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkingMemoryMetrics workingMemoryMetrics(MeterRegistry registry) {
            return new WorkingMemoryMetrics(registry);
        }

        /** The gauges read the provider, which needs the metrics as a listener first: registered once both exist. */
        @Bean
        SmartInitializingSingleton workingMemoryGauges(WorkingMemoryMetrics metrics,
                                                       ObjectProvider<WorkingMemoryProvider> provider) {
            return () -> provider.ifUnique(metrics::monitor);
        }
    }
}
