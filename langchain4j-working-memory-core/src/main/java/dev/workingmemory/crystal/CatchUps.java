package dev.workingmemory.crystal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which scopes have records the index may lack, and from where in their record file the indexer reads them
 * (catches up): crystals recorded beyond the queue's bound instead of being kept in memory, and the records of a
 * scope compared with the index after a restart. Also what those deferred crystals are (their ids and count per
 * scope) until they are loaded back, so that a read can wait for them and {@code pendingCount} counts them.
 *
 * <p>Not thread-safe: the {@link PendingQueue}'s lock guards it.
 */
final class CatchUps {

    /** Where to read next, per scope, in the order the scopes were registered. */
    private final Map<String, Long> from = new LinkedHashMap<>();
    /** The scope whose records the indexer is reading now, or null. */
    private String reading;
    /** Crystals recorded beyond the bound and not loaded back, per scope. */
    private final Map<String, Integer> deferred = new HashMap<>();
    /** Their ids, to find their scope by id. */
    private final Map<String, String> deferredIds = new HashMap<>();
    private int deferredTotal;

    /** A crystal went to the records instead of the queue. */
    void deferred(Crystal crystal) {
        deferred.merge(crystal.scope(), 1, Integer::sum);
        deferredIds.put(crystal.id(), crystal.scope());
        deferredTotal++;
    }

    /** A deferred crystal was dropped before it was recorded (cancelled by a delete). */
    void dropped(Crystal crystal) {
        if (deferredIds.remove(crystal.id(), crystal.scope())) {
            decrement(crystal.scope(), 1);
        }
    }

    /** The scope's record file holds records from {@code offset} on that the index may lack. */
    void readFrom(String scope, long offset) {
        from.merge(scope, offset, Math::min);
    }

    /** The scope's record file was rewritten (offsets moved): read it again from its start. */
    void rewritten(String scope) {
        from.computeIfPresent(scope, (s, offset) -> 0L);
    }

    /** The scope's crystals are all deleted: nothing of it is left to read. */
    void forget(String scope) {
        from.remove(scope);
        forgetDeferred(scope);
    }

    /** @return a scope to read, one of {@code preferred} when any has records to read, else any; null when none */
    String next(Collection<String> preferred) {
        for (String scope : preferred) {
            if (from.containsKey(scope)) {
                return scope;
            }
        }
        Iterator<String> scopes = from.keySet().iterator();
        return scopes.hasNext() ? scopes.next() : null;
    }

    /**
     * The indexer starts reading the scope.
     *
     * @return the offset to read from
     */
    long start(String scope) {
        reading = scope;
        return from.remove(scope);
    }

    /**
     * The indexer read the scope's records up to {@code end} and queued those the index lacked.
     *
     * @param all   whether it read to the end of the file (else it stopped after as many as it takes at once)
     * @param loaded the records it read
     */
    void finished(String scope, long end, boolean all, List<CrystalRecords.Stored> loaded) {
        reading = null;
        int found = 0;
        for (CrystalRecords.Stored stored : loaded) {
            if (deferredIds.remove(stored.crystal().id(), scope)) {
                found++;
            }
        }
        decrement(scope, found);
        Long registered = from.remove(scope); // recorded after the read began (the read ended before them)
        if (!all || (registered != null && registered >= end)) {
            from.put(scope, end);
        } else if (deferred.containsKey(scope)) {
            forgetDeferred(scope); // read to the end: what is left of its deferred ids was replaced or deleted
        }
    }

    private void forgetDeferred(String scope) {
        Integer count = deferred.remove(scope);
        if (count != null) {
            deferredTotal -= count;
            deferredIds.values().removeIf(scope::equals);
        }
    }

    private void decrement(String scope, int count) {
        Integer before = deferred.get(scope);
        if (before == null || count == 0) {
            return;
        }
        int removed = Math.min(before, count);
        if (removed == before) {
            deferred.remove(scope);
        } else {
            deferred.put(scope, before - removed);
        }
        deferredTotal -= removed;
    }

    /** Whether the scope has records to read, or is being read. */
    boolean behind(String scope) {
        return from.containsKey(scope) || scope.equals(reading);
    }

    /** The scopes with records to read or being read. */
    List<String> scopes() {
        List<String> scopes = new ArrayList<>(from.keySet());
        if (reading != null && !from.containsKey(reading)) {
            scopes.add(reading);
        }
        return scopes;
    }

    /** Whether nothing is left to read and nothing is being read. */
    boolean idle() {
        return from.isEmpty() && reading == null;
    }

    /** @return the scope of a deferred crystal not loaded back yet, or null */
    String scopeOf(String id) {
        return deferredIds.get(id);
    }

    /** Deferred crystals not loaded back yet. */
    int deferredCount() {
        return deferredTotal;
    }

    /** Drops deferred ids that a delete removed from the records. */
    void deleted(String scope, Set<String> ids) {
        int removed = 0;
        for (String id : ids) {
            if (deferredIds.remove(id, scope)) {
                removed++;
            }
        }
        decrement(scope, removed);
    }
}
