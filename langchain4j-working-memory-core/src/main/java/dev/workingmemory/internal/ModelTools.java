package dev.workingmemory.internal;

import dev.workingmemory.MemoryToolNames;

/**
 * What a provider knows of the tools its models are offered, for a memory whose requests its model listener has not
 * seen ({@link ScopeState#offersTool}): nothing once the application took the listener (it will see this memory's
 * requests, and a tool named meanwhile might be missing), else the memory's registered tools (the tools module's beans
 * made for the provider).
 *
 * <p>Thread-safe.
 */
public final class ModelTools {

    private final MemoryToolNames registered;
    private volatile boolean listening;

    /** @param registered the memory's registered tools, or null for none */
    public ModelTools(MemoryToolNames registered) {
        this.registered = registered;
    }

    /** The application took the provider's model listener: from now on each memory's own requests tell its tools. */
    public void listenerTaken() {
        listening = true;
    }

    /** Whether a layer may name {@code toolName} to a memory whose requests the listener has not seen. */
    boolean offeredUnseen(String toolName) {
        return !listening && registered != null && registered.contains(toolName);
    }

    /** Changes whenever {@link #offeredUnseen} may answer otherwise; only ever grows. */
    long generation() {
        return (registered == null ? 0 : registered.count()) + (listening ? 1 : 0);
    }
}
