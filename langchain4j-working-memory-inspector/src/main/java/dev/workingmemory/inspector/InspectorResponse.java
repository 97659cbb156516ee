package dev.workingmemory.inspector;

import dev.workingmemory.internal.Ensure;

import java.util.Map;

/**
 * The inspector's answer to one {@link InspectorRequest}, for the server that mounts it to send as it is: status,
 * content type, body, and the headers every answer carries (a strict Content-Security-Policy,
 * {@code X-Content-Type-Options: nosniff}, no caching, no framing).
 *
 * <p>Immutable and thread-safe.
 *
 * @param status      the HTTP status
 * @param contentType the {@code Content-Type}, with its charset
 * @param body        the body
 * @param headers     further headers to send
 */
public record InspectorResponse(int status, String contentType, byte[] body, Map<String, String> headers) {

    /**
     * Copies the body and headers; a null {@code contentType}, {@code body} or {@code headers} is an
     * {@link IllegalArgumentException}.
     */
    public InspectorResponse {
        Ensure.notNull(contentType, "contentType");
        body = Ensure.notNull(body, "body").clone();
        headers = Map.copyOf(Ensure.notNull(headers, "headers"));
    }

    /** A copy of the body. */
    @Override
    public byte[] body() {
        return body.clone();
    }
}
