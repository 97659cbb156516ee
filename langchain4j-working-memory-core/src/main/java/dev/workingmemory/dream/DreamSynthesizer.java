package dev.workingmemory.dream;

/**
 * Rewrites the state document from a {@link DreamInput}: {@link LlmDreamSynthesizer} through a LangChain4j
 * {@code ChatModel}, {@link OfflineDreamSynthesizer} without one.
 *
 * <p>A synthesizer only proposes: the dream engine judges the result with the {@link CollapseGuards} and the
 * {@link PointerCheck} before it commits anything, and treats an exception as a failed dream that changes nothing.
 *
 * <p>Implementations must be thread-safe: one synthesizer serves every resource.
 */
@FunctionalInterface
public interface DreamSynthesizer {

    /** The new state proposed for {@code input}, not yet judged; an exception fails the dream and changes nothing. */
    Synthesis synthesize(DreamInput input);
}
