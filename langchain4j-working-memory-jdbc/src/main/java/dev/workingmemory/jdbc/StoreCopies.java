package dev.workingmemory.jdbc;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.internal.Attempts;
import dev.workingmemory.internal.MinuteWarning;
import dev.workingmemory.jdbc.CrystalTable.Copy;
import dev.workingmemory.jdbc.CrystalTable.Uncopy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

/**
 * Keeps the application's {@link EmbeddingStore} in step with the crystals' rows, from what the rows say is still to do
 * (so that nothing is lost while that store is down): copies there each vector not copied yet
 * ({@link CrystalTable#claimCopies}) and removes the copies of deleted crystals and scopes
 * ({@link CrystalTable#claimUncopies}). Both are claimed, as rows to embed are, so that two instances do not do the
 * same work: after an outage the backlog is shared, and one instance at a time copies a crystal, so that an older
 * vector's copy cannot land after a newer one's. A copy or removal done twice (past a claim's end) is harmless: a copy
 * is a removal then an add of the same id.
 *
 * <p>A store that refuses an entry every time while it takes others loses that entry (given up, named in a WARN for a
 * copy, an ERROR for a removal: a deleted crystal stays there); a store that takes nothing is down, and everything
 * waits for a later pass ({@link Pass}). Entries: name-based UUIDs of the crystal ids, metadata
 * {@value #CRYSTAL_ID}, {@value #SCOPE}, {@value #KIND}.
 *
 * <p>Thread-safe.
 */
final class StoreCopies {

    private static final Logger log = LoggerFactory.getLogger(StoreCopies.class);

    /** Entries copied or removed at once; claimed at once, and for how long. */
    private static final int BATCH = 16;
    private static final int CLAIM_BATCH = 64;
    private static final Duration CLAIM = Duration.ofMinutes(2);

    private static final String CRYSTAL_ID = "crystal_id";
    private static final String SCOPE = "scope";
    private static final String KIND = "kind";

    private final CrystalTable table;
    private final EmbeddingStore<TextSegment> store;
    private final MinuteWarning downWarning = new MinuteWarning(log);

    StoreCopies(CrystalTable table, EmbeddingStore<TextSegment> store) {
        this.table = table;
        this.store = store;
    }

    /** The id of a crystal's copy in the application's embedding store. */
    static String vectorId(String crystalId) {
        return UUID.nameUUIDFromBytes(Texts.encode(crystalId)).toString();
    }

    /**
     * Removes at once, in one call, the copies of what was just deleted, so that they are gone when the deletion
     * returns; when the store fails that, they wait for {@link #sync} (with a WARN at most once a minute).
     *
     * @return whether they were removed
     */
    boolean removeNow(List<Uncopy> removals) {
        try {
            remove(removals);
        } catch (RuntimeException e) {
            downWarning.warn("Cannot remove {} crystal vector copies from the application's embedding store now ({});"
                    + " they are removed once it answers", removals.size(), e.toString());
            return false;
        }
        table.uncopiesDone(removals, List.of());
        return true;
    }

    /**
     * Removes the copies waiting to be removed, then copies the vectors waiting to be copied, a claim at a time, until
     * none waits or the store is down (with a WARN at most once a minute).
     *
     * @return false when the store is down: what is left waits for a later pass
     * @throws InterruptedException when the thread is interrupted (closing)
     */
    boolean sync() throws InterruptedException {
        Pass pass = new Pass();
        return drain(pass, table::claimUncopies, this::remove, table::uncopiesDone, this::keptRemovals)
                && drain(pass, table::claimCopies, this::copy, table::copiesDone, this::lostCopies);
    }

    private interface Claim<T> {
        List<T> claim(int limit, Duration claim);
    }

    private interface Work<T> {
        void run(List<T> entries);
    }

    private interface Done<T> {
        void done(List<T> done, List<T> waiting);
    }

    /** Claims and works off entries until none waits (true) or the store is down (false). */
    private <T> boolean drain(Pass pass, Claim<T> claim, Work<T> work, Done<T> done,
                              BiConsumer<Map<T, RuntimeException>, Integer> givenUp)
            throws InterruptedException {
        while (!Thread.currentThread().isInterrupted()) {
            List<T> claimed = claim.claim(CLAIM_BATCH, CLAIM);
            if (claimed.isEmpty()) {
                return true;
            }
            for (int from = 0; from < claimed.size(); from += BATCH) {
                List<T> batch = claimed.subList(from, Math.min(claimed.size(), from + BATCH));
                Attempts.Outcome<T> outcome = pass.run(batch, work::run);
                if (outcome.down() != null) {
                    List<T> finished = new ArrayList<>(batch);
                    finished.removeAll(outcome.failed().keySet());
                    List<T> waiting = new ArrayList<>(outcome.failed().keySet());
                    waiting.addAll(claimed.subList(from + batch.size(), claimed.size()));
                    done.done(finished, waiting);
                    downWarning.warn("The application's embedding store failed ({}): the crystal vector copies to make"
                            + " or remove wait in the database and are tried again", outcome.down().toString());
                    return false;
                }
                if (!outcome.refused().isEmpty()) {
                    givenUp.accept(outcome.refused(), batch.size());
                }
                done.done(batch, List.of()); // refused ones are given up
            }
        }
        return true;
    }

    private void remove(List<Uncopy> removals) {
        List<String> ids = removals.stream().map(Uncopy::crystalId).filter(Objects::nonNull)
                .map(StoreCopies::vectorId).toList();
        if (!ids.isEmpty()) {
            store.removeAll(ids);
        }
        for (Uncopy removal : removals) {
            if (removal.crystalId() == null) {
                store.removeAll(metadataKey(SCOPE).isEqualTo(removal.scope()));
            }
        }
    }

    private void copy(List<Copy> copies) {
        List<String> ids = copies.stream().map(copy -> vectorId(copy.crystal().id())).toList();
        store.removeAll(ids); // most stores add a second entry under an id they hold
        store.addAll(ids, copies.stream().map(copy -> Embedding.from(copy.vector())).toList(),
                copies.stream().map(copy -> segment(copy.crystal())).toList());
    }

    private static TextSegment segment(Crystal crystal) {
        return TextSegment.from(crystal.textToIndex(), new Metadata().put(CRYSTAL_ID, crystal.id())
                .put(SCOPE, crystal.scope()).put(KIND, crystal.kind().textName()));
    }

    private void lostCopies(Map<Copy, RuntimeException> refused, int of) {
        log.warn("The application's embedding store refused the copies of {} of {} crystal vectors {} times while it"
                        + " took others, those of {}: they are given up", refused.size(), of, Attempts.ATTEMPTS,
                names(refused, copy -> copy.crystal().id()), last(refused));
    }

    private void keptRemovals(Map<Uncopy, RuntimeException> refused, int of) {
        log.error("The application's embedding store refused {} times, while it took others, to remove the copies of {}"
                        + ": they stay there, remove them by hand", Attempts.ATTEMPTS, names(refused, removal ->
                        removal.crystalId() == null ? "every crystal of scope '" + removal.scope() + "'"
                                : "crystal '" + removal.crystalId() + "' of scope '" + removal.scope() + "'"),
                last(refused));
    }

    private static <T> List<String> names(Map<T, RuntimeException> refused, Function<T, String> name) {
        return refused.keySet().stream().map(name).toList();
    }

    private static RuntimeException last(Map<?, RuntimeException> refused) {
        return refused.values().stream().reduce((first, second) -> second).orElseThrow();
    }

}
