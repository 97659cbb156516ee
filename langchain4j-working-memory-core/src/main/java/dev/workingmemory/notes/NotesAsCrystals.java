package dev.workingmemory.notes;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Ensure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * {@link NoteCrystals#into}: notes as crystals of a {@link CrystalStore}, in the scope of
 * {@link MemoryKey#crystalScope()}. The crystal id ({@link CrystalIds}) hashes the scope with the note's line, so the
 * same note gets the same crystal in every instance and after a restart, and two users' identical notes never share
 * one.
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
            crystals.delete(scope, notes.stream().map(note -> id(scope, note)).toList());
        } catch (RuntimeException e) {
            log.warn("Could not delete the crystals of {} deleted note(s) of '{}'", notes.size(), resource, e);
        }
    }

    @Override
    public void found(String resource, List<Note> notes) {
        String scope = MemoryKey.of(resource).crystalScope();
        try {
            List<Note> missing = notes.stream().filter(note -> crystals.get(id(scope, note)).isEmpty()).toList();
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
            crystals.add(notes.stream().map(note -> new Crystal(id(scope, note), scope, kind, note.time(),
                    note.importance(), note.tags(), note.text(), SOURCE)).toList());
        } catch (RuntimeException e) {
            // the note is in the log either way; the next load of the memory tries again (found)
            log.warn("Could not make {} note(s) of '{}' crystals", notes.size(), resource, e);
        }
    }

    static String id(String scope, Note note) {
        return CrystalIds.of("note", scope, note.line());
    }
}
