package dev.workingmemory.dream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dream records of a resource, one JSON document in the store, oldest first, at most a number kept (older ones
 * are dropped when a dream is added: they can no longer be rolled back to).
 *
 * <p>Thread-safe (stateless); callers hold the resource's dream lease.
 */
final class DreamRecords {

    static final String DOCUMENT = "dreams.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORMAT = 1;

    private final WorkingMemoryStore store;
    private final int kept;

    DreamRecords(WorkingMemoryStore store, int kept) {
        this.store = store;
        this.kept = kept;
    }

    /** Whether the resource has a records document (it dreamt at least once, or tried to roll back). */
    boolean exist(String storeKey) {
        return store.getDocument(storeKey, DOCUMENT).isPresent();
    }

    List<DreamRecord> read(String storeKey) {
        String text = store.getDocument(storeKey, DOCUMENT).orElse(null);
        if (text == null) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(text);
            List<DreamRecord> records = new ArrayList<>();
            for (JsonNode node : root.path("records")) {
                List<String> notes = new ArrayList<>();
                node.path("consumedNotes").forEach(line -> notes.add(line.asText()));
                records.add(new DreamRecord(node.path("id").asLong(), Instant.parse(node.path("time").asText()),
                        DreamRecord.Status.valueOf(node.path("status").asText()),
                        node.hasNonNull("previousState") ? node.get("previousState").asText() : null,
                        node.path("state").asText(), notes, node.path("inputChars").asInt(),
                        node.path("outputChars").asInt(), node.path("transition").asBoolean()));
            }
            return records;
        } catch (JsonProcessingException | RuntimeException e) {
            // Never guess at a commit: a record we cannot read could be a half-done one.
            throw new WorkingMemoryStoreException("The dream records '" + DOCUMENT + "' of '" + storeKey
                    + "' are unreadable; fix or remove the document", e);
        }
    }

    /** Writes {@code records}, keeping the newest {@link #kept}. */
    void write(String storeKey, List<DreamRecord> records) {
        List<DreamRecord> newest = records.subList(Math.max(0, records.size() - kept), records.size());
        ObjectNode root = JSON.createObjectNode().put("format", FORMAT);
        ArrayNode array = root.putArray("records");
        for (DreamRecord record : newest) {
            ObjectNode node = array.addObject().put("id", record.id()).put("time", record.time().toString())
                    .put("status", record.status().name()).put("previousState", record.previousState())
                    .put("state", record.state()).put("inputChars", record.inputChars())
                    .put("outputChars", record.outputChars()).put("transition", record.transition());
            ArrayNode notes = node.putArray("consumedNotes");
            record.consumedNotes().forEach(notes::add);
        }
        try {
            store.putDocument(storeKey, DOCUMENT, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write dream records as JSON", e);
        }
    }
}
