package dev.workingmemory.crystal;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Long-term memory: crystals searchable by meaning and by keyword, each confined to its scope.
 *
 * <p>What every implementation guarantees:
 * <ul>
 *   <li><b>Cheap adds.</b> {@link #add} does not embed on the caller's thread, nor wait for what embeds behind it,
 *       however far behind that is (it may write the crystals, as a database store does).</li>
 *   <li><b>Scoped.</b> A search, {@link #recent} and {@link #count} read one scope only, and the scope is part of
 *       each underlying query (never a filter applied to another scope's hits after the fact).</li>
 *   <li><b>Read-your-writes per scope.</b> {@link #search}, {@link #recent} and {@link #count} see every crystal of
 *       their scope added (and do not see any deleted) before they were called.</li>
 *   <li><b>Replace by id.</b> Adding a crystal with an id already stored replaces it. Ids are unique across scopes;
 *       the order of two adds of one id is kept when both are in one scope.</li>
 * </ul>
 * Storage failures are reported as {@link dev.workingmemory.store.WorkingMemoryStoreException}; failures behind
 * {@link #add} (embedding, indexing) are logged and retried, never thrown at its caller.
 *
 * <p>Implementations are thread-safe.
 */
public interface CrystalStore extends AutoCloseable {

    /**
     * Takes crystals in to be recorded, embedded and indexed behind the call.
     *
     * @throws IllegalArgumentException when a crystal is null or its text is longer than the store accepts
     * @throws IllegalStateException    when the store is closed
     */
    void add(List<Crystal> crystals);

    /**
     * Hybrid search (keyword and vector) of the query's scope.
     *
     * @return at most {@code query.limit()} hits, best first
     */
    List<CrystalHit> search(CrystalQuery query);

    /** @return the crystal with that id, whatever its scope, or empty */
    Optional<Crystal> get(String id);

    /**
     * The crystals of a scope newer than a time: a dream's input.
     *
     * @param after only crystals whose time is strictly after it
     * @return at most {@code limit} crystals, the most important first, then the most recent
     */
    List<Crystal> recent(String scope, Instant after, int limit);

    /** @return how many crystals the scope holds */
    int count(String scope);

    /**
     * The words that best find a crystal again: its rarest terms in the store, most distinctive first, stop words
     * left out, in the form they have in its text. Searching them (joined by spaces) in its scope returns it among
     * the first hits; dreams write them into crystal pointers ({@code → search: `kw1 kw2 kw3`}).
     *
     * @return at most {@code max} words; empty when there is no such crystal
     */
    List<String> keywords(String crystalId, int max);

    /** Removes these crystals of the scope, physically; ids not found (or of another scope) are ignored. */
    void delete(String scope, Collection<String> ids);

    /** Removes every crystal of the scope; afterwards nothing of it is found, nor left in the store's storage. */
    void deleteScope(String scope);

    /**
     * How many added crystals are not searchable yet (queued for indexing); 0 (the default) for a store whose
     * {@link #add} indexes before it returns.
     */
    default int pendingCount() {
        return 0;
    }

    /** Makes what was added durable (for a persistent store) and releases the store; later calls fail. */
    @Override
    void close();
}
