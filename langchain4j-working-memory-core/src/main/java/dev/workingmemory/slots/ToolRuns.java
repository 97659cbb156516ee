package dev.workingmemory.slots;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which call of a tool gave which session items, so that the same call run again replaces what its last run said:
 * {@code runTests {}} that failed twice and now passes leaves no failure behind, and {@code bash {"command": "mvn -q
 * compile"}} that fails with other errors shows those. A call is its tool's name and its arguments (as JSON, without
 * spacing, keys sorted); a call with other arguments (another module, another file) replaces nothing. Items a tool of
 * the memory adds ({@code working_memory_add}) and items of a result whose request was not seen are no call's.
 *
 * <p>Not thread-safe: guarded by the memory's lock, as {@link SessionSlots} is.
 */
final class ToolRuns {

    /** Requests remembered until their results come: a turn's parallel calls, with room to spare. */
    static final int PENDING = 64;
    /** Writes a parsed call's objects with their keys sorted: the same call with its keys in another order is one. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    /** The requests whose results have not come yet, by id, oldest first; not saved. */
    private final LinkedHashMap<String, ToolExecutionRequest> pending = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ToolExecutionRequest> eldest) {
            return size() > PENDING;
        }
    };
    /** Per slot, the call that gave each item, by the item's normalized text. */
    private final Map<String, Map<String, String>> calls = new HashMap<>();

    /** Remembers the tool requests of {@code message} until their results come. */
    void requested(AiMessage message) {
        if (!message.hasToolExecutionRequests()) {
            return;
        }
        for (ToolExecutionRequest request : message.toolExecutionRequests()) {
            if (request.id() != null) {
                pending.put(request.id(), request);
            }
        }
    }

    /** The request whose result {@code result} is, forgotten here; {@code null} when it was not seen. */
    ToolExecutionRequest requestOf(ToolExecutionResultMessage result) {
        return result.id() == null ? null : pending.remove(result.id());
    }

    /** The call {@code request} makes, as a short name; {@code null} for none or a request without a tool name. */
    static String call(ToolExecutionRequest request) {
        if (request == null || request.name() == null) {
            return null;
        }
        return hash(request.name() + '\u0000' + canonical(request.arguments()));
    }

    /** Records that {@code call} gave {@code content} in {@code slot}; {@code call} null forgets any call it had. */
    void gave(String slot, String content, String call) {
        String key = Texts.normalize(content);
        if (call == null) {
            Map<String, String> items = calls.get(slot);
            if (items != null) {
                items.remove(key);
            }
        } else {
            calls.computeIfAbsent(slot, s -> new HashMap<>()).put(key, call);
        }
    }

    /** Whether {@code content} of {@code slot} was given by {@code call}. */
    boolean gaveBy(String slot, String content, String call) {
        Map<String, String> items = calls.get(slot);
        return items != null && call.equals(items.get(Texts.normalize(content)));
    }

    /** Forgets the calls of items no longer in their slots. */
    void retainOnly(Map<String, ? extends List<String>> slots) {
        for (Iterator<Map.Entry<String, Map<String, String>>> it = calls.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Map<String, String>> slot = it.next();
            List<String> items = slots.get(slot.getKey());
            if (items == null) {
                it.remove();
                continue;
            }
            Set<String> present = new HashSet<>();
            items.forEach(item -> present.add(Texts.normalize(item)));
            slot.getValue().keySet().retainAll(present);
        }
    }

    /** The calls of the items in {@code slots}: {@code {"error": {"<item>": "<call>"}}}. */
    ObjectNode snapshot(Map<String, ? extends List<String>> slots) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        slots.forEach((slot, items) -> {
            Map<String, String> byItem = calls.get(slot);
            if (byItem == null) {
                return;
            }
            ObjectNode slotNode = null;
            for (String item : items) {
                String call = byItem.get(Texts.normalize(item));
                if (call != null) {
                    if (slotNode == null) {
                        slotNode = node.putObject(slot);
                    }
                    slotNode.put(item, call);
                }
            }
        });
        return node;
    }

    /** Replaces the calls by those of a {@link #snapshot}; a missing or malformed one leaves none. */
    void restore(JsonNode snapshot) {
        calls.clear();
        if (snapshot == null || !snapshot.isObject()) {
            return;
        }
        snapshot.fields().forEachRemaining(slot -> {
            if (slot.getValue().isObject()) {
                slot.getValue().fields().forEachRemaining(item -> {
                    if (item.getValue().isTextual()) {
                        gave(slot.getKey(), item.getKey(), item.getValue().asText());
                    }
                });
            }
        });
    }

    /**
     * Arguments as JSON without spacing and with their keys sorted, so that the same call written twice is one; else
     * the text stripped.
     */
    private static String canonical(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return "";
        }
        try {
            return JSON.writeValueAsString(JSON.readValue(arguments, Object.class));
        } catch (JsonProcessingException e) {
            return arguments.strip();
        }
    }

    /** A short fixed-length name of a call: its arguments may be a whole file. */
    private static String hash(String call) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(call.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e); // every JVM has it
        }
    }
}
