package dev.workingmemory.context;

import java.util.List;

/**
 * What one sweep of a memory's tool-output cache did (seed 003, storage governance).
 *
 * <p>Immutable and thread-safe.
 *
 * @param storeKey       the store key whose cache entries were swept
 * @param scanned        cache entries found
 * @param deleted        cache entries deleted (past the newest kept, or too old)
 * @param bytesReclaimed the bytes of the deleted entries
 * @param errors         what failed, one line each; empty when nothing did
 */
public record SweepResult(String storeKey, int scanned, int deleted, long bytesReclaimed, List<String> errors) {

    /** Copies {@code errors}. */
    public SweepResult {
        errors = List.copyOf(errors);
    }
}
