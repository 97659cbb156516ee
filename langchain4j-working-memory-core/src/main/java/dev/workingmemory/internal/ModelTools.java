package dev.workingmemory.internal;

import dev.workingmemory.MemoryToolNames;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a provider knows of the tools its models are offered, for a memory whose requests its model listener has not
 * seen yet ({@link ScopeState#offersTool}): the tools that every request the listener matched to a memory carried (an
 * application whose agents all have the memory's tools gets them named from a conversation's first request; one whose
 * agents differ, only what all of them have), and before it matched any, or without it, the memory's registered tools
 * (the tools module's beans made for the provider). Likewise the tokens of their specifications: the fewest any matched
 * request carried, which context pressure counts for a memory whose own requests it has not matched yet (a
 * conversation's first request, when the memory sends no system message for the listener to recognize it by).
 *
 * <p>Thread-safe.
 */
public final class ModelTools {

    private final MemoryToolNames registered;
    /** The tools of every request the listener matched to a memory; null before the first. */
    private volatile Set<String> common;
    private final AtomicLong commonChanges = new AtomicLong();
    /** The fewest tokens of tool specifications any matched request carried; -1 before the first. */
    private final AtomicInteger fewestToolTokens = new AtomicInteger(-1);

    /** @param registered the memory's registered tools, or null for none */
    public ModelTools(MemoryToolNames registered) {
        this.registered = registered;
    }

    /** The listener saw a memory's request carry {@code toolNames}, their specifications {@code tokens} tokens. */
    public void seen(Set<String> toolNames, int tokens) {
        fewestToolTokens.accumulateAndGet(tokens, (known, seen) -> known < 0 ? seen : Math.min(known, seen));
        Set<String> before = common;
        if (before != null && toolNames.containsAll(before)) {
            return; // the usual case: the same agent's tools again
        }
        synchronized (this) {
            Set<String> next = new HashSet<>(common == null ? toolNames : common);
            next.retainAll(toolNames);
            if (!next.equals(common)) {
                common = Set.copyOf(next);
                commonChanges.incrementAndGet();
            }
        }
    }

    /** Whether a layer may name {@code toolName} to a memory whose requests the listener has not seen. */
    boolean offeredUnseen(String toolName) {
        Set<String> known = common;
        return known != null ? known.contains(toolName) : registered != null && registered.contains(toolName);
    }

    /** The tool specifications' tokens to count for a memory whose requests the listener has not matched: 0 before any. */
    public int toolTokensUnseen() {
        return Math.max(0, fewestToolTokens.get());
    }

    /** Changes whenever {@link #offeredUnseen} may answer otherwise; only ever grows. */
    long generation() {
        return (registered == null ? 0 : registered.count()) + commonChanges.get();
    }
}
