package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a provider dreams (seed 000): when (every {@link Builder#interval interval} for resources with at least
 * {@link Builder#minNotes minNotes} pending notes, and on demand), with which state schema, guards and input limits,
 * how long a synthesis may take, how many dream records are kept for rollback, how salience is scored and noted,
 * and which hand-written MEMORY.md files to migrate.
 *
 * <pre>{@code
 * WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
 *         .dreamModel(model)
 *         .dreams(DreamConfig.builder().interval(Duration.ofHours(4)).minNotes(10).build())
 *         .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class DreamConfig {

    private final Duration interval;
    private final int minNotes;
    private final boolean scheduled;
    private final StateSchema schema;
    private final CollapseGuards guards;
    private final DreamInputLimits limits;
    private final Duration timeout;
    private final Duration leaseTtl;
    private final int recordsKept;
    private final SalienceScorer salienceScorer;
    private final Duration salienceHalfLife;
    private final Duration autoNoteInterval;
    private final Duration consolidationInterval;
    private final String promptTemplate;
    private final Map<String, Path> seedFiles;

    private DreamConfig(Builder builder) {
        Ensure.that(builder.leaseTtl.compareTo(builder.timeout) > 0, "leaseTtl (" + builder.leaseTtl
                + ") must be longer than the synthesis timeout (" + builder.timeout + "): a dream still running must"
                + " keep its lease");
        this.interval = builder.interval;
        this.minNotes = builder.minNotes;
        this.scheduled = builder.scheduled;
        this.schema = builder.schema;
        this.guards = builder.guards;
        this.limits = builder.limits;
        this.timeout = builder.timeout;
        this.leaseTtl = builder.leaseTtl;
        this.recordsKept = builder.recordsKept;
        this.salienceScorer = builder.salienceScorer;
        this.salienceHalfLife = builder.salienceHalfLife;
        this.autoNoteInterval = builder.autoNoteInterval;
        this.consolidationInterval = builder.consolidationInterval;
        this.promptTemplate = builder.promptTemplate;
        this.seedFiles = Map.copyOf(builder.seedFiles);
    }

    /** Every 120 minutes from 5 notes, seed 000's schema and guards, 2-minute synthesis timeout, 10 records kept. */
    public static DreamConfig defaults() {
        return builder().build();
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** How often the background scheduler looks for resources to dream; default 120 minutes. */
    public Duration interval() {
        return interval;
    }

    /** The pending notes from which a resource dreams on schedule; at least 1, default 5. */
    public int minNotes() {
        return minNotes;
    }

    /** Whether dreams and auto-notes run on a background scheduler; default true. */
    public boolean scheduled() {
        return scheduled;
    }

    /** The sections of the state document; default {@link StateSchema#defaults()}. */
    public StateSchema schema() {
        return schema;
    }

    /** The guards a synthesized state must pass before it is committed; default {@link CollapseGuards#defaults()}. */
    public CollapseGuards guards() {
        return guards;
    }

    /** What a dream reads of the notes, crystals and salience; default {@link DreamInputLimits#defaults()}. */
    public DreamInputLimits limits() {
        return limits;
    }

    /** The longest a synthesis may take before the dream fails and changes nothing; default 2 minutes. */
    public Duration timeout() {
        return timeout;
    }

    /** How long a dream holds its resource's lease in the store; longer than {@link #timeout()}, default 10 minutes. */
    public Duration leaseTtl() {
        return leaseTtl;
    }

    /** The dream records kept per resource, that is how many dreams can be rolled back; at least 1, default 10. */
    public int recordsKept() {
        return recordsKept;
    }

    /** Scores messages for salience; default {@link SalienceScorer#lexicon()}. */
    public SalienceScorer salienceScorer() {
        return salienceScorer;
    }

    /** The time in which a salience level halves; default 2 hours. */
    public Duration salienceHalfLife() {
        return salienceHalfLife;
    }

    /** The least time between two auto-notes of one hormone; default 30 minutes. */
    public Duration autoNoteInterval() {
        return autoNoteInterval;
    }

    /** How often the scheduler writes the auto-notes that are due; default 1 minute. */
    public Duration consolidationInterval() {
        return consolidationInterval;
    }

    /** The replacement of the dream prompt, if one was given. */
    public Optional<String> promptTemplate() {
        return Optional.ofNullable(promptTemplate);
    }

    /** The hand-written MEMORY.md to migrate for {@code resource}, if one was given. */
    public Optional<Path> seedFile(String resource) {
        return Optional.ofNullable(seedFiles.get(resource));
    }

    /** Builds a {@link DreamConfig}. Not thread-safe. */
    public static final class Builder {

        private Duration interval = Duration.ofMinutes(120);
        private int minNotes = 5;
        private boolean scheduled = true;
        private StateSchema schema = StateSchema.defaults();
        private CollapseGuards guards = CollapseGuards.defaults();
        private DreamInputLimits limits = DreamInputLimits.defaults();
        private Duration timeout = Duration.ofMinutes(2);
        private Duration leaseTtl = Duration.ofMinutes(10);
        private int recordsKept = 10;
        private SalienceScorer salienceScorer = SalienceScorer.lexicon();
        private Duration salienceHalfLife = Duration.ofHours(2);
        private Duration autoNoteInterval = Duration.ofMinutes(30);
        private Duration consolidationInterval = Duration.ofMinutes(1);
        private String promptTemplate;
        private final Map<String, Path> seedFiles = new HashMap<>();

        private Builder() {
        }

        /** How often the background scheduler looks for resources to dream; default 120 minutes (seed 000). */
        public Builder interval(Duration interval) {
            this.interval = positive(interval, "interval");
            return this;
        }

        /** The pending notes from which a resource dreams on schedule; default 5 (seed 000). */
        public Builder minNotes(int minNotes) {
            this.minNotes = Ensure.positive(minNotes, "minNotes");
            return this;
        }

        /** Whether dreams and auto-notes run on a background scheduler; default true. Dreams on demand always run. */
        public Builder scheduled(boolean scheduled) {
            this.scheduled = scheduled;
            return this;
        }

        /** The sections of the state document; default {@link StateSchema#defaults()}. */
        public Builder schema(StateSchema schema) {
            this.schema = Ensure.notNull(schema, "schema");
            return this;
        }

        /** The guards a synthesized state must pass before it is committed; default {@link CollapseGuards#defaults()}. */
        public Builder guards(CollapseGuards guards) {
            this.guards = Ensure.notNull(guards, "guards");
            return this;
        }

        /** What a dream reads of the notes, crystals and salience; default {@link DreamInputLimits#defaults()}. */
        public Builder limits(DreamInputLimits limits) {
            this.limits = Ensure.notNull(limits, "limits");
            return this;
        }

        /** The longest a synthesis may take before the dream fails and changes nothing; default 2 minutes. */
        public Builder timeout(Duration timeout) {
            this.timeout = positive(timeout, "timeout");
            return this;
        }

        /**
         * How long a dream holds its resource's lease in the store (one dream per resource, also across application
         * instances); a dreamer that crashed blocks others this long at most. Longer than {@link #timeout}; default 10
         * minutes.
         */
        public Builder leaseTtl(Duration leaseTtl) {
            this.leaseTtl = positive(leaseTtl, "leaseTtl");
            return this;
        }

        /** The dream records kept per resource, that is how many dreams can be rolled back; default 10. */
        public Builder recordsKept(int recordsKept) {
            this.recordsKept = Ensure.positive(recordsKept, "recordsKept");
            return this;
        }

        /** Scores messages for salience; default {@link SalienceScorer#lexicon()}. */
        public Builder salienceScorer(SalienceScorer scorer) {
            this.salienceScorer = Ensure.notNull(scorer, "scorer");
            return this;
        }

        /** The time in which a salience level halves; default 2 hours. */
        public Builder salienceHalfLife(Duration halfLife) {
            this.salienceHalfLife = positive(halfLife, "halfLife");
            return this;
        }

        /** The least time between two auto-notes of one hormone; default 30 minutes (seed 000). */
        public Builder autoNoteInterval(Duration interval) {
            Ensure.notNull(interval, "interval");
            Ensure.that(!interval.isNegative(), "autoNoteInterval must not be negative, was " + interval);
            this.autoNoteInterval = interval;
            return this;
        }

        /** How often the scheduler writes the auto-notes that are due; default 1 minute. */
        public Builder consolidationInterval(Duration interval) {
            this.consolidationInterval = positive(interval, "consolidationInterval");
            return this;
        }

        /** Replaces the dream model's prompt (see {@link LlmDreamSynthesizer}). */
        public Builder promptTemplate(String template) {
            this.promptTemplate = Ensure.notBlank(template, "template");
            return this;
        }

        /**
         * A hand-written MEMORY.md to migrate, once, when {@code resource} is first used (seed 000's seed migration).
         * Without one, a {@code MEMORY.md} document found in the store for the resource (for the file store: the
         * file in the resource's directory) is migrated.
         */
        public Builder seedFile(String resource, Path file) {
            seedFiles.put(Ensure.notNull(resource, "resource"), Ensure.notNull(file, "file"));
            return this;
        }

        private static Duration positive(Duration duration, String name) {
            Ensure.notNull(duration, name);
            Ensure.that(!duration.isNegative() && !duration.isZero(), name + " must be positive, was " + duration);
            return duration;
        }

        /** @throws IllegalArgumentException when the lease is not longer than the timeout */
        public DreamConfig build() {
            return new DreamConfig(this);
        }
    }
}
