package dev.workingmemory.event;

import java.time.Duration;

/**
 * A long-term memory search. Immutable.
 *
 * @param scope the scope (resource) searched
 * @param query the query
 * @param hits  how many crystals it returned
 * @param time  how long it took
 */
public record SearchRun(String scope, String query, int hits, Duration time) {
}
