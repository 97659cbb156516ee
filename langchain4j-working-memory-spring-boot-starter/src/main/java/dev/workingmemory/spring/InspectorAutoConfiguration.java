package dev.workingmemory.spring;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.inspector.InspectorHandler;
import jakarta.servlet.http.HttpServlet;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * Serves the memory inspector ({@code langchain4j-working-memory-inspector}) on the application's own server under
 * {@value #PATH} when {@code working-memory.inspector.enabled=true}: a servlet registered with the application's
 * servlet container, so every filter the application maps to all requests — Spring Security's filter chain among
 * them — runs before it. Needs a servlet web application, the inspector module on the classpath and a
 * {@link WorkingMemoryProvider} bean.
 *
 * <p>Thread-safe (stateless); Spring calls it once at startup.
 */
@AutoConfiguration(after = WorkingMemoryAutoConfiguration.class)
@ConditionalOnClass({InspectorHandler.class, HttpServlet.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = InspectorProperties.PREFIX, name = "enabled", havingValue = "true")
@ConditionalOnBean(WorkingMemoryProvider.class)
@EnableConfigurationProperties(InspectorProperties.class)
public class InspectorAutoConfiguration {

    /** Where the inspector is served on the application's server. */
    public static final String PATH = "/working-memory/inspector";

    /**
     * The inspector servlet for {@code provider}, at {@link #PATH} and below; with {@code working-memory.inspector.token}
     * (an empty one counts as none) its write actions are allowed.
     */
    @Bean
    public ServletRegistrationBean<InspectorServlet> workingMemoryInspector(WorkingMemoryProvider provider,
                                                                            InspectorProperties properties) {
        String token = properties.getToken() == null || properties.getToken().isEmpty() ? null : properties.getToken();
        ServletRegistrationBean<InspectorServlet> registration = new ServletRegistrationBean<>(
                new InspectorServlet(InspectorHandler.create(provider, token), PATH), PATH, PATH + "/*");
        registration.setName("workingMemoryInspector");
        return registration;
    }
}
