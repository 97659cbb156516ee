package dev.workingmemory.samples.companion;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workingmemory.samples.shared.ReplayScript;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The companion's recorded conversation: one user ({@code resource}) over several sessions, each a
 * {@link ReplayScript} (its {@code memoryId} names the session's thread) that starts at its own time.
 *
 * <p>Immutable and thread-safe.
 */
record CompanionScript(String resource, List<Session> sessions) {

    /** One conversation: when it starts and what is said. */
    record Session(Instant at, ReplayScript script) {
    }

    CompanionScript {
        if (resource == null || resource.isBlank()) {
            throw new IllegalArgumentException("The companion script needs a resource");
        }
        if (sessions.isEmpty()) {
            throw new IllegalArgumentException("The companion script has no sessions");
        }
        sessions = List.copyOf(sessions);
    }

    static CompanionScript load(String resource) {
        return parse(ReplayScript.readJson(resource, "companion script"), resource);
    }

    static CompanionScript parse(JsonNode root, String source) {
        List<Session> sessions = new ArrayList<>();
        Instant previous = Instant.MIN;
        for (JsonNode node : root.path("sessions")) {
            String where = source + ", session " + (sessions.size() + 1);
            Instant at;
            try {
                at = Instant.parse(node.path("at").asText(""));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(where + ": 'at' must be an instant such as 2026-03-02T09:00:00Z");
            }
            if (!at.isAfter(previous)) {
                throw new IllegalArgumentException(where + ": sessions must be in time order");
            }
            previous = at;
            sessions.add(new Session(at, ReplayScript.parse(node, where)));
        }
        return new CompanionScript(root.path("resource").asText(""), sessions);
    }
}
