package dev.workingmemory.dream;

/**
 * Scores a message for salience: how much it raises each level, from 0 (not at all) to 1. A level {@code l} raised by
 * {@code r} becomes {@code 1 - (1 - l)(1 - r)}, so levels never pass 1.
 *
 * <p>Implementations must be thread-safe; the memory calls them for each user and assistant message and tool result.
 */
@FunctionalInterface
public interface SalienceScorer {

    /** How much {@code text} from {@code source} raises each level; {@link SalienceLevels#NONE} for nothing. */
    SalienceLevels score(SalienceSource source, String text);

    /**
     * The default scorer: offline rules over a small English lexicon, deterministic.
     * <ul>
     *   <li>User and assistant messages: each cue found adds 0.5 when strong ("finally works", "breakthrough", "this is
     *   so frustrating", "still failing", "thank you so much", "grateful") and 0.25 when mild ("great", "fixed",
     *   "error", "stuck", "thanks", "appreciate"); a word inside a strong cue is not counted again. The sum is
     *   multiplied by the intensity: +15% per exclamation mark (up to three), +15% for an intensifier ("so",
     *   "really", "very", "finally", …), +15% for a shouted word (three or more capitals). Assistant messages
     *   count half: they say less about the user.</li>
     *   <li>Tool results raise cortisol only: 0.4 for a stack trace (Java or Python), 0.2 for each of {@code ERROR},
     *   {@code FAILED}/{@code FAILURE}, {@code FATAL}, an {@code …Exception} or {@code error:}; a tool error adds 0.3
     *   to that.</li>
     *   <li>One text raises a level by at most 0.9: only a run of them saturates it. Only the first 8,000
     *   characters of a text are read.</li>
     * </ul>
     */
    static SalienceScorer lexicon() {
        return LexiconSalienceScorer.INSTANCE;
    }
}
