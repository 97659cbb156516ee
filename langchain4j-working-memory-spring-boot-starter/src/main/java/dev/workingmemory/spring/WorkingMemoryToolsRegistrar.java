package dev.workingmemory.spring;

import dev.langchain4j.service.tool.ToolProvider;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.tools.WorkingMemoryTools;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import java.beans.Introspector;
import java.util.List;

/**
 * With {@code working-memory.tools.provider=true}: registers one {@code ToolProvider} bean,
 * {@value #TOOL_PROVIDER}, {@link WorkingMemoryTools#toolProvider} of the provider bean (a layer's tools offered only
 * where it acts). Else registers one bean per tool bean of {@link WorkingMemoryTools#all}, by its class: LangChain4j's {@code @AiService}
 * wiring collects the {@code @Tool} methods of beans whose definition names their class, which a {@code @Bean} method
 * returning a list (or {@code Object}) would not. Which classes: those {@code all} returns for a provider configured by
 * the same properties; each bean is then taken from {@code all} of the provider bean. A tool class the application
 * already defines a bean of is skipped.
 */
class WorkingMemoryToolsRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

    static final String TOOL_PROVIDER = "workingMemoryToolProvider";

    private Environment environment;
    private BeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        if (Binder.get(environment).bind(WorkingMemoryProperties.PREFIX + ".tools.provider", Boolean.class).orElse(false)) {
            if (!registry.containsBeanDefinition(TOOL_PROVIDER)) {
                registry.registerBeanDefinition(TOOL_PROVIDER, new RootBeanDefinition(ToolProvider.class,
                        () -> WorkingMemoryTools.toolProvider(beanFactory.getBean(WorkingMemoryProvider.class))));
            }
            return;
        }
        for (Class<?> type : toolTypes()) {
            if (beanFactory instanceof ListableBeanFactory beans && beans.getBeanNamesForType(type, true, false).length > 0) {
                continue;
            }
            registry.registerBeanDefinition(Introspector.decapitalize(type.getSimpleName()),
                    definition(type, beanFactory));
        }
    }

    private static <T> RootBeanDefinition definition(Class<T> type, BeanFactory beanFactory) {
        return new RootBeanDefinition(type, () -> toolOf(type, beanFactory.getBean(WorkingMemoryProvider.class)));
    }

    /** The classes of the tool beans a provider built from the properties gets; the provider is built and dropped. */
    private List<Class<?>> toolTypes() {
        // validated as the properties bean is, so that a bad value fails here naming its property too
        WorkingMemoryProperties properties = Binder.get(environment)
                .bind(WorkingMemoryProperties.PREFIX, Bindable.of(WorkingMemoryProperties.class),
                        new ValidationBindHandler(new WorkingMemoryProperties()))
                .orElseGet(WorkingMemoryProperties::new);
        try (WorkingMemoryProvider probe = ProviderSettings.builder(properties).build()) {
            return WorkingMemoryTools.all(probe).stream().<Class<?>>map(Object::getClass).toList();
        }
    }

    static <T> T toolOf(Class<T> type, WorkingMemoryProvider provider) {
        return WorkingMemoryTools.all(provider).stream().filter(type::isInstance).map(type::cast).findFirst()
                .orElseThrow(() -> new IllegalStateException("The WorkingMemoryProvider bean lacks the layer that "
                        + type.getSimpleName() + " works on. Set working-memory.tools.enabled=false and define the "
                        + "tool beans that fit it (WorkingMemoryTools.all(provider))"));
    }
}
