package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.notes.Note;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a dream synthesizes from (seed 000: {@code New_State = f(Old_State + Notes + New_Crystals + Insights)}): the
 * old state (none before the first dream), the pending notes, the crystals created since the last dream, and
 * insights (salience levels, the most frequent entities, slot items), with the schema and the budget of the new state.
 *
 * <p><b>Bounded.</b> Every list and every text is capped by {@link DreamInputLimits}, so the input's size
 * ({@link #sizeChars()}) never passes {@link DreamInputLimits#maxInputChars()}, however long the user's history:
 * <ul>
 *   <li>notes: the <em>oldest</em> {@code maxNotes}, each text cut to {@code maxNoteChars} and to its first
 *   {@value #MAX_NOTE_TAGS} tags. {@link #consumedNotes()}
 *   are exactly the notes given to the synthesizer, unchanged, for the commit to remove from the log; notes beyond
 *   the cap stay pending for the next dream ({@link #deferredNotes()} says how many);</li>
 *   <li>crystals: the {@code maxCrystals} most important, then most recent, each text cut to
 *   {@code maxCrystalChars} (a repeated id counts once);</li>
 *   <li>entities and slot items: the first {@code maxEntities}/{@code maxSlotItems} non-blank ones, on one line, cut
 *   to {@code maxItemChars};</li>
 *   <li>the old state: cut at a line boundary to {@code maxStateChars} (a committed state is within its budget, so
 *   this only bites on a hand-written MEMORY.md).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class DreamInput {

    /** The tags of a note the synthesizer sees. */
    static final int MAX_NOTE_TAGS = 5;
    /**
     * The most characters a note line adds to its text: {@code - [2026-03-12T14:30:00Z] (importance: 0.75; tags: …) }
     * with {@value #MAX_NOTE_TAGS} tags of 40 characters.
     */
    static final int NOTE_LINE_OVERHEAD = 50 + MAX_NOTE_TAGS * 42;
    /** A note's time and importance as a line writes them. */
    private static final int NOTE_HEADER_CHARS = 44;
    /** The characters a crystal adds to its text: id, kind, time, importance. */
    static final int CRYSTAL_OVERHEAD = 120;
    /** The characters the salience levels take. */
    static final int SALIENCE_CHARS = 60;

    private final StateSchema schema;
    private final int budgetChars;
    private final Instant time;
    private final StateDocument oldState;
    private final List<Note> consumedNotes;
    private final List<Note> notes;
    private final int deferredNotes;
    private final List<DreamCrystal> crystals;
    private final SalienceLevels salience;
    private final List<String> entities;
    private final List<String> slotItems;
    private final DreamInputLimits limits;

    private DreamInput(Builder builder) {
        this.schema = builder.schema;
        this.budgetChars = builder.budgetChars;
        this.time = builder.time == null ? Instant.now() : builder.time;
        this.limits = builder.limits;
        this.oldState = builder.oldState == null ? null : boundedState(builder.oldState, schema, limits.maxStateChars());
        List<Note> pending = new ArrayList<>(builder.notes);
        pending.sort(Comparator.comparing(Note::time)); // stable: the log's order among equal times
        this.consumedNotes = List.copyOf(pending.subList(0, Math.min(limits.maxNotes(), pending.size())));
        this.deferredNotes = pending.size() - consumedNotes.size();
        this.notes = consumedNotes.stream().map(note -> bounded(note, limits.maxNoteChars())).toList();
        this.crystals = boundedCrystals(builder.crystals, limits);
        this.salience = builder.salience;
        this.entities = items(builder.entities, limits.maxEntities(), limits.maxItemChars());
        this.slotItems = items(builder.slotItems, limits.maxSlotItems(), limits.maxItemChars());
    }

    /** A builder of an input with no old state, notes, crystals or insights yet. */
    public static Builder builder() {
        return new Builder();
    }

    private static StateDocument boundedState(StateDocument state, StateSchema schema, int maxChars) {
        String text = state.render();
        if (text.length() <= maxChars && state.schema().equals(schema)) {
            return state;
        }
        String cut = StateBudget.fit(text, maxChars).replace(StateBudget.TRUNCATION_MARKER, "");
        return StateDocument.parse(cut, schema);
    }

    private static Note bounded(Note note, int maxChars) {
        if (note.text().length() <= maxChars && note.tags().size() <= MAX_NOTE_TAGS) {
            return note;
        }
        return new Note(note.time(), note.importance(), note.tags().subList(0, Math.min(MAX_NOTE_TAGS,
                note.tags().size())), StateLines.clip(note.text(), maxChars));
    }

    private static List<DreamCrystal> boundedCrystals(List<DreamCrystal> crystals, DreamInputLimits limits) {
        List<DreamCrystal> sorted = new ArrayList<>(crystals);
        sorted.sort(Comparator.comparingDouble(DreamCrystal::importance).reversed()
                .thenComparing(DreamCrystal::time, Comparator.reverseOrder()));
        Set<String> ids = new HashSet<>();
        List<DreamCrystal> kept = new ArrayList<>();
        for (DreamCrystal crystal : sorted) {
            if (kept.size() == limits.maxCrystals()) {
                break;
            }
            if (ids.add(crystal.id())) {
                kept.add(crystal.withText(StateLines.clip(crystal.text().strip(), limits.maxCrystalChars())));
            }
        }
        return List.copyOf(kept);
    }

    private static List<String> items(List<String> items, int max, int maxChars) {
        return items.stream().filter(item -> item != null && !item.isBlank())
                .map(item -> StateLines.clip(StateLines.oneLine(item), maxChars)).limit(max).toList();
    }

    /** The sections of the new state. */
    public StateSchema schema() {
        return schema;
    }

    /** The budget of the new state, in characters. */
    public int budgetChars() {
        return budgetChars;
    }

    /** The time of the dream: the new state's {@code _Last dream:}. */
    public Instant time() {
        return time;
    }

    /** The old state, in this input's schema; empty before the first dream. */
    public Optional<StateDocument> oldState() {
        return Optional.ofNullable(oldState);
    }

    /** The notes to synthesize, oldest first, texts cut to {@code maxNoteChars}. */
    public List<Note> notes() {
        return notes;
    }

    /** The notes the dream consumes, unchanged (their {@link Note#line()} is what the log holds), oldest first. */
    public List<Note> consumedNotes() {
        return consumedNotes;
    }

    /** How many pending notes were left for the next dream by {@code maxNotes}. */
    public int deferredNotes() {
        return deferredNotes;
    }

    /** The new crystals, most important then most recent first, texts cut to {@code maxCrystalChars}. */
    public List<DreamCrystal> crystals() {
        return crystals;
    }

    /** The resource's salience levels at the dream; {@link SalienceLevels#NONE} when none were given. */
    public SalienceLevels salience() {
        return salience;
    }

    /** The most frequent entities, as one-line texts. */
    public List<String> entities() {
        return entities;
    }

    /** Slot items of the session tier, as one-line texts. */
    public List<String> slotItems() {
        return slotItems;
    }

    /** The caps this input was bounded by. */
    public DreamInputLimits limits() {
        return limits;
    }

    /**
     * The size of the input in characters: the old state, the note lines, the crystals (id, kind and text), the
     * entities, the slot items and the salience levels. What a prompt adds to it is a constant.
     */
    public int sizeChars() {
        long size = oldState == null ? 0 : oldState.length();
        for (Note note : notes) {
            size += NOTE_HEADER_CHARS + note.text().length() + String.join(", ", note.tags()).length();
        }
        for (DreamCrystal crystal : crystals) {
            size += crystal.id().length() + crystal.kind().length() + crystal.text().length();
        }
        for (String item : entities) {
            size += item.length();
        }
        for (String item : slotItems) {
            size += item.length();
        }
        return (int) (size + salience.describe().length());
    }

    @Override
    public String toString() {
        return "DreamInput[oldState=" + (oldState == null ? "none" : oldState.length() + " chars") + ", notes="
                + notes.size() + (deferredNotes > 0 ? " (+" + deferredNotes + " deferred)" : "") + ", crystals="
                + crystals.size() + ", entities=" + entities.size() + ", slotItems=" + slotItems.size() + ", budget="
                + budgetChars + ", size=" + sizeChars() + "]";
    }

    /** Builds a {@link DreamInput}. Not thread-safe. */
    public static final class Builder {

        private StateSchema schema = StateSchema.defaults();
        private int budgetChars = 8_000;
        private Instant time;
        private StateDocument oldState;
        private List<Note> notes = List.of();
        private List<DreamCrystal> crystals = List.of();
        private SalienceLevels salience = SalienceLevels.NONE;
        private List<String> entities = List.of();
        private List<String> slotItems = List.of();
        private DreamInputLimits limits = DreamInputLimits.defaults();

        private Builder() {
        }

        /** The sections of the new state; default {@link StateSchema#defaults()}. */
        public Builder schema(StateSchema schema) {
            this.schema = Ensure.notNull(schema, "schema");
            return this;
        }

        /** The budget of the new state in characters (see {@link StateBudget}); default 8,000. */
        public Builder budgetChars(int budgetChars) {
            Ensure.that(budgetChars >= 200, "budgetChars must be at least 200, was " + budgetChars);
            this.budgetChars = budgetChars;
            return this;
        }

        /** The time of the dream; default the time {@link #build()} runs. */
        public Builder time(Instant time) {
            this.time = Ensure.notNull(time, "time");
            return this;
        }

        /** The committed state, or {@code null} before the first dream. */
        public Builder oldState(StateDocument oldState) {
            this.oldState = oldState;
            return this;
        }

        /** The pending notes (up to the sequence number the dream consumes). */
        public Builder notes(List<Note> notes) {
            this.notes = List.copyOf(Ensure.notNull(notes, "notes"));
            return this;
        }

        /** The crystals created since the last dream. */
        public Builder crystals(List<DreamCrystal> crystals) {
            this.crystals = List.copyOf(Ensure.notNull(crystals, "crystals"));
            return this;
        }

        /** The resource's salience levels; default {@link SalienceLevels#NONE}. */
        public Builder salience(SalienceLevels salience) {
            this.salience = Ensure.notNull(salience, "salience");
            return this;
        }

        /** The most frequent entities, most frequent first, e.g. {@code "About Us" (page-123)}. */
        public Builder entities(List<String> entities) {
            this.entities = new ArrayList<>(Ensure.notNull(entities, "entities"));
            return this;
        }

        /** Items of the session's typed slots, e.g. {@code goal: ship v2}. */
        public Builder slotItems(List<String> slotItems) {
            this.slotItems = new ArrayList<>(Ensure.notNull(slotItems, "slotItems"));
            return this;
        }

        /** The caps on the lists and texts; default {@link DreamInputLimits#defaults()}. */
        public Builder limits(DreamInputLimits limits) {
            this.limits = Ensure.notNull(limits, "limits");
            return this;
        }

        /** The input, with every list and text bounded by the limits. */
        public DreamInput build() {
            return new DreamInput(this);
        }
    }
}
