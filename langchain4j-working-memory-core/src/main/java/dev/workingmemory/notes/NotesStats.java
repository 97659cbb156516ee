package dev.workingmemory.notes;

/**
 * The notes budget as seed 004 reports it: pending notes against the soft and hard limits, the utilization (pending
 * notes as a percentage of the soft limit: 100 and more archives, {@code hard/soft} and more deletes) and a status
 * word: {@code healthy} (below 80%), {@code approaching} (80% to the soft limit), {@code archiving} (at or over the
 * soft limit: only protected notes are left to archive) or {@code deleting} (at or over the hard limit).
 *
 * <p>Immutable and thread-safe.
 */
public record NotesStats(int current, int softLimit, int hardLimit, double utilization, String status) {

    static NotesStats of(int current, NotesConfig config) {
        double utilization = 100.0 * current / config.softLimit();
        String status = current >= config.hardLimit() ? "deleting"
                : current >= config.softLimit() ? "archiving"
                : utilization >= 80 ? "approaching" : "healthy";
        return new NotesStats(current, config.softLimit(), config.hardLimit(), utilization, status);
    }
}
