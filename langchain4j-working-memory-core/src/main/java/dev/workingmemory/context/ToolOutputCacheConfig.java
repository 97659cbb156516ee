package dev.workingmemory.context;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Passages;

import java.time.Duration;

/**
 * How the tool-output cache keeps the full outputs of pruned tool results and how it is swept (seed 003, storage
 * governance): every 500 events (messages) of a memory, its cache keeps its newest 300 entries and deletes those
 * older than 7 days. The full outputs are written off the request path by one background thread; at most
 * {@code maxPendingWrites} wait for it, beyond that the caller writes the output itself rather than lose it.
 *
 * <p>Immutable and thread-safe.
 */
public final class ToolOutputCacheConfig {

    private final int sweepEveryEvents;
    private final int keepNewest;
    private final Duration maxAge;
    private final int maxPendingWrites;
    private final int crystalChunkChars;
    private final ToolOutputCrystals crystals;

    private ToolOutputCacheConfig(Builder builder) {
        this.sweepEveryEvents = Ensure.positive(builder.sweepEveryEvents, "sweepEveryEvents");
        this.keepNewest = Ensure.notNegative(builder.keepNewest, "keepNewest");
        Ensure.notNull(builder.maxAge, "maxAge");
        Ensure.that(!builder.maxAge.isNegative() && !builder.maxAge.isZero(), "maxAge must be positive, was "
                + builder.maxAge);
        this.maxAge = builder.maxAge;
        this.maxPendingWrites = Ensure.positive(builder.maxPendingWrites, "maxPendingWrites");
        Ensure.that(builder.crystalChunkChars >= 200, "crystalChunkChars must be at least 200, was "
                + builder.crystalChunkChars);
        this.crystalChunkChars = builder.crystalChunkChars;
        this.crystals = Ensure.notNull(builder.crystals, "crystals");
    }

    public static ToolOutputCacheConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A memory's cache is swept after every this many of its messages; default 500. */
    public int sweepEveryEvents() {
        return sweepEveryEvents;
    }

    /** A sweep keeps at most this many entries of a memory, the newest; default 300. */
    public int keepNewest() {
        return keepNewest;
    }

    /** A sweep deletes entries older than this; default 7 days. */
    public Duration maxAge() {
        return maxAge;
    }

    /** Full outputs waiting for the writer thread before callers write their own; default 64. */
    public int maxPendingWrites() {
        return maxPendingWrites;
    }

    /**
     * The most characters each crystal of a full output holds; default 1,500. Not yet the size of other passages
     * ({@link Passages#MAX_SIZE}, by their estimated tokens): with passages that small, a pointer's keywords to an
     * output could quote three of its words in a row (an injected instruction reached the block;
     * ToolOutputProvenanceContract). Counted in characters, not yet by tokens as other passages are: an output of
     * more than 600 CJK characters in one crystal is more than the search's 600-token budget and never a hit itself
     * (its past turn's line, cut into passages, still is).
     */
    public int crystalChunkChars() {
        return crystalChunkChars;
    }

    /** Where crystals of the full outputs go; default {@link ToolOutputCrystals#NONE}. */
    public ToolOutputCrystals crystals() {
        return crystals;
    }

    /** This configuration with {@code crystals} instead (the provider gives its crystal store when none was set). */
    public ToolOutputCacheConfig withCrystals(ToolOutputCrystals crystals) {
        return builder().sweepEveryEvents(sweepEveryEvents).keepNewest(keepNewest).maxAge(maxAge)
                .maxPendingWrites(maxPendingWrites).crystalChunkChars(crystalChunkChars).crystals(crystals).build();
    }

    /** Builds a {@link ToolOutputCacheConfig}. Not thread-safe. */
    public static final class Builder {

        private int sweepEveryEvents = 500;
        private int keepNewest = 300;
        private Duration maxAge = Duration.ofDays(7);
        private int maxPendingWrites = 64;
        private int crystalChunkChars = 1_500;
        private ToolOutputCrystals crystals = ToolOutputCrystals.NONE;

        private Builder() {
        }

        public Builder sweepEveryEvents(int events) {
            this.sweepEveryEvents = events;
            return this;
        }

        public Builder keepNewest(int entries) {
            this.keepNewest = entries;
            return this;
        }

        public Builder maxAge(Duration maxAge) {
            this.maxAge = maxAge;
            return this;
        }

        public Builder maxPendingWrites(int writes) {
            this.maxPendingWrites = writes;
            return this;
        }

        public Builder crystalChunkChars(int chars) {
            this.crystalChunkChars = chars;
            return this;
        }

        public Builder crystals(ToolOutputCrystals crystals) {
            this.crystals = crystals;
            return this;
        }

        public ToolOutputCacheConfig build() {
            return new ToolOutputCacheConfig(this);
        }
    }
}
