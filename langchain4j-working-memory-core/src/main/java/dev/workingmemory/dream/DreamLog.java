package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.store.WorkingMemoryStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;

/**
 * The dream log of a resource: the last {@value #KEPT} dreams that got as far as a synthesis, committed or not, with
 * their reports ({@link DreamLogEntry}), oldest first, in the document {@value #DOCUMENT} of the resource. Unlike the
 * {@link DreamRecords}, which a commit and a rollback depend on, the log only tells what happened: a log that cannot be
 * read or written is logged and left out, never a reason for a dream to fail.
 *
 * <p>Thread-safe (stateless); callers hold the resource's dream lease.
 */
final class DreamLog {

    static final String DOCUMENT = "dream-log.json";
    static final int KEPT = 20;
    private static final Logger log = LoggerFactory.getLogger(DreamLog.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORMAT = 1;

    private final WorkingMemoryStore store;

    DreamLog(WorkingMemoryStore store) {
        this.store = store;
    }

    /** The entries of the resource's log, oldest first; empty when it has none or it cannot be read (logged). */
    List<DreamLogEntry> read(String storeKey) {
        try {
            String text = store.getDocument(storeKey, DOCUMENT).orElse(null);
            if (text == null) {
                return List.of();
            }
            List<DreamLogEntry> entries = new ArrayList<>();
            for (JsonNode node : JSON.readTree(text).path("entries")) {
                entries.add(entry(storeKey, node));
            }
            return entries;
        } catch (Exception e) {
            log.warn("The dream log '{}' of '{}' is unreadable; it starts again with the next dream", DOCUMENT,
                    storeKey, e);
            return List.of();
        }
    }

    /** Adds {@code entry} as the newest, keeping {@value #KEPT}. */
    void append(String storeKey, DreamLogEntry entry) {
        update(storeKey, entries -> {
            List<DreamLogEntry> all = new ArrayList<>(entries);
            all.add(entry);
            return all.subList(Math.max(0, all.size() - KEPT), all.size());
        });
    }

    /** Marks the newest entry that wrote {@code record} as rolled back at {@code time}. */
    void rolledBack(String storeKey, DreamRecord record, Instant time) {
        update(storeKey, entries -> {
            List<DreamLogEntry> all = new ArrayList<>(entries);
            for (int i = all.size() - 1; i >= 0; i--) {
                if (all.get(i).wrote(record) && all.get(i).rolledBackAt() == null) {
                    all.set(i, all.get(i).rolledBackAt(time));
                    break;
                }
            }
            return all;
        });
    }

    private void update(String storeKey, UnaryOperator<List<DreamLogEntry>> change) {
        try {
            ObjectNode root = JSON.createObjectNode().put("format", FORMAT);
            ArrayNode array = root.putArray("entries");
            change.apply(read(storeKey)).forEach(entry -> array.add(node(entry)));
            store.putDocument(storeKey, DOCUMENT, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        } catch (Exception e) {
            log.warn("Could not write the dream log '{}' of '{}'; the dream itself is not affected", DOCUMENT, storeKey,
                    e);
        }
    }

    private static ObjectNode node(DreamLogEntry entry) {
        DreamReport report = entry.report();
        ObjectNode node = JSON.createObjectNode()
                .put("resource", report.resource())
                .put("committed", report.committed())
                .put("reason", report.reason())
                .put("guard", report.guard() == null ? null : report.guard().name())
                .put("inputChars", report.inputChars())
                .put("outputChars", report.outputChars())
                .put("notesConsumed", report.notesConsumed())
                .put("notesDeferred", report.notesDeferred())
                .put("crystalsRead", report.crystalsRead())
                .put("pointersKept", report.pointersKept())
                .put("pointersRepaired", report.pointersRepaired())
                .put("pointersDropped", report.pointersDropped())
                .put("pointersChecked", report.pointersChecked())
                .put("started", report.started().toString())
                .put("duration", report.duration().toString())
                .put("recordId", entry.recordId())
                .put("rolledBack", entry.rolledBackAt() == null ? null : entry.rolledBackAt().toString());
        if (report.tokensUsed().isPresent()) {
            node.put("tokensUsed", report.tokensUsed().getAsInt());
        }
        ArrayNode checks = node.putArray("guardChecks");
        report.guardChecks().forEach(check -> checks.addObject().put("guard", check.guard().name())
                .put("passed", check.passed()).put("detail", check.detail()));
        ArrayNode pointers = node.putArray("pointerOutcomes");
        for (PointerOutcome outcome : report.pointerOutcomes()) {
            ObjectNode pointer = pointers.addObject().put("topic", outcome.pointer().topic())
                    .put("keywords", outcome.pointer().keywords()).put("action", outcome.action().name())
                    .put("reason", outcome.reason());
            outcome.kept().ifPresent(kept -> pointer.put("keptTopic", kept.topic()).put("keptKeywords", kept.keywords()));
        }
        return node;
    }

    private static DreamLogEntry entry(String storeKey, JsonNode node) {
        List<GuardCheck> checks = new ArrayList<>();
        for (JsonNode check : node.path("guardChecks")) {
            checks.add(new GuardCheck(DreamGuard.valueOf(check.path("guard").asText()), check.path("passed").asBoolean(),
                    check.path("detail").asText()));
        }
        List<PointerOutcome> pointers = new ArrayList<>();
        for (JsonNode pointer : node.path("pointerOutcomes")) {
            CrystalPointer kept = pointer.hasNonNull("keptTopic")
                    ? new CrystalPointer(pointer.path("keptTopic").asText(), pointer.path("keptKeywords").asText()) : null;
            pointers.add(new PointerOutcome(new CrystalPointer(pointer.path("topic").asText(),
                    pointer.path("keywords").asText()), PointerOutcome.Action.valueOf(pointer.path("action").asText()),
                    kept, pointer.path("reason").asText()));
        }
        DreamReport report = new DreamReport(node.path("resource").asText(storeKey), node.path("committed").asBoolean(),
                node.path("reason").asText(), node.hasNonNull("guard") ? DreamGuard.valueOf(node.get("guard").asText()) : null,
                node.path("inputChars").asInt(), node.path("outputChars").asInt(), node.path("notesConsumed").asInt(),
                node.path("notesDeferred").asInt(), node.path("crystalsRead").asInt(), node.path("pointersKept").asInt(),
                node.path("pointersRepaired").asInt(), node.path("pointersDropped").asInt(),
                node.path("pointersChecked").asBoolean(),
                node.has("tokensUsed") ? OptionalInt.of(node.get("tokensUsed").asInt()) : OptionalInt.empty(),
                Instant.parse(node.path("started").asText()), Duration.parse(node.path("duration").asText()), checks,
                pointers);
        return new DreamLogEntry(report, node.path("recordId").asLong(),
                node.hasNonNull("rolledBack") ? Instant.parse(node.get("rolledBack").asText()) : null);
    }
}
