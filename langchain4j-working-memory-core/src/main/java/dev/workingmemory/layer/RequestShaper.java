package dev.workingmemory.layer;

/**
 * A {@link MemoryLayer} that also shapes every request before it is sent: it may send a shorter copy of a tool result
 * (same id and tool name, so tool-call pairs stay intact), or move the oldest turns out of the message window when the
 * request would not fit the model's context window. Implement it beside {@code MemoryLayer}; the memory calls
 * {@link #shape} in {@code messages()} for every layer that does, in block order.
 *
 * <p>Called holding the thread's lock, once per model call: keep it cheap when nothing changed (cache by message
 * identity). What is stored is never changed: the message store keeps the full messages.
 */
public interface RequestShaper {

    /** Changes {@code request} in place, before it is sent: the messages it sends, never those stored. */
    void shape(RequestDraft request);

    /**
     * The model's listener saw the request last shaped go out with tool specifications of {@code tokens} tokens, which
     * {@link RequestDraft#toolTokens()} may not have counted yet (a conversation's first requests). Called without the
     * memory's lock, from the model's thread. Default: nothing.
     */
    default void toolSpecificationsSent(int tokens) {
    }
}
