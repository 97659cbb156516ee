package dev.workingmemory.tools;

import dev.langchain4j.agent.tool.Tool;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.WorkingMemoryProvider;

import java.lang.reflect.Method;

/**
 * Registers the tools of this module's beans as the memory's own ({@link MemoryToolNames}): their results are answers
 * of the memory about itself, which it never prunes nor mines. The names are read from the beans' {@link Tool}
 * annotations, so a tool added to a bean is registered without a second list. Thread-safe (stateless).
 */
final class OwnTools {

    private OwnTools() {
    }

    /** Registers the tools of {@code beanType} with {@code provider}'s memory and returns the provider. */
    static WorkingMemoryProvider register(WorkingMemoryProvider provider, Class<?> beanType) {
        Checks.notNull(provider, "provider");
        MemoryToolNames names = provider.memoryToolNames();
        for (Method method : beanType.getMethods()) {
            Tool tool = method.getAnnotation(Tool.class);
            if (tool != null) {
                names.register(tool.name().isBlank() ? method.getName() : tool.name());
            }
        }
        return provider;
    }
}
