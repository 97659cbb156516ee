package dev.workingmemory.inspector;

import dev.workingmemory.internal.Ensure;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP request to the inspector, as the server that mounts it hands it over: the JDK server of
 * {@link MemoryInspector}, or the Spring Boot starter's servlet.
 *
 * <p>Immutable and thread-safe.
 *
 * @param method  the HTTP method, such as {@code GET}
 * @param path    the path below the inspector's mount point, starting with {@code /} ({@code /} for the page,
 *                {@code /api/…} for the JSON API)
 * @param query   the raw (still URL-encoded) query string, {@code ""} when there is none
 * @param headers the request headers, each by its name in any case (only the first value of each is kept)
 * @param body    the request body, empty for none
 */
public record InspectorRequest(String method, String path, String query, Map<String, String> headers, byte[] body) {

    /**
     * Lower-cases the header names (keeping the first value of each), copies the body and takes a null query or body
     * as empty; a null {@code method}, {@code path} or {@code headers} is an {@link IllegalArgumentException}.
     */
    public InspectorRequest {
        Ensure.notNull(method, "method");
        Ensure.notNull(path, "path");
        query = query == null ? "" : query;
        Map<String, String> lower = new TreeMap<>();
        Ensure.notNull(headers, "headers").forEach((name, value) -> {
            if (name != null && value != null) {
                lower.putIfAbsent(name.toLowerCase(Locale.ROOT), value);
            }
        });
        headers = Map.copyOf(lower);
        body = body == null ? new byte[0] : body.clone();
    }

    /** The value of header {@code name} (in any case), or {@code null}. */
    public String header(String name) {
        return headers.get(Ensure.notNull(name, "name").toLowerCase(Locale.ROOT));
    }

    /** A copy of the request body; empty for none. */
    @Override
    public byte[] body() {
        return body.clone();
    }
}
