package dev.workingmemory.internal;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.event.SearchRun;
import dev.workingmemory.event.WorkingMemoryListener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code WorkingMemory.search}: the best crystals of a scope that fit a token budget. It asks the store for
 * {@code max(30, 3 × limit)} candidates, walks them best first and takes each whose text keeps the total within the
 * budget (a long one is skipped, a shorter one after it may still fit), until {@code limit} are taken. Each search is
 * reported to the provider's listeners ({@link SearchRun}).
 *
 * <p>Thread-safe (immutable; the store is thread-safe).
 */
public final class MemorySearch {

    /** The most hits one search returns. */
    public static final int MAX_LIMIT = 100;
    private static final int MIN_CANDIDATES = 30;

    private final CrystalStore store;
    private final TokenCountEstimator estimator;
    private final int tokenBudget;
    private final int maxQueryChars;
    private final WorkingMemoryListener listener;

    public MemorySearch(CrystalStore store, TokenCountEstimator estimator, int tokenBudget, int maxQueryChars,
                        WorkingMemoryListener listener) {
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
     * @throws IllegalArgumentException for a blank or too long query, or a limit outside 1 to {@value #MAX_LIMIT},
     *                                  with a message saying what to change
     */
    public List<MemoryHit> search(String scope, String query, int limit) {
        Ensure.that(query != null && !query.isBlank(), "The query is empty: say what to look for, e.g. a name, a date"
                + " or a few words of the fact.");
        String text = query.strip();
        Ensure.that(text.length() <= maxQueryChars, "The query is " + text.length() + " characters long, over the limit"
                + " of " + maxQueryChars + " by " + (text.length() - maxQueryChars) + ". Search with a few key words.");
        Ensure.that(limit >= 1 && limit <= MAX_LIMIT, "The limit must be within 1 and " + MAX_LIMIT + ", was " + limit
                + ".");
        long start = System.nanoTime();
        List<CrystalHit> candidates = store.search(new CrystalQuery(scope, text, Math.max(MIN_CANDIDATES, 3 * limit)));
        List<MemoryHit> hits = new ArrayList<>(limit);
        int tokens = 0;
        for (CrystalHit candidate : candidates) {
            Crystal crystal = candidate.crystal();
            int cost = estimator.estimateTokenCountInText(crystal.text());
            if (tokens + cost > tokenBudget) {
                continue;
            }
            tokens += cost;
            hits.add(new MemoryHit(crystal.id(), crystal.kind(), crystal.time(), crystal.text(), candidate.score(), cost));
            if (hits.size() == limit) {
                break;
            }
        }
        listener.onSearchRun(new SearchRun(scope, text, hits.size(), Duration.ofNanos(System.nanoTime() - start)));
        return hits;
    }
}
