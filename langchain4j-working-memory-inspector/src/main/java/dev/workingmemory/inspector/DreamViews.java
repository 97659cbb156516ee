package dev.workingmemory.inspector;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import dev.workingmemory.dream.DreamLogEntry;
import dev.workingmemory.dream.DreamRecord;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.dream.GuardCheck;
import dev.workingmemory.dream.PointerOutcome;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The dream history of a resource as the page shows it, newest first: each dream of the dream log (committed, rejected
 * or failed) with its guards, pointers and notes, joined with the record a committed one left, whose state is diffed
 * against the state before it; committed records the log no longer holds are shown from the record alone.
 *
 * <p>Thread-safe (stateless).
 */
final class DreamViews {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private DreamViews() {
    }

    static ArrayNode dreams(List<DreamLogEntry> log, List<DreamRecord> records) {
        List<ObjectNode> views = new ArrayList<>();
        List<DreamRecord> unlogged = new ArrayList<>(records);
        DreamRecord newest = records.isEmpty() ? null : records.get(records.size() - 1);
        for (DreamLogEntry entry : log) {
            DreamRecord record = records.stream().filter(entry::wrote).findFirst().orElse(null);
            if (entry.rolledBack().isPresent()) {
                record = null; // a later dream may have been given the same id
            }
            unlogged.remove(record);
            views.add(view(entry, record, record != null && record == newest));
        }
        for (DreamRecord record : unlogged) {
            ObjectNode view = JSON.objectNode().put("started", record.time().toString()).put("outcome", "committed")
                    .put("reason", "Committed (its report is no longer in the dream log)");
            view.putArray("guardChecks");
            record(view, record, record == newest);
            views.add(view);
        }
        views.sort(Comparator.comparing((ObjectNode view) -> Instant.parse(view.path("started").asText())).reversed());
        ArrayNode array = JSON.arrayNode();
        views.forEach(array::add);
        return array;
    }

    private static ObjectNode view(DreamLogEntry entry, DreamRecord record, boolean newest) {
        ObjectNode view = report(entry.report())
                .put("outcome", outcome(entry))
                .put("rolledBack", entry.rolledBack().map(Object::toString).orElse(null));
        if (record != null) {
            record(view, record, newest);
        }
        return view;
    }

    /** What one dream did, as the history and the answer to "dream now" show it. */
    static ObjectNode report(DreamReport report) {
        ObjectNode view = JSON.objectNode()
                .put("started", report.started().toString())
                .put("durationMillis", report.duration().toMillis())
                .put("outcome", outcome(report))
                .put("reason", report.reason())
                .put("guard", report.guard() == null ? null : report.guard().name())
                .put("inputChars", report.inputChars())
                .put("outputChars", report.outputChars())
                .put("notesConsumed", report.notesConsumed())
                .put("notesDeferred", report.notesDeferred())
                .put("crystalsRead", report.crystalsRead());
        if (report.tokensUsed().isPresent()) {
            view.put("tokensUsed", report.tokensUsed().getAsInt());
        }
        ArrayNode checks = view.putArray("guardChecks");
        for (GuardCheck check : report.guardChecks()) {
            checks.addObject().put("guard", check.guard().name()).put("passed", check.passed())
                    .put("detail", check.detail());
        }
        ObjectNode pointers = view.putObject("pointers").put("checked", report.pointersChecked())
                .put("kept", report.pointersKept()).put("repaired", report.pointersRepaired())
                .put("dropped", report.pointersDropped());
        ArrayNode outcomes = pointers.putArray("outcomes");
        for (PointerOutcome outcome : report.pointerOutcomes()) {
            outcomes.addObject().put("action", outcome.action().name().toLowerCase(java.util.Locale.ROOT))
                    .put("pointer", outcome.pointer().line())
                    .put("result", outcome.kept().map(pointer -> pointer.line()).orElse(null))
                    .put("reason", outcome.reason());
        }
        return view;
    }

    /** The outcome of a logged dream: a rolled back one says so. */
    private static String outcome(DreamLogEntry entry) {
        return entry.rolledBack().isPresent() ? "rolled back" : outcome(entry.report());
    }

    private static String outcome(DreamReport report) {
        return report.committed() ? "committed" : report.guard() != null ? "rejected"
                : report.reachedSynthesis() ? "failed" : "skipped";
    }

    /** The record's notes and diff; only the newest committed record can be rolled back. */
    private static void record(ObjectNode view, DreamRecord record, boolean newest) {
        view.put("recordId", record.id()).put("canRollBack", newest);
        ArrayNode notes = view.putArray("consumedNotes");
        record.consumedNotes().forEach(notes::add);
        view.set("diff", diff(record.previousState() == null ? "" : record.previousState(), record.state()));
    }

    /** Every line of both texts in order, each marked {@code =} (in both), {@code -} (removed) or {@code +} (added). */
    static ArrayNode diff(String before, String after) {
        List<String> old = before.isEmpty() ? List.of() : before.lines().toList();
        List<String> now = after.isEmpty() ? List.of() : after.lines().toList();
        ArrayNode lines = JSON.arrayNode();
        int at = 0;
        for (AbstractDelta<String> delta : DiffUtils.diff(old, now).getDeltas()) {
            for (; at < delta.getSource().getPosition(); at++) {
                lines.addObject().put("op", "=").put("text", old.get(at));
            }
            delta.getSource().getLines().forEach(line -> lines.addObject().put("op", "-").put("text", line));
            delta.getTarget().getLines().forEach(line -> lines.addObject().put("op", "+").put("text", line));
            at += delta.getSource().size();
        }
        for (; at < old.size(); at++) {
            lines.addObject().put("op", "=").put("text", old.get(at));
        }
        return lines;
    }
}
