package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;
import java.util.Optional;

/**
 * One dream of a resource as its dream log keeps it ({@link DreamEngine#log}): the report of a dream that got as far as
 * a synthesis (committed, rejected by a guard, or failed), the record a committed one left for rollback, and when it
 * was rolled back.
 *
 * <p>Immutable and thread-safe.
 *
 * @param report       what the dream did
 * @param recordId     the {@link DreamRecord#id()} of the record a committed dream wrote (with
 *                     {@link DreamRecord#time()} equal to the report's {@link DreamReport#started()}); 0 for a dream
 *                     that committed nothing
 * @param rolledBackAt when the dream was rolled back; {@code null} when it was not
 */
public record DreamLogEntry(DreamReport report, long recordId, Instant rolledBackAt) {

    /**
     * Rejects, with an {@link IllegalArgumentException}: a null {@code report}, a record id for a dream that committed
     * nothing or none for one that did, and a roll-back of a dream that committed nothing.
     */
    public DreamLogEntry {
        Ensure.notNull(report, "report");
        Ensure.that(report.committed() == (recordId > 0), () -> "A committed dream has a record id and any other none;"
                + " was " + recordId + " for a " + (report.committed() ? "committed" : "not committed") + " dream");
        Ensure.that(rolledBackAt == null || report.committed(), "Only a committed dream can be rolled back");
    }

    /** When the dream was rolled back, if it was. */
    public Optional<Instant> rolledBack() {
        return Optional.ofNullable(rolledBackAt);
    }

    /** Whether {@code record} is the one this dream committed. */
    public boolean wrote(DreamRecord record) {
        return recordId > 0 && record.id() == recordId && record.time().equals(report.started());
    }

    DreamLogEntry rolledBackAt(Instant time) {
        return new DreamLogEntry(report, recordId, time);
    }
}
