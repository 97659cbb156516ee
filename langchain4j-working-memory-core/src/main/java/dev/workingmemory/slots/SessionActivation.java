package dev.workingmemory.slots;

import dev.langchain4j.data.message.ChatMessage;

/**
 * When the session (seed 003's coding tier: errors, decisions, todos, dependencies and the pool, extracted from the
 * conversation) starts to act for a memory. Until it does, the {@link SessionSlots} layer extracts nothing: a plain
 * chat's "let's go with Sunday" is no decision of a coding session, and a chat message costs it nothing (only tool
 * results are asked of the rule, which reads their text once). Items added through
 * the layer's methods and tools ({@code working_memory_add}) are kept and shown either way.
 *
 * <ul>
 *   <li>{@link #codingEvidence()} (the default): from the first tool result that is a coding agent's output (a
 *       compiler's or test runner's, a stack trace, a diff, git's status, a listing of a code base, code; see the
 *       project README). The messages of the recent turns before it (at most
 *       {@value SessionSlots#BACKLOG} messages seen since the memory was loaded) are then extracted too, so a
 *       decision the user stated before the first build is not lost. Once it acts, it acts for good (saved with the
 *       thread).</li>
 *   <li>{@link #always()}: from the first message ({@code WorkingMemoryProvider.Builder.codingAgent(true)}).</li>
 *   <li>{@link #never()}: never by itself ({@code codingAgent(false)}): only what tools add.</li>
 * </ul>
 *
 * <p>Implementations must be thread-safe, fast and must not throw.
 */
public interface SessionActivation {

    /** Whether the session acts from a memory's first message, without waiting for evidence. */
    default boolean fromStart() {
        return false;
    }

    /**
     * Whether {@code message} shows that the memory serves a coding agent. Asked only while the session waits, never
     * for the results of the memory's own tools.
     *
     * @param message a message added to the memory, its text cut to what the memory analyses
     */
    boolean isEvidence(ChatMessage message);

    /** The default: a coding agent's tool output (see the class comment). */
    static SessionActivation codingEvidence() {
        return CodingEvidence.INSTANCE;
    }

    /** From the first message. */
    static SessionActivation always() {
        return FixedActivation.ALWAYS;
    }

    /** Never by itself: the session holds what tools add. */
    static SessionActivation never() {
        return FixedActivation.NEVER;
    }
}

/** {@link SessionActivation#always()} and {@link SessionActivation#never()}. */
enum FixedActivation implements SessionActivation {
    ALWAYS, NEVER;

    @Override
    public boolean fromStart() {
        return this == ALWAYS;
    }

    @Override
    public boolean isEvidence(ChatMessage message) {
        return false;
    }
}
