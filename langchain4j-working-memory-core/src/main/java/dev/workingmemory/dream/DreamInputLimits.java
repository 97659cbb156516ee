package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

/**
 * Caps on a {@link DreamInput}, so that its size does not grow with the user's history: how many notes, crystals,
 * entities and slot items it takes, and how long each text may be.
 *
 * <p>Immutable and thread-safe.
 */
public final class DreamInputLimits {

    private static final DreamInputLimits DEFAULTS = builder().build();

    private final int maxNotes;
    private final int maxCrystals;
    private final int maxEntities;
    private final int maxSlotItems;
    private final int maxNoteChars;
    private final int maxCrystalChars;
    private final int maxItemChars;
    private final int maxStateChars;

    private DreamInputLimits(Builder builder) {
        this.maxNotes = builder.maxNotes;
        this.maxCrystals = builder.maxCrystals;
        this.maxEntities = builder.maxEntities;
        this.maxSlotItems = builder.maxSlotItems;
        this.maxNoteChars = builder.maxNoteChars;
        this.maxCrystalChars = builder.maxCrystalChars;
        this.maxItemChars = builder.maxItemChars;
        this.maxStateChars = builder.maxStateChars;
    }

    /**
     * 50 notes of up to 1,000 characters, 30 crystals of up to 600, 10 entities and 20 slot items of up to 200, an
     * old state of up to 16,000 characters.
     */
    public static DreamInputLimits defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The oldest pending notes a dream takes (the others wait for the next); at least 1, default 50. */
    public int maxNotes() {
        return maxNotes;
    }

    /** The most important (then most recent) new crystals a dream takes; 0 or more, default 30. */
    public int maxCrystals() {
        return maxCrystals;
    }

    /** The first non-blank entities a dream takes; 0 or more, default 10. */
    public int maxEntities() {
        return maxEntities;
    }

    /** The first non-blank slot items a dream takes; 0 or more, default 20. */
    public int maxSlotItems() {
        return maxSlotItems;
    }

    /** The longest note text a dream reads; a longer one is cut. At least 20, default 1,000. */
    public int maxNoteChars() {
        return maxNoteChars;
    }

    /** The longest crystal text a dream reads; a longer one is cut. At least 20, default 600. */
    public int maxCrystalChars() {
        return maxCrystalChars;
    }

    /** The longest entity or slot item a dream reads; a longer one is cut. At least 20, default 200. */
    public int maxItemChars() {
        return maxItemChars;
    }

    /** The longest old state a dream reads; a longer one is cut at a line boundary. At least 200, default 16,000. */
    public int maxStateChars() {
        return maxStateChars;
    }

    /**
     * The most characters an input under these limits can hold (old state, note lines, crystals, entities, slot
     * items): its size stays under this whatever the user's history.
     */
    public long maxInputChars() {
        return (long) maxStateChars + (long) maxNotes * (maxNoteChars + DreamInput.NOTE_LINE_OVERHEAD)
                + (long) maxCrystals * (maxCrystalChars + DreamInput.CRYSTAL_OVERHEAD)
                + (long) (maxEntities + maxSlotItems) * maxItemChars + DreamInput.SALIENCE_CHARS;
    }

    @Override
    public String toString() {
        return "DreamInputLimits[notes=" + maxNotes + "x" + maxNoteChars + ", crystals=" + maxCrystals + "x"
                + maxCrystalChars + ", entities=" + maxEntities + ", slotItems=" + maxSlotItems + ", itemChars="
                + maxItemChars + ", stateChars=" + maxStateChars + "]";
    }

    /** Builds {@link DreamInputLimits}. Not thread-safe. */
    public static final class Builder {

        private int maxNotes = 50;
        private int maxCrystals = 30;
        private int maxEntities = 10;
        private int maxSlotItems = 20;
        private int maxNoteChars = 1_000;
        private int maxCrystalChars = 600;
        private int maxItemChars = 200;
        private int maxStateChars = 16_000;

        private Builder() {
        }

        /** The oldest notes taken (the others wait for the next dream); default 50. */
        public Builder maxNotes(int maxNotes) {
            this.maxNotes = Ensure.positive(maxNotes, "maxNotes");
            return this;
        }

        /** The most important (then most recent) crystals taken; default 30. */
        public Builder maxCrystals(int maxCrystals) {
            this.maxCrystals = Ensure.notNegative(maxCrystals, "maxCrystals");
            return this;
        }

        /** The first non-blank entities taken; default 10. */
        public Builder maxEntities(int maxEntities) {
            this.maxEntities = Ensure.notNegative(maxEntities, "maxEntities");
            return this;
        }

        /** The first non-blank slot items taken; default 20. */
        public Builder maxSlotItems(int maxSlotItems) {
            this.maxSlotItems = Ensure.notNegative(maxSlotItems, "maxSlotItems");
            return this;
        }

        /** A longer note is cut (its crystal keeps it whole); default 1,000. */
        public Builder maxNoteChars(int maxNoteChars) {
            this.maxNoteChars = atLeast(maxNoteChars, 20, "maxNoteChars");
            return this;
        }

        /** A longer crystal text is cut; at least 20, default 600. */
        public Builder maxCrystalChars(int maxCrystalChars) {
            this.maxCrystalChars = atLeast(maxCrystalChars, 20, "maxCrystalChars");
            return this;
        }

        /** The longest entity or slot item; default 200. */
        public Builder maxItemChars(int maxItemChars) {
            this.maxItemChars = atLeast(maxItemChars, 20, "maxItemChars");
            return this;
        }

        /** A longer old state is cut at a line boundary (committed states are within budget); default 16,000. */
        public Builder maxStateChars(int maxStateChars) {
            this.maxStateChars = atLeast(maxStateChars, 200, "maxStateChars");
            return this;
        }

        private static int atLeast(int value, int min, String name) {
            Ensure.that(value >= min, name + " must be at least " + min + ", was " + value);
            return value;
        }

        /** The limits set; each setter has already checked its value. */
        public DreamInputLimits build() {
            return new DreamInputLimits(this);
        }
    }
}
