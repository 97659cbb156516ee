package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The three salience levels of a resource at one moment, each from 0 to 1 (also used for how much one message
 * raises them, see {@link SalienceScorer}).
 *
 * <p>The {@link #mood()} names each level of at least 0.4, strongest first: dopamine "motivated" (0.7 and more:
 * "energized"), cortisol "cautious" ("stressed"), oxytocin "socially engaged" ("deeply connected"); "calm" when none is.
 *
 * <p>Immutable and thread-safe.
 *
 * @param dopamine breakthroughs and success, 0 to 1
 * @param cortisol friction, errors and frustration, 0 to 1
 * @param oxytocin bonding and gratitude, 0 to 1
 */
public record SalienceLevels(double dopamine, double cortisol, double oxytocin) {

    /** All levels at zero. */
    public static final SalienceLevels NONE = new SalienceLevels(0, 0, 0);

    static final double MILD = 0.4;
    static final double STRONG = 0.7;

    /** Rejects a level outside 0–1 with an {@link IllegalArgumentException}. */
    public SalienceLevels {
        check(dopamine, "dopamine");
        check(cortisol, "cortisol");
        check(oxytocin, "oxytocin");
    }

    private static void check(double level, String name) {
        Ensure.that(level >= 0 && level <= 1, () -> name + " must be between 0 and 1, was " + level);
    }

    /** The level of {@code hormone}, 0 to 1. */
    public double level(Hormone hormone) {
        return switch (Ensure.notNull(hormone, "hormone")) {
            case DOPAMINE -> dopamine;
            case CORTISOL -> cortisol;
            case OXYTOCIN -> oxytocin;
        };
    }

    /** These levels with {@code hormone} at {@code level}. */
    public SalienceLevels with(Hormone hormone, double level) {
        return new SalienceLevels(hormone == Hormone.DOPAMINE ? level : dopamine,
                hormone == Hormone.CORTISOL ? level : cortisol, hormone == Hormone.OXYTOCIN ? level : oxytocin);
    }

    /** The text of the state's Mood line, e.g. {@code motivated, socially engaged}. */
    public String mood() {
        List<Hormone> felt = new ArrayList<>(Arrays.stream(Hormone.values()).filter(h -> level(h) >= MILD).toList());
        if (felt.isEmpty()) {
            return "calm";
        }
        felt.sort(Comparator.comparingDouble(this::level).reversed()); // stable: enum order among equals
        return String.join(", ", felt.stream().map(this::word).toList());
    }

    private String word(Hormone hormone) {
        boolean strong = level(hormone) >= STRONG;
        return switch (hormone) {
            case DOPAMINE -> strong ? "energized" : "motivated";
            case CORTISOL -> strong ? "stressed" : "cautious";
            case OXYTOCIN -> strong ? "deeply connected" : "socially engaged";
        };
    }

    /** {@code dopamine 0.82, cortisol 0.10, oxytocin 0.45}. */
    public String describe() {
        return String.format(Locale.ROOT, "dopamine %.2f, cortisol %.2f, oxytocin %.2f", dopamine, cortisol, oxytocin);
    }
}
