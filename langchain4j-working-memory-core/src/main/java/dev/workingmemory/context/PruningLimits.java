package dev.workingmemory.context;

import dev.workingmemory.internal.Ensure;

/**
 * The limits of one {@link PruningMode}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxLines      outputs with more lines are pruned: listings and runs of similar lines collapsed, and cut to
 *                      head and tail when still longer than {@code headLines + tailLines} (seed 003 keeps 30 + 30 of
 *                      an output over 50 lines, so one of 51 to 61 lines is only collapsed)
 * @param headLines     lines kept from the start
 * @param tailLines     lines kept from the end
 * @param maxErrorLines error lines kept from the part that is cut
 * @param maxLineChars  lines (a single-line output too: minified JSON, base64) longer than this are cut to their
 *                      first and last {@code maxLineChars * 2 / 5} characters
 */
public record PruningLimits(int maxLines, int headLines, int tailLines, int maxErrorLines, int maxLineChars) {

    /**
     * Rejects, with an {@link IllegalArgumentException}: {@code maxLines} below 1, a negative count, no line kept at
     * all ({@code headLines + tailLines == 0}) and {@code maxLineChars} below 100.
     */
    public PruningLimits {
        Ensure.positive(maxLines, "maxLines");
        Ensure.notNegative(headLines, "headLines");
        Ensure.notNegative(tailLines, "tailLines");
        Ensure.that(headLines + tailLines > 0, "headLines + tailLines must be positive");
        Ensure.notNegative(maxErrorLines, "maxErrorLines");
        Ensure.that(maxLineChars >= 100, "maxLineChars must be at least 100, was " + maxLineChars);
    }

    /** The same as the constructor. */
    public static PruningLimits of(int maxLines, int headLines, int tailLines, int maxErrorLines, int maxLineChars) {
        return new PruningLimits(maxLines, headLines, tailLines, maxErrorLines, maxLineChars);
    }

    /** Characters kept from each end of a line longer than {@link #maxLineChars}. */
    int lineEndChars() {
        return maxLineChars * 2 / 5;
    }
}
