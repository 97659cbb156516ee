package dev.workingmemory.slots;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which slots the session has and how the pool decays.
 *
 * <p>The defaults are seed 003's: slots {@code error} (3 items), {@code decision} (5), {@code todo} (3) and
 * {@code dependency} (3), each keeping its newest items; a pool scored {@code exp(-0.85 * age) + mentions}, where
 * age counts the messages observed since an item was added, and pruned below 0.01. Without mentions an item thus
 * leaves the pool six messages after it came (the seed calls 0.85 "15% per event", which is the decay of
 * {@code 0.85^age}; we follow its formula, {@code exp(-0.85 * age)}, 57% per event). The pool holds at most 50
 * items, the five best shown in the block; an item holds at most 300 characters. The session acts once the memory
 * has evidence that it serves a coding agent ({@link SessionActivation#codingEvidence()}).
 *
 * <p>Immutable and thread-safe.
 */
public final class SessionSlotsConfig {

    private static final Pattern SLOT_NAME = Pattern.compile("[a-z][a-z0-9_]{0,39}");

    private final Map<String, Integer> slotLimits;
    private final double decayRate;
    private final double pruneThreshold;
    private final int poolCapacity;
    private final int poolShown;
    private final int maxItemChars;
    private final SessionExtractor extractor;
    private final SessionActivation activation;
    private final LayerBudget budget;

    private SessionSlotsConfig(Builder builder) {
        this.slotLimits = Collections.unmodifiableMap(new LinkedHashMap<>(builder.slotLimits));
        Ensure.that(builder.decayRate > 0 && Double.isFinite(builder.decayRate),
                "decayRate must be positive and finite, was " + builder.decayRate);
        Ensure.that(builder.pruneThreshold > 0 && builder.pruneThreshold < 1,
                "pruneThreshold must be between 0 and 1 (a new item scores 1), was " + builder.pruneThreshold);
        this.decayRate = builder.decayRate;
        this.pruneThreshold = builder.pruneThreshold;
        this.poolCapacity = Ensure.notNegative(builder.poolCapacity, "poolCapacity");
        this.poolShown = Ensure.notNegative(builder.poolShown, "poolShown");
        this.maxItemChars = Ensure.positive(builder.maxItemChars, "maxItemChars");
        Ensure.that(maxItemChars >= 20, "maxItemChars must be at least 20, was " + maxItemChars);
        this.extractor = builder.extractor != null ? builder.extractor : SessionExtractor.defaults();
        this.activation = builder.activation;
        this.budget = builder.budget != null ? builder.budget : LayerBudget.of(300, 1600);
    }

    /** Seed 003's slots and pool, as listed above. */
    public static SessionSlotsConfig defaults() {
        return builder().build();
    }

    /** A builder that starts with the four default slots and pool. */
    public static Builder builder() {
        return new Builder();
    }

    /** Slot names and how many items each keeps, in rendering order. */
    public Map<String, Integer> slotLimits() {
        return slotLimits;
    }

    /** gamma of {@code exp(-gamma * age)}. */
    public double decayRate() {
        return decayRate;
    }

    /** Pool items scoring below it are dropped. */
    public double pruneThreshold() {
        return pruneThreshold;
    }

    /** The most items the pool keeps (the best by score); 0 turns the pool off. */
    public int poolCapacity() {
        return poolCapacity;
    }

    /** How many of the best pool items the block shows. */
    public int poolShown() {
        return poolShown;
    }

    /** The longest item: longer extracted items are cut, longer items added by a caller are rejected. */
    public int maxItemChars() {
        return maxItemChars;
    }

    /** What finds items in messages and tool results; default {@link SessionExtractor#defaults()}. */
    public SessionExtractor extractor() {
        return extractor;
    }

    /** When the session starts to act for a memory; default {@link SessionActivation#codingEvidence()}. */
    public SessionActivation activation() {
        return activation;
    }

    /** These settings with another {@link #activation()}. */
    public SessionSlotsConfig withActivation(SessionActivation activation) {
        Builder builder = new Builder();
        builder.slotLimits.clear();
        builder.slotLimits.putAll(slotLimits);
        builder.decayRate = decayRate;
        builder.pruneThreshold = pruneThreshold;
        builder.poolCapacity = poolCapacity;
        builder.poolShown = poolShown;
        builder.maxItemChars = maxItemChars;
        builder.extractor = extractor;
        builder.budget = budget;
        return builder.activation(activation).build();
    }

    /** The layer's share of the block; by default at least 300 and at most 1,600 characters. */
    public LayerBudget budget() {
        return budget;
    }

    /** Builds a {@link SessionSlotsConfig}. Not thread-safe. */
    public static final class Builder {

        private final Map<String, Integer> slotLimits = new LinkedHashMap<>();
        private double decayRate = 0.85;
        private double pruneThreshold = 0.01;
        private int poolCapacity = 50;
        private int poolShown = 5;
        private int maxItemChars = 300;
        private SessionExtractor extractor;
        private SessionActivation activation = SessionActivation.codingEvidence();
        private LayerBudget budget;

        private Builder() {
            slotLimits.put("error", 3);
            slotLimits.put("decision", 5);
            slotLimits.put("todo", 3);
            slotLimits.put("dependency", 3);
        }

        /** Adds a slot, or changes how many items an existing one keeps. {@code pool} is not a slot name. */
        public Builder slot(String name, int maxItems) {
            Ensure.notNull(name, "name");
            Ensure.that(SLOT_NAME.matcher(name).matches(), "slot name '" + name + "' must match " + SLOT_NAME.pattern());
            Ensure.that(!SessionSlots.POOL.equals(name), "'pool' is not a slot: configure it with poolCapacity");
            slotLimits.put(name, Ensure.positive(maxItems, "maxItems"));
            return this;
        }

        /** Removes a slot, default ones included; what the extractor finds for it is then dropped. */
        public Builder withoutSlot(String name) {
            slotLimits.remove(name);
            return this;
        }

        /** gamma of the pool's decay {@code exp(-gamma * age)}; default 0.85. */
        public Builder decayRate(double decayRate) {
            this.decayRate = decayRate;
            return this;
        }

        /** Pool items scoring below it are dropped; default 0.01. */
        public Builder pruneThreshold(double pruneThreshold) {
            this.pruneThreshold = pruneThreshold;
            return this;
        }

        /** The most items the pool keeps; default 50. 0 turns the pool off. */
        public Builder poolCapacity(int poolCapacity) {
            this.poolCapacity = poolCapacity;
            return this;
        }

        /** How many of the best pool items the block shows; default 5. */
        public Builder poolShown(int poolShown) {
            this.poolShown = poolShown;
            return this;
        }

        /** The longest item in characters; default 300, at least 20. */
        public Builder maxItemChars(int maxItemChars) {
            this.maxItemChars = maxItemChars;
            return this;
        }

        /** Default: {@link SessionExtractor#defaults()}; {@link SessionExtractor#none()} turns extraction off. */
        public Builder extractor(SessionExtractor extractor) {
            this.extractor = Ensure.notNull(extractor, "extractor");
            return this;
        }

        /**
         * When the session starts to act for a memory: {@link SessionActivation#codingEvidence()} (default),
         * {@link SessionActivation#always()}, {@link SessionActivation#never()} or a rule of your own.
         */
        public Builder activation(SessionActivation activation) {
            this.activation = Ensure.notNull(activation, "activation");
            return this;
        }

        /** The layer's share of the block; by default at least 300 and at most 1,600 characters (seed 003). */
        public Builder budget(LayerBudget budget) {
            this.budget = Ensure.notNull(budget, "budget");
            return this;
        }

        /**
         * @throws IllegalArgumentException unless {@code decayRate} is positive and finite, {@code pruneThreshold} within
         *                                  (0, 1), the pool limits not negative and {@code maxItemChars} at least 20
         */
        public SessionSlotsConfig build() {
            return new SessionSlotsConfig(this);
        }
    }
}
