package dev.workingmemory.notes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.event.NoteAppended;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;
import dev.workingmemory.store.WorkingMemoryStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The notes the agent took and no dream has consumed yet (seed 000's scratch buffer, a write-ahead log), rendered as
 * {@code <unsynthesized_notes>}, newest first. Resource-scoped: every conversation of the user sees them. Notes with a
 * hidden tag ({@link NotesConfig#hiddenTags()}: by default the salience auto-notes) wait for the dream unshown.
 *
 * <p>The notes live in the store's notes log of the resource ({@link WorkingMemoryStore#appendNote}), not in the
 * resource's snapshot: {@link #note} appends one line and returns once it is durable, without reading and rewriting
 * anything, so two application instances taking notes for one user at once keep all of them. Notes appended by
 * another instance are taken in when the memory checks its store ({@link #refresh()}). Each append also checks the
 * budget ({@link NotesConfig}): at the soft limit the oldest unprotected notes are archived, at the hard limit the
 * oldest are deleted; each note is also a crystal ({@link NoteCrystals}).
 *
 * <p>Thread-safe: every method holds the resource's lock.
 */
public final class NotesLayer implements MemoryLayer {

    /** The layer's name: its tag in the block and its key in snapshots. */
    public static final String NAME = "unsynthesized_notes";
    private static final Logger log = LoggerFactory.getLogger(NotesLayer.class);
    private static final String OPEN_TAG = "<" + NAME + ">";
    private static final String CLOSE_TAG = "</" + NAME + ">";

    private final LayerContext context;
    private final NotesConfig config;
    private final WorkingMemoryStore store;
    private final NoteCrystals crystals;
    private final String logKey;
    /** The log as last read, oldest first. */
    private List<Note> notes = List.of();
    /** {@link WorkingMemoryStore#notesVersion} of {@link #notes}; -1 before the first read. */
    private long readVersion = -1;

    private NotesLayer(LayerContext context, NotesConfig config, WorkingMemoryStore store, NoteCrystals crystals) {
        this.context = context;
        this.config = config;
        this.store = store;
        this.crystals = crystals;
        this.logKey = context.key().resourceStoreKey();
    }

    /** Notes layers (resource-scoped) that keep their notes in {@code store}'s notes log. */
    public static MemoryLayerFactory factory(NotesConfig config, WorkingMemoryStore store, NoteCrystals crystals) {
        Ensure.notNull(config, "config");
        Ensure.notNull(store, "store");
        Ensure.notNull(crystals, "crystals");
        return new MemoryLayerFactory() {
            @Override
            public LayerScope scope() {
                return LayerScope.RESOURCE;
            }

            @Override
            public MemoryLayer create(LayerContext context) {
                return new NotesLayer(Ensure.notNull(context, "context"), config, store, crystals);
            }
        };
    }

    /** The budget and limits this layer keeps the notes log by. */
    public NotesConfig config() {
        return config;
    }

    /**
     * Takes a note: appends it to the notes log (durable when this returns), makes it a crystal, and applies the
     * budget. The note's time is the memory's clock, to the second. The text is {@link BlockText#clean cleaned} and
     * stripped first: the note holds what every store keeps exactly.
     *
     * @param text       the note; not blank, at most {@link NotesConfig#maxNoteChars()} characters (cleaned)
     * @param importance from 0 to 1; {@code null} for {@link NotesConfig#defaultImportance()}
     * @param tags       tags such as {@code decision} ({@link NotesConfig#protectedTags()} protect from archival)
     * @throws IllegalArgumentException for an empty or too long text, an importance outside 0–1 or a malformed or null tag,
     *                                  with a message saying what to change
     * @throws dev.workingmemory.store.WorkingMemoryStoreException when the store cannot append it (nothing changed)
     */
    public NoteReceipt note(String text, Double importance, Collection<String> tags) {
        String trimmed = text == null ? "" : BlockText.clean(text).strip();
        Ensure.that(!trimmed.isEmpty(), "The note is empty: write what must be remembered.");
        Ensure.that(trimmed.length() <= config.maxNoteChars(), "The note is " + trimmed.length()
                + " characters long, over the limit of " + config.maxNoteChars() + " by "
                + (trimmed.length() - config.maxNoteChars()) + ". Shorten it or split it into several notes.");
        double value = importance == null ? config.defaultImportance() : importance;
        Ensure.that(!Double.isNaN(value) && value >= 0 && value <= 1,
                "The importance must be a number from 0 to 1 (0.7 when unsure), was " + importance + ".");
        Note note = new Note(context.clock().instant(), value, tags == null ? List.of() : tagList(tags), trimmed);
        NoteReceipt receipt = context.read(() -> {
            store.appendNote(logKey, note.line());
            crystals.added(context.key().resource(), note);
            List<Note> all = readLog();
            List<Note> archived = List.of();
            List<Note> deleted = List.of();
            if (all.size() >= config.hardLimit()) {
                deleted = all.subList(0, config.batchSize());
                removeFromLog(deleted);
                crystals.deleted(context.key().resource(), deleted);
                log.warn("Notes of '{}' at the hard limit ({}/{}): deleted the oldest {}", context.key().resource(),
                        all.size(), config.hardLimit(), deleted.size());
            } else if (all.size() >= config.softLimit()) {
                archived = all.stream().filter(n -> !n.hasAnyTag(config.protectedTags())).limit(config.batchSize()).toList();
                removeFromLog(archived);
                crystals.archived(context.key().resource(), archived);
                log.info("Notes of '{}' at the soft limit ({}/{}): archived the oldest {} without a protected tag",
                        context.key().resource(), all.size(), config.softLimit(), archived.size());
            }
            if (!archived.isEmpty() || !deleted.isEmpty()) {
                all = readLog();
            }
            context.refreshed();
            return new NoteReceipt(note, all.size(), archived, deleted);
        });
        context.events().onNoteAppended(new NoteAppended(context.key().resource(), note, receipt.pending(),
                receipt.archived().size(), receipt.deleted().size()));
        return receipt;
    }

    /**
     * Appends {@code notes} as they are, each with its own time, and makes them crystals: a sub-agent's copy of its
     * parent's pending notes ({@link dev.workingmemory.WorkingMemoryProvider#fork}). The budget is not applied: they
     * fit the parent's.
     */
    public void copy(List<Note> notes) {
        Ensure.notNull(notes, "notes");
        if (notes.isEmpty()) {
            return;
        }
        context.read(() -> {
            for (Note note : notes) {
                store.appendNote(logKey, note.line());
                crystals.added(context.key().resource(), note);
            }
            context.refreshed();
            return null;
        });
    }

    /** {@code tags} as a list; a null tag (a model may send {@code "tags": [null]}) is rejected by its position. */
    private static List<String> tagList(Collection<String> tags) {
        List<String> list = new ArrayList<>(tags.size());
        for (String tag : tags) {
            Ensure.that(tag != null, () -> "Tag " + (list.size() + 1) + " of " + tags.size() + " is null: a tag is 1 to 40"
                    + " letters, digits, '-' or '_'. Leave tags out, or send them as strings.");
            list.add(tag);
        }
        return list;
    }

    /** The pending notes, oldest first. */
    public List<Note> notes() {
        return context.read(() -> notes);
    }

    /**
     * Removes {@code consumed} from the notes log (a dream took them into the state); notes appended since stay.
     * Their crystals stay.
     */
    public void remove(Collection<Note> consumed) {
        Ensure.notNull(consumed, "consumed");
        context.read(() -> {
            removeFromLog(consumed);
            readLog();
            context.refreshed();
            return null;
        });
    }

    /** The budget's figures, as {@code working_memory_stats} reports them. */
    public NotesStats stats() {
        return context.read(() -> NotesStats.of(notes.size(), config));
    }

    @Override
    public boolean refresh() {
        long version = store.notesVersion(logKey);
        if (version == readVersion) {
            return false;
        }
        List<Note> before = notes;
        readLog();
        if (before.equals(notes)) {
            return false;
        }
        Set<Note> known = new HashSet<>(before);
        List<Note> found = notes.stream().filter(note -> !known.contains(note)).toList();
        if (!found.isEmpty()) {
            crystals.found(context.key().resource(), found);
        }
        return true;
    }

    /** Reads the log again; lines that are not notes (edited by hand) are skipped with a warning. */
    private List<Note> readLog() {
        long version = store.notesVersion(logKey);
        List<String> lines = store.notes(logKey);
        List<Note> read = new ArrayList<>(lines.size());
        for (String line : lines) {
            Note.parse(line).ifPresentOrElse(read::add, () -> log.warn(
                    "Skipping a line of the notes of '{}' that is not a note: {}", context.key().resource(), line));
        }
        notes = List.copyOf(read);
        readVersion = version;
        return notes;
    }

    private void removeFromLog(Collection<Note> removed) {
        if (!removed.isEmpty()) {
            store.removeNotes(logKey, removed.stream().map(Note::line).toList());
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.RESOURCE;
    }

    @Override
    public int order() {
        return 20;
    }

    @Override
    public int priority() {
        return 85;
    }

    @Override
    public LayerBudget budget() {
        return config.budget();
    }

    /**
     * Newest first, as many whole notes as fit, then how many older ones are not shown; notes with a hidden tag
     * ({@link NotesConfig#hiddenTags()}) are neither shown nor counted.
     */
    @Override
    public String render(int maxChars) {
        List<Note> notes = shown(this.notes);
        if (notes.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(OPEN_TAG);
        int shown = 0;
        for (int i = notes.size() - 1; i >= 0; i--) {
            String line = "\n" + BlockText.escape(notes.get(i).line());
            int remaining = i; // older notes after this one
            String more = remaining == 0 ? "" : moreLine(remaining);
            if (out.length() + line.length() + more.length() + CLOSE_TAG.length() + 1 > maxChars) {
                break;
            }
            out.append(line);
            shown++;
        }
        if (shown == 0) {
            String more = moreLine(notes.size());
            return OPEN_TAG.length() + more.length() + CLOSE_TAG.length() + 1 <= maxChars
                    ? OPEN_TAG + more + "\n" + CLOSE_TAG : "";
        }
        if (shown < notes.size()) {
            out.append(moreLine(notes.size() - shown));
        }
        return out.append('\n').append(CLOSE_TAG).toString();
    }

    private List<Note> shown(List<Note> all) {
        if (config.hiddenTags().isEmpty()) {
            return all;
        }
        List<Note> shown = new ArrayList<>(all.size());
        for (Note note : all) {
            if (Collections.disjoint(note.tags(), config.hiddenTags())) {
                shown.add(note);
            }
        }
        return shown.size() == all.size() ? all : shown;
    }

    /** How many are not shown, and the tool that finds them when the model has it. */
    private String moreLine(int count) {
        return "\n(" + count + " older note" + (count == 1 ? "" : "s") + " not shown"
                + (context.offersTool(MemoryToolNames.MEMORY_SEARCH) ? ": " + MemoryToolNames.MEMORY_SEARCH
                + " finds them)" : ")");
    }

    /** The notes live in the store's notes log, not in the snapshot. */
    @Override
    public JsonNode snapshot() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public void restore(JsonNode snapshot) {
        // nothing: see snapshot()
    }
}
