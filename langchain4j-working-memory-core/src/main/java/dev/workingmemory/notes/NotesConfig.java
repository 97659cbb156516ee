package dev.workingmemory.notes;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;

import java.util.List;
import java.util.Set;

/**
 * How the notes layer keeps the notes log (seeds 000 and 004): the budget of pending notes, the tags that protect a
 * note from archival, the size of a note and of the {@code <unsynthesized_notes>} part of the block.
 *
 * <p>Budget, checked on every append: when the log holds {@link #softLimit()} notes or more, the oldest
 * {@link #batchSize()} notes without a protected tag are <em>archived</em> (they leave the log and the block and stay
 * searchable as crystals); when it holds {@link #hardLimit()} or more, the oldest {@code batchSize} notes are
 * <em>deleted</em>, whatever their tags, crystals included.
 *
 * <p>Notes with a {@link #hiddenTags() hidden tag} are kept for the next dream but not shown in the block: by default
 * the salience auto-notes ({@code auto}), which restate a message of the conversation with a hormone's name ("oxytocin
 * spike (bonding/gratitude detected) … trigger: user message "Thanks, …"); the model has read that message, and a
 * companion chat piled up two or three of them per half hour of talk, some 600 tokens on every call until a dream
 * took them.
 *
 * <p>Immutable and thread-safe.
 */
public final class NotesConfig {

    /** Seed 004's protected tags. */
    public static final Set<String> DEFAULT_PROTECTED_TAGS =
            Set.of("insight", "permanent", "personal", "decision", "architecture", "important");
    /** The tag of the salience auto-notes ({@code dev.workingmemory.dream.AutoNote#TAG}), hidden by default. */
    public static final Set<String> DEFAULT_HIDDEN_TAGS = Set.of("auto");

    private final int softLimit;
    private final int hardLimit;
    private final int batchSize;
    private final Set<String> protectedTags;
    private final Set<String> hiddenTags;
    private final int maxNoteChars;
    private final double defaultImportance;
    private final LayerBudget budget;

    private NotesConfig(Builder builder) {
        Ensure.that(builder.softLimit < builder.hardLimit, "softLimit (" + builder.softLimit
                + ") must be below hardLimit (" + builder.hardLimit + ")");
        Ensure.that(builder.batchSize <= builder.softLimit, "batchSize (" + builder.batchSize
                + ") must not exceed softLimit (" + builder.softLimit + ")");
        this.softLimit = builder.softLimit;
        this.hardLimit = builder.hardLimit;
        this.batchSize = builder.batchSize;
        this.protectedTags = builder.protectedTags;
        this.hiddenTags = builder.hiddenTags;
        this.maxNoteChars = builder.maxNoteChars;
        this.defaultImportance = builder.defaultImportance;
        this.budget = builder.budget;
    }

    /**
     * Soft 35, hard 50, batches of 10, seed 004's protected tags, the auto-notes hidden, notes of up to 2,000
     * characters, importance 0.7.
     */
    public static NotesConfig defaults() {
        return builder().build();
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Notes in the log from which the oldest unprotected ones are archived; default 35, below {@link #hardLimit()}. */
    public int softLimit() {
        return softLimit;
    }

    /** Notes in the log from which the oldest are deleted, protected or not; default 50. */
    public int hardLimit() {
        return hardLimit;
    }

    /** How many notes one archival or deletion takes; default 10, at most {@link #softLimit()}. */
    public int batchSize() {
        return batchSize;
    }

    /** Tags that keep a note from archival at the soft limit (not from deletion); default {@link #DEFAULT_PROTECTED_TAGS}. */
    public Set<String> protectedTags() {
        return protectedTags;
    }

    /** Tags whose notes wait for the next dream without being shown in {@code <unsynthesized_notes>}. */
    public Set<String> hiddenTags() {
        return hiddenTags;
    }

    /** The longest note accepted, in characters; default 2,000. */
    public int maxNoteChars() {
        return maxNoteChars;
    }

    /** The importance of a note taken without one, 0 to 1; default 0.7. */
    public double defaultImportance() {
        return defaultImportance;
    }

    /** The characters {@code <unsynthesized_notes>} may take in the block; default 300 to 2,500. */
    public LayerBudget budget() {
        return budget;
    }

    /** Builds a {@link NotesConfig}. Not thread-safe. */
    public static final class Builder {

        private int softLimit = 35;
        private int hardLimit = 50;
        private int batchSize = 10;
        private Set<String> protectedTags = DEFAULT_PROTECTED_TAGS;
        private Set<String> hiddenTags = DEFAULT_HIDDEN_TAGS;
        private int maxNoteChars = 2_000;
        private double defaultImportance = 0.7;
        private LayerBudget budget = LayerBudget.of(300, 2_500);

        private Builder() {
        }

        /** Notes in the log from which the oldest unprotected ones are archived; default 35. */
        public Builder softLimit(int softLimit) {
            this.softLimit = Ensure.positive(softLimit, "softLimit");
            return this;
        }

        /** Notes in the log from which the oldest are deleted, protected or not; default 50. */
        public Builder hardLimit(int hardLimit) {
            this.hardLimit = Ensure.positive(hardLimit, "hardLimit");
            return this;
        }

        /** How many notes one archival or deletion takes; default 10. */
        public Builder batchSize(int batchSize) {
            this.batchSize = Ensure.positive(batchSize, "batchSize");
            return this;
        }

        /** Tags that keep a note from archival at the soft limit (not from deletion at the hard limit). */
        public Builder protectedTags(Set<String> tags) {
            Ensure.notNull(tags, "tags");
            this.protectedTags = Set.copyOf(tags.stream().map(Note::tag).toList());
            return this;
        }

        /**
         * Tags whose notes are kept for the next dream (and stay in the notes log, searchable) but not shown in the
         * block; default {@code auto}, the salience auto-notes. An empty set shows every note.
         */
        public Builder hiddenTags(Set<String> tags) {
            Ensure.notNull(tags, "tags");
            this.hiddenTags = Set.copyOf(tags.stream().map(Note::tag).toList());
            return this;
        }

        /** The longest note accepted, in characters; default 2,000. */
        public Builder maxNoteChars(int maxNoteChars) {
            this.maxNoteChars = Ensure.positive(maxNoteChars, "maxNoteChars");
            return this;
        }

        /** The importance of a note taken without one; default 0.7 (seed 000). */
        public Builder defaultImportance(double importance) {
            Ensure.that(importance >= 0 && importance <= 1, "defaultImportance must be between 0 and 1, was " + importance);
            this.defaultImportance = importance;
            return this;
        }

        /** The characters {@code <unsynthesized_notes>} may take in the block; default 300 to 2,500. */
        public Builder budget(LayerBudget budget) {
            this.budget = Ensure.notNull(budget, "budget");
            return this;
        }

        /** @throws IllegalArgumentException unless {@code batchSize <= softLimit < hardLimit} */
        public NotesConfig build() {
            return new NotesConfig(this);
        }
    }

    @Override
    public String toString() {
        return "NotesConfig[soft=" + softLimit + ", hard=" + hardLimit + ", batch=" + batchSize + ", protected="
                + List.copyOf(protectedTags) + ", maxNoteChars=" + maxNoteChars + "]";
    }
}
