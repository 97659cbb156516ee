package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Seed 000's seed migration: a hand-written MEMORY.md found when a resource is first used (the document
 * {@value #STATE} in the store, or a file configured for the resource) is, once, backed up to {@value #BACKUP},
 * chunked (400 tokens with 80 of overlap, by the provider's estimator) into crystals of kind
 * {@link CrystalKind#MIGRATED} with importance 0.75 when there is a crystal store, and marked done by the document
 * {@value #FLAG}. The first dream after it keeps the original above {@code ## Dream-Generated}
 * ({@link SeedTransition}).
 *
 * <p><b>Once, also after a crash.</b> Every step can run again: the backup is written only when absent (and read back
 * as the original when present), chunk crystals have ids derived from the resource and their position (adding one
 * again replaces it; {@link CrystalIds}), and the flag is written last. A resource that has dream records is never migrated: its
 * MEMORY.md is a dream's.
 *
 * <p>Thread-safe (stateless besides its collaborators).
 */
final class SeedMigration {

    static final String STATE = "MEMORY.md";
    static final String BACKUP = "MEMORY.md.seed-backup";
    static final String FLAG = "seed-migration.json";
    static final double IMPORTANCE = 0.75;
    private static final Logger log = LoggerFactory.getLogger(SeedMigration.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WorkingMemoryStore store;
    private final CrystalStore crystals;
    private final TokenChunker chunker;
    private final Function<String, Optional<Path>> seedFiles;
    private final DreamRecords records;

    SeedMigration(WorkingMemoryStore store, CrystalStore crystals, TokenCountEstimator estimator,
                  Function<String, Optional<Path>> seedFiles, DreamRecords records) {
        this.store = store;
        this.crystals = crystals;
        this.chunker = new TokenChunker(estimator, 400, 80);
        this.seedFiles = seedFiles;
        this.records = records;
    }

    /** Whether the resource was migrated (its first dream is then a transition). */
    boolean migrated(String storeKey) {
        return store.getDocument(storeKey, FLAG).isPresent();
    }

    /**
     * Migrates the resource's hand-written MEMORY.md if it has one and it was not migrated yet.
     *
     * @return whether a migration ran now
     */
    boolean migrateIfNeeded(String resource, String storeKey, Instant now) {
        if (migrated(storeKey) || records.exist(storeKey)) {
            return false;
        }
        Optional<String> backup = store.getDocument(storeKey, BACKUP);
        Optional<String> stored = store.getDocument(storeKey, STATE);
        Optional<String> original = backup.or(() -> stored).or(() -> readSeedFile(resource));
        if (original.isEmpty() || original.get().isBlank()) {
            return false;
        }
        String text = original.get();
        if (backup.isEmpty()) {
            store.putDocument(storeKey, BACKUP, text);
        }
        if (stored.isEmpty()) {
            store.putDocument(storeKey, STATE, text); // from the seed file: shown as the state until the first dream
        }
        List<String> chunks = chunker.chunks(text);
        if (crystals != null) {
            crystals.add(crystals(resource, chunks, now));
        }
        store.putDocument(storeKey, FLAG, JSON.createObjectNode().put("time", now.toString())
                .put("chunks", chunks.size()).put("crystals", crystals != null).toPrettyString());
        log.info("Migrated the hand-written MEMORY.md of '{}' ({} characters): backup {}, {} chunk(s){}", resource,
                text.length(), BACKUP, chunks.size(), crystals == null ? " (no crystal store: not kept as crystals)"
                        : " kept as crystals");
        return true;
    }

    private static List<Crystal> crystals(String resource, List<String> chunks, Instant now) {
        String scope = DreamEngine.scope(resource);
        List<Crystal> made = new ArrayList<>(chunks.size());
        for (int i = 0; i < chunks.size(); i++) {
            made.add(new Crystal(CrystalIds.of("migrated", scope, Integer.toString(i)), scope, CrystalKind.MIGRATED, now,
                    IMPORTANCE, List.of("migrated"), chunks.get(i), STATE + "#chunk-" + i));
        }
        return made;
    }

    private Optional<String> readSeedFile(String resource) {
        Optional<Path> file = seedFiles.apply(resource);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file.get(), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            log.warn("The seed MEMORY.md {} of '{}' does not exist; nothing to migrate", file.get(), resource);
            return Optional.empty();
        } catch (IOException e) {
            throw new WorkingMemoryStoreException("Cannot read the seed MEMORY.md " + file.get(), e);
        }
    }
}
