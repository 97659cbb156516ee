package dev.workingmemory.notes;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Passages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link NoteCrystals#into}: notes as crystals of a {@link CrystalStore}, in the scope of
 * {@link MemoryKey#crystalScope()}. The crystal id ({@link CrystalIds}) hashes the scope with the note's line, so the
 * same note gets the same crystal in every instance and after a restart, and two users' identical notes never share
 * one. A note longer than a passage ({@link Passages#MAX_SIZE} by {@link Passages#size}) is kept as its passages ({@code <id>#0},
 * {@code #1}, ...), like past turns and tool outputs, so that one note never fills a search's budget.
 *
 * <p>Thread-safe (the store is).
 */
final class NotesAsCrystals implements NoteCrystals {

    private static final Logger log = LoggerFactory.getLogger(NotesAsCrystals.class);
    private static final String SOURCE = "notes log";

    private final CrystalStore crystals;

    NotesAsCrystals(CrystalStore crystals) {
        this.crystals = Ensure.notNull(crystals, "crystals");
    }

    @Override
    public void added(String resource, Note note) {
        add(resource, List.of(note), CrystalKind.NOTE);
    }

    @Override
    public void archived(String resource, List<Note> notes) {
        add(resource, notes, CrystalKind.ARCHIVED_NOTE);
    }

    @Override
    public void deleted(String resource, List<Note> notes) {
        String scope = MemoryKey.of(resource).crystalScope();
        try {
            crystals.delete(scope, notes.stream().flatMap(note -> ids(scope, note).stream()).toList());
        } catch (RuntimeException e) {
            log.warn("Could not delete the crystals of {} deleted note(s) of '{}'", notes.size(), resource, e);
        }
    }

    @Override
    public void found(String resource, List<Note> notes) {
        String scope = MemoryKey.of(resource).crystalScope();
        try {
            List<Note> missing = notes.stream().filter(note -> crystals.get(ids(scope, note).get(0)).isEmpty()).toList();
            if (!missing.isEmpty()) {
                log.info("{} note(s) of '{}' had no crystal; indexing them", missing.size(), resource);
                add(resource, missing, CrystalKind.NOTE);
            }
        } catch (RuntimeException e) {
            log.warn("Could not check the crystals of {} note(s) of '{}'", notes.size(), resource, e);
        }
    }

    private void add(String resource, List<Note> notes, CrystalKind kind) {
        if (notes.isEmpty()) {
            return;
        }
        String scope = MemoryKey.of(resource).crystalScope();
        try {
            List<Crystal> made = new ArrayList<>();
            for (Note note : notes) {
                List<String> passages = passages(note);
                List<String> ids = ids(scope, note, passages.size());
                List<String> tags = passages.size() == 1 ? note.tags() : Passages.pieceTags(note.tags());
                for (int i = 0; i < passages.size(); i++) {
                    made.add(new Crystal(ids.get(i), scope, kind, note.time(), note.importance(), tags,
                            passages.get(i), SOURCE));
                }
            }
            crystals.add(made);
        } catch (RuntimeException e) {
            // the note is in the log either way; the next load of the memory tries again (found)
            log.warn("Could not make {} note(s) of '{}' crystals", notes.size(), resource, e);
        }
    }

    static String id(String scope, Note note) {
        return CrystalIds.of("note", scope, note.line());
    }

    /** The note's text whole when it fits a passage (and half again), else its passages. */
    private static List<String> passages(Note note) {
        return Passages.size(note.text()) <= Passages.MAX_SIZE ? List.of(note.text())
                : Passages.of(note.text(), Passages.MAX_SIZE);
    }

    /** The ids of the note's crystals, in order: its id alone when it is one passage. */
    static List<String> ids(String scope, Note note) {
        return ids(scope, note, passages(note).size());
    }

    private static List<String> ids(String scope, Note note, int passages) {
        String id = id(scope, note);
        if (passages <= 1) {
            return List.of(id);
        }
        List<String> ids = new ArrayList<>(passages);
        for (int i = 0; i < passages; i++) {
            ids.add(Passages.id(id, i));
        }
        return ids;
    }
}
