package dev.workingmemory.internal;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.event.SearchRun;
import dev.workingmemory.event.WorkingMemoryListener;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code WorkingMemory.search}: the best crystals of a scope that fit a token budget. It asks the store for
 * {@code max(30, 5 × limit)} candidates ({@code max(200, 5 × limit)} when the query asks about a day, by its date or
 * counted back from the clock's today: {@link QueryDates}) and chooses among them ({@link HitChoice}): those of the day
 * asked about first, best first within the budget, one
 * passage per whole (exchange, note, tool output) before a second, and the newer of two hits that state the same
 * thing above the older; then the rest of the budget widens the hits with the neighbouring passages of their whole
 * ({@link HitWidening}). Each search is reported to the provider's listeners ({@link SearchRun}).
 *
 * <p>Thread-safe (immutable; the store is thread-safe).
 */
public final class MemorySearch {

    /** The most hits one search returns. */
    public static final int MAX_LIMIT = 100;
    /** The most passages one read returns. */
    public static final int MAX_READ = 50;
    private static final int MIN_CANDIDATES = 30;
    /**
     * Candidates asked for when the query asks about a day: what was said that day comes first, and it may rank far
     * down the text's order ("Looky here, I got this new pup for you!" for "What did Nate do for Joanna on 25 May,
     * 2022?").
     */
    private static final int MIN_DATED_CANDIDATES = 200;
    /** Candidates asked for per hit: several passages of one whole wait behind the other wholes. */
    private static final int CANDIDATES_PER_HIT = 5;

    private final CrystalStore store;
    private final TokenCountEstimator estimator;
    private final int tokenBudget;
    private final int maxQueryChars;
    private final WorkingMemoryListener listener;
    private final Clock clock;

    /** @param clock the asker's today, from which a query's "yesterday" or "last week" counts */
    public MemorySearch(CrystalStore store, TokenCountEstimator estimator, int tokenBudget, int maxQueryChars,
                        WorkingMemoryListener listener, Clock clock) {
        this.clock = Ensure.notNull(clock, "clock");
        this.listener = Ensure.notNull(listener, "listener");
        this.store = Ensure.notNull(store, "store");
        this.estimator = Ensure.notNull(estimator, "estimator");
        this.tokenBudget = Ensure.positive(tokenBudget, "tokenBudget");
        Ensure.that(maxQueryChars > 0 && maxQueryChars <= CrystalQuery.MAX_TEXT_LENGTH, "maxQueryChars must be within 1 and "
                + CrystalQuery.MAX_TEXT_LENGTH + ", was " + maxQueryChars);
        this.maxQueryChars = maxQueryChars;
    }

    public int tokenBudget() {
        return tokenBudget;
    }

    public int maxQueryChars() {
        return maxQueryChars;
    }

    public CrystalStore store() {
        return store;
    }

    /**
     * The passages of the whole that crystal {@code id} belongs to, in the scope, from passage {@code from}.
     *
     * @throws IllegalArgumentException for a blank id, a negative {@code from}, a count outside 1 to
     *                                  {@value #MAX_READ}
     */
    public List<Crystal> read(String scope, String id, int from, int count) {
        Ensure.that(id != null && !id.isBlank(), "The id is empty: pass the id of a search hit, like turn-3fa9c2d1#2.");
        Ensure.that(from >= 0, "from must be 0 or more, was " + from + ".");
        Ensure.that(count >= 1 && count <= MAX_READ, "count must be within 1 and " + MAX_READ + ", was " + count + ".");
        String whole = Passages.parentId(id.strip());
        List<Crystal> passages = new ArrayList<>();
        if (whole.equals(id.strip()) && from == 0) {
            Optional<Crystal> alone = store.get(whole).filter(crystal -> crystal.scope().equals(scope));
            if (alone.isPresent()) {
                return List.of(alone.get());
            }
        }
        for (int n = from; n < from + count; n++) {
            Optional<Crystal> passage = store.get(Passages.id(whole, n)).filter(crystal -> crystal.scope().equals(scope));
            if (passage.isEmpty()) {
                break;
            }
            passages.add(passage.get());
        }
        return passages;
    }

    /**
     * The hits for a query in the scope: the store's candidates chosen within the token budget, then widened.
     *
     * @throws IllegalArgumentException for a blank or too long query, or a limit outside 1 to {@value #MAX_LIMIT},
     *                                  with a message saying what to change
     */
    public List<MemoryHit> search(String scope, String query, int limit) {
        return search(scope, query, limit, Set.of());
    }

    /**
     * {@link #search(String, String, int)} leaving out the passages of the wholes {@code leftOut} names (ids without
     * the {@code #n} of a passage): what the searching conversation's window shows.
     */
    public List<MemoryHit> search(String scope, String query, int limit, Set<String> leftOut) {
        Ensure.that(query != null && !query.isBlank(), "The query is empty: say what to look for, e.g. a name, a date"
                + " or a few words of the fact.");
        String text = query.strip();
        Ensure.that(text.length() <= maxQueryChars, "The query is " + text.length() + " characters long, over the limit"
                + " of " + maxQueryChars + " by " + (text.length() - maxQueryChars) + ". Search with a few key words.");
        Ensure.that(limit >= 1 && limit <= MAX_LIMIT, "The limit must be within 1 and " + MAX_LIMIT + ", was " + limit
                + ".");
        long start = System.nanoTime();
        QueryDates dates = QueryDates.in(text, LocalDate.now(clock));
        int wanted = Math.max(dates.isEmpty() ? MIN_CANDIDATES : MIN_DATED_CANDIDATES, CANDIDATES_PER_HIT * limit);
        List<CrystalHit> candidates = store.search(new CrystalQuery(scope, text, wanted));
        if (!leftOut.isEmpty()) {
            candidates = candidates.stream()
                    .filter(candidate -> !leftOut.contains(Passages.parentId(candidate.crystal().id()))).toList();
        }
        // widening reads a hit's piece and its neighbours: from the candidates in hand when it can (a store may
        // answer each read with a query to its database)
        Map<String, Crystal> inHand = new HashMap<>();
        candidates.forEach(candidate -> inHand.put(candidate.crystal().id(), candidate.crystal()));
        List<MemoryHit> chosen = HitChoice.choose(text, dates, candidates, estimator, tokenBudget, limit);
        List<MemoryHit> hits = HitWidening.widen(chosen, id -> inHand.containsKey(id) ? Optional.of(inHand.get(id))
                        : store.get(id).filter(crystal -> crystal.scope().equals(scope)), estimator, tokenBudget);
        listener.onSearchRun(new SearchRun(scope, text, hits.size(), Duration.ofNanos(System.nanoTime() - start)));
        return hits;
    }
}
