package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.notes.Note;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Judges a synthesized state against the old one before it is committed (seed 000's catastrophic collapse guards,
 * plus the schema and the budget). The guards run in this order and the first that fails names the verdict:
 * <ol>
 *   <li>{@link DreamGuard#MISSING_SECTION}: a section of the schema is missing;</li>
 *   <li>{@link DreamGuard#EMPTY_SYNTHESIS}: the sections hold less than {@code minSubstanceChars} (default 50)
 *   characters of <em>substance</em> — text other than headings, whitespace, placeholder lines ({@code None},
 *   {@code N/A}, {@code -}, {@code None yet.}, …) and italic labels ending with a colon. <b>A young state</b> is held
 *   to what it could say: the threshold is lowered to the substance the input offered (the old state's substance
 *   plus the characters of the notes), so the first dream of a user with one short note passes with that note,
 *   while a state that drops everything still fails;</li>
 *   <li>{@link DreamGuard#POINTER_RUNAWAY}: more than {@code maxPointers} (default 20) pointer lines, counted in
 *   the text the synthesizer wrote, anywhere in it, before any pointer is checked or dropped;</li>
 *   <li>{@link DreamGuard#MASS_DROP}: the old state is mature (more than {@code matureChars}, default 2,000) and the
 *   new one is shorter than {@code minRetainedRatio} (default 50%) of it;</li>
 *   <li>{@link DreamGuard#OVER_BUDGET}: the new state is longer than the input's budget.</li>
 * </ol>
 * Lengths are those of the normalized documents ({@link StateDocument#render()}), what a commit stores. The verdict
 * lists each guard that ran with what it measured ({@link GuardVerdict#checks()}).
 *
 * <p>Immutable and thread-safe.
 */
public final class CollapseGuards {

    private final int matureChars;
    private final double minRetainedRatio;
    private final int maxPointers;
    private final int minSubstanceChars;

    private CollapseGuards(Builder builder) {
        this.matureChars = builder.matureChars;
        this.minRetainedRatio = builder.minRetainedRatio;
        this.maxPointers = builder.maxPointers;
        this.minSubstanceChars = builder.minSubstanceChars;
    }

    /** Seed 000's thresholds: mature 2,000, 50% retained, 20 pointers, 50 characters of substance. */
    public static CollapseGuards defaults() {
        return builder().build();
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The most pointer lines a synthesis may write; default 20. */
    public int maxPointers() {
        return maxPointers;
    }

    /** Judges {@code candidate} (markdown as synthesized) against {@code input}'s old state, schema and budget. */
    public GuardVerdict judge(DreamInput input, String candidate) {
        Ensure.notNull(input, "input");
        int offered = input.oldState().map(StateDocument::substanceChars).orElse(0) + substanceOf(input.notes());
        return judge(input.schema(), input.oldState().orElse(null), candidate, input.budgetChars(), offered);
    }

    /**
     * Judges {@code candidate} against {@code oldState} ({@code null} when there is none).
     *
     * @param offeredSubstance the substance the synthesizer was given (see the class comment); use
     *                         {@link Integer#MAX_VALUE} for the plain seed threshold
     */
    public GuardVerdict judge(StateSchema schema, StateDocument oldState, String candidate, int budgetChars,
                              int offeredSubstance) {
        Ensure.notNull(schema, "schema");
        Ensure.notNull(candidate, "candidate");
        Ensure.positive(budgetChars, "budgetChars");
        StateDocument state = StateDocument.parse(candidate, schema);
        List<GuardCheck> checks = new ArrayList<>(DreamGuard.values().length);

        List<String> missing = state.missingSections();
        if (!missing.isEmpty()) {
            String what = missing.size() == schema.names().size() ? "all " + missing.size() + " sections"
                    : missing.size() + " of " + schema.names().size() + " sections";
            return fail(checks, DreamGuard.MISSING_SECTION, "The state lacks " + what + ": "
                    + String.join(", ", missing), state);
        }
        checks.add(GuardCheck.pass(DreamGuard.MISSING_SECTION, "all " + schema.names().size() + " sections present"));
        int required = Math.min(minSubstanceChars, Math.max(0, offeredSubstance));
        int substance = state.substanceChars();
        if (substance < required) {
            return fail(checks, DreamGuard.EMPTY_SYNTHESIS, "The sections hold " + substance
                    + " characters of substance, fewer than " + required, state);
        }
        checks.add(GuardCheck.pass(DreamGuard.EMPTY_SYNTHESIS, String.format(Locale.ROOT,
                "%,d characters of substance, at least %,d required", substance, required)));
        long pointers = StateLines.lines(candidate).stream().filter(l -> CrystalPointer.parse(l).isPresent()).count();
        if (pointers > maxPointers) {
            return fail(checks, DreamGuard.POINTER_RUNAWAY, "The synthesis wrote " + pointers
                    + " crystal pointers, more than " + maxPointers, state);
        }
        checks.add(GuardCheck.pass(DreamGuard.POINTER_RUNAWAY, pointers + (pointers == 1 ? " pointer" : " pointers")
                + ", at most " + maxPointers));
        if (oldState != null && oldState.length() > matureChars
                && state.length() < minRetainedRatio * oldState.length()) {
            return fail(checks, DreamGuard.MASS_DROP, String.format(Locale.ROOT,
                    "The state shrank from %,d to %,d characters (%.0f%%), below %.0f%% of a mature state",
                    oldState.length(), state.length(), 100.0 * state.length() / oldState.length(),
                    100 * minRetainedRatio), state);
        }
        checks.add(GuardCheck.pass(DreamGuard.MASS_DROP, massDropPassed(oldState, state)));
        if (state.length() > budgetChars) {
            return fail(checks, DreamGuard.OVER_BUDGET, String.format(Locale.ROOT,
                    "The state has %,d characters, %,d over its budget of %,d", state.length(),
                    state.length() - budgetChars, budgetChars), state);
        }
        checks.add(GuardCheck.pass(DreamGuard.OVER_BUDGET, String.format(Locale.ROOT,
                "%,d characters, within the budget of %,d", state.length(), budgetChars)));
        return GuardVerdict.pass(state, checks);
    }

    private static GuardVerdict fail(List<GuardCheck> checks, DreamGuard guard, String reason, StateDocument state) {
        checks.add(GuardCheck.fail(guard, reason));
        return GuardVerdict.fail(guard, reason, state, checks);
    }

    private String massDropPassed(StateDocument oldState, StateDocument state) {
        if (oldState == null) {
            return "no old state to compare with";
        }
        if (oldState.length() <= matureChars) {
            return String.format(Locale.ROOT, "the old state (%,d characters) is not mature (over %,d)",
                    oldState.length(), matureChars);
        }
        return String.format(Locale.ROOT, "kept %,d of %,d characters (%.0f%%), at least %.0f%% required",
                state.length(), oldState.length(), 100.0 * state.length() / oldState.length(), 100 * minRetainedRatio);
    }

    /** The substance a set of notes offers: the characters of their texts. */
    static int substanceOf(List<Note> notes) {
        return notes.stream().mapToInt(note -> note.text().strip().length()).sum();
    }

    @Override
    public String toString() {
        return "CollapseGuards[mature=" + matureChars + ", retained=" + minRetainedRatio + ", maxPointers="
                + maxPointers + ", minSubstance=" + minSubstanceChars + "]";
    }

    /** Builds {@link CollapseGuards}. Not thread-safe. */
    public static final class Builder {

        private int matureChars = 2_000;
        private double minRetainedRatio = 0.5;
        private int maxPointers = 20;
        private int minSubstanceChars = 50;

        private Builder() {
        }

        /** The length from which an old state is mature and protected from a mass drop; default 2,000. */
        public Builder matureChars(int matureChars) {
            this.matureChars = Ensure.notNegative(matureChars, "matureChars");
            return this;
        }

        /** The share of a mature state's length a new state must keep; default 0.5. */
        public Builder minRetainedRatio(double ratio) {
            Ensure.that(ratio >= 0 && ratio <= 1, "minRetainedRatio must be between 0 and 1, was " + ratio);
            this.minRetainedRatio = ratio;
            return this;
        }

        /** The most pointers a synthesis may write; default 20. */
        public Builder maxPointers(int maxPointers) {
            this.maxPointers = Ensure.notNegative(maxPointers, "maxPointers");
            return this;
        }

        /** The least substance of a state, in characters; default 50. */
        public Builder minSubstanceChars(int minSubstanceChars) {
            this.minSubstanceChars = Ensure.notNegative(minSubstanceChars, "minSubstanceChars");
            return this;
        }

        /** The guards with the thresholds set. */
        public CollapseGuards build() {
            return new CollapseGuards(this);
        }
    }
}
