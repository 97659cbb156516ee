package dev.workingmemory.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.Wtf8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The inspector without a server: answers the page, its script and style, and the JSON API under one mount point, for
 * whatever server mounts it ({@link MemoryInspector}'s JDK server, the Spring Boot starter's servlet). Every answer
 * carries a strict Content-Security-Policy ({@code script-src 'self'}, nothing inline, nothing from elsewhere) and
 * {@code X-Content-Type-Options: nosniff}; the page puts every text it shows into the DOM as text.
 *
 * <p><b>Write actions</b> ({@code POST api/rollback}, {@code api/dream}, {@code api/forget}) need the token the handler
 * was built with, sent in the header {@value WriteToken#HEADER} and compared in constant time; without a configured
 * token they do not exist. Refused requests get 403 and change nothing. A cross-site page cannot send that header
 * (it would need a CORS preflight that is never granted), so the token also guards against cross-site requests.
 *
 * <p>The JSON API is documented in the module's README. Thread-safe.
 */
public final class InspectorHandler {

    /** Where the page's files are on the classpath. */
    private static final String PAGE = "/dev/workingmemory/inspector/page/";
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/inspector.js", "inspector.js",
            "/inspector.css", "inspector.css");
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private static final int MAX_BODY_BYTES = 8_192;
    private static final Logger log = LoggerFactory.getLogger(InspectorHandler.class);

    private final WorkingMemoryProvider provider;
    private final WriteToken token;
    private final ObjectMapper json = new ObjectMapper();
    private final MemoryViews views;
    private final Map<String, byte[]> files = new HashMap<>();

    private InspectorHandler(WorkingMemoryProvider provider, WriteToken token) {
        this.provider = provider;
        this.token = token;
        this.views = new MemoryViews(provider, json);
        for (String file : FILES.values()) {
            files.computeIfAbsent(file, InspectorHandler::read);
        }
    }

    /**
     * A handler over {@code provider}; with a {@code token}, write actions exist and need it.
     *
     * @param token at least 16 characters, or {@code null} for no write actions
     * @throws IllegalArgumentException for a token too short or with blanks around it
     */
    public static InspectorHandler create(WorkingMemoryProvider provider, String token) {
        Ensure.notNull(provider, "provider");
        return new InspectorHandler(provider, token == null ? null : WriteToken.of(token));
    }

    /** Whether write actions exist (a token was configured). */
    public boolean writable() {
        return token != null;
    }

    /** Answers one request; never throws (a failure is logged and answered with 500). */
    public InspectorResponse handle(InspectorRequest request) {
        try {
            String path = request.path().isEmpty() ? "/" : request.path();
            if (path.startsWith("/api/")) {
                return api(request, path.substring("/api/".length()));
            }
            String file = FILES.get(path);
            if (file == null) {
                return error(404, "Nothing here: the inspector serves its page at its root and its API under api/");
            }
            if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
                return notAllowed("GET, HEAD", "The page is read with GET");
            }
            return response(200, contentType(file), files.get(file));
        } catch (RuntimeException e) {
            log.warn("The memory inspector failed on {} {}", request.method(), request.path(), e);
            return error(500, "The inspector failed on this request; its log says why");
        }
    }

    private InspectorResponse api(InspectorRequest request, String endpoint) {
        if (request.method().equals("POST")) {
            return write(request, endpoint);
        }
        Map<String, String> query = query(request.query());
        // HEAD is GET without the body (the transport leaves it out), as HTTP asks of every server
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            return notAllowed("GET, HEAD, POST", "The API reads with GET and writes with POST");
        }
        try {
            return switch (endpoint) {
                case "info" -> ok(json.createObjectNode().put("writable", token != null)
                        .put("tokenHeader", WriteToken.HEADER).put("blockBudget", provider.blockBudget())
                        .put("crystals", provider.crystalStore().isPresent()));
                case "resources" -> ok(views.resources(query.get("q")));
                case "resource" -> ok(views.resource(required(query, "resource")));
                case "thread" -> ok(views.thread(required(query, "resource"), thread(query)));
                case "crystals" -> ok(views.crystals(required(query, "resource"), query.get("kind"),
                        limit(query, 100, MemoryViews.MAX_CRYSTALS)));
                case "search" -> ok(views.search(required(query, "resource"), required(query, "q"),
                        limit(query, 10, 100)));
                case "tool-output" -> views.toolOutput(required(query, "resource"), thread(query), required(query, "name"))
                        .map(this::ok).orElseGet(() -> error(404, "No cached tool output of that name in this thread"));
                default -> error(404, "No API endpoint '" + endpoint + "'");
            };
        } catch (IllegalArgumentException e) {
            return error(400, e.getMessage());
        }
    }

    private InspectorResponse write(InspectorRequest request, String endpoint) {
        if (token == null) {
            return error(403, "Write actions are off: the inspector was started without a token");
        }
        if (!token.matches(request.header(WriteToken.HEADER))) {
            return error(403, "Write actions need the inspector's token in the " + WriteToken.HEADER + " header");
        }
        if (request.body().length > MAX_BODY_BYTES) {
            return error(413, "The request body is over " + MAX_BODY_BYTES + " bytes");
        }
        String resource;
        try {
            JsonNode body = json.readTree(request.body());
            if (body == null || !body.path("resource").isTextual()) {
                return error(400, "Send a JSON object with the \"resource\" to act on");
            }
            resource = body.get("resource").asText();
        } catch (IOException e) {
            return error(400, "The request body is not JSON: send {\"resource\": \"…\"}");
        }
        MemoryKey key = MemoryKey.of(resource);
        try {
            return switch (endpoint) {
                case "rollback" -> {
                    boolean rolledBack = provider.rollbackDream(key);
                    log.info("Memory inspector: rollback of the last dream of '{}' {}", resource,
                            rolledBack ? "done" : "found no dream to roll back");
                    yield ok(json.createObjectNode().put("rolledBack", rolledBack).put("message", rolledBack
                            ? "Rolled back: the state before the dream is back and its notes are pending again"
                            : "No committed dream is left to roll back"));
                }
                case "dream" -> {
                    DreamReport report = provider.dream(key);
                    log.info("Memory inspector: dream of '{}' run: {}", resource, report);
                    yield ok(DreamViews.report(report).put("committed", report.committed())
                            .put("summary", report.summary()));
                }
                case "forget" -> {
                    provider.forget(key);
                    log.info("Memory inspector: forgot '{}'", resource);
                    yield ok(json.createObjectNode().put("forgotten", true));
                }
                default -> error(404, "No write action '" + endpoint + "'");
            };
        } catch (IllegalStateException e) {
            return error(409, e.getMessage());
        }
    }

    private static String thread(Map<String, String> query) {
        String thread = query.get("thread");
        return thread == null || thread.isEmpty() ? MemoryKey.DEFAULT_THREAD : thread;
    }

    private static String required(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null) {
            throw new IllegalArgumentException("The query parameter '" + name + "' is missing");
        }
        return value;
    }

    private static int limit(Map<String, String> query, int fallback, int max) {
        String value = query.get("limit");
        if (value == null) {
            return fallback;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= max) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("The limit must be a number from 1 to " + max + ", was '" + value + "'");
    }

    /** The parameters of a query string, {@link #decode URL-decoded}; the first value of each name. */
    static Map<String, String> query(String query) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? "" : pair.substring(equals + 1);
            try {
                parameters.putIfAbsent(decode(name), decode(value));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("The query string is not URL-encoded: " + pair.length()
                        + " characters at '" + name + "'");
            }
        }
        return parameters;
    }

    /**
     * URL-decodes {@code text} ({@code %XX} escapes of UTF-8 bytes, {@code +} for a space), where an unpaired
     * surrogate may stand as the three bytes of its own code point ({@code %ED%A0%80} for U+D800, as WTF-8 writes it),
     * which UTF-8 forbids: a memory id may hold one, and the page sends it so (no UTF-8 could carry it, and a decoder
     * would make every such id U+FFFD). Any other byte sequence that is not UTF-8 becomes U+FFFD.
     *
     * @throws IllegalArgumentException for a {@code %} not followed by two hex digits
     */
    static String decode(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        int run = 0; // the start of the characters not yet written
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : '%';
            if (c != '%' && c != '+') {
                continue;
            }
            bytes.writeBytes(text.substring(run, i).getBytes(StandardCharsets.UTF_8));
            if (i == text.length()) {
                break;
            }
            if (c == '+') {
                bytes.write(' ');
            } else if (i + 2 < text.length() && HexFormat.isHexDigit(text.charAt(i + 1))
                    && HexFormat.isHexDigit(text.charAt(i + 2))) {
                bytes.write(HexFormat.fromHexDigits(text, i + 1, i + 3));
                i += 2;
            } else {
                throw new IllegalArgumentException("'%' not followed by two hex digits");
            }
            run = i + 1;
        }
        return Wtf8.decodeReplacing(bytes.toByteArray());
    }

    private InspectorResponse ok(JsonNode body) {
        try {
            return response(200, "application/json; charset=utf-8", json.writeValueAsBytes(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A 405, with the {@code Allow} header HTTP requires of it. */
    private InspectorResponse notAllowed(String allow, String message) {
        InspectorResponse error = error(405, message);
        Map<String, String> headers = new LinkedHashMap<>(error.headers());
        headers.put("Allow", allow);
        return new InspectorResponse(405, error.contentType(), error.body(), headers);
    }

    /** An error answer, {@code {"error": message}}, with the headers of every answer. */
    InspectorResponse error(int status, String message) {
        try {
            return response(status, "application/json; charset=utf-8",
                    json.writeValueAsBytes(json.createObjectNode().put("error", message)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InspectorResponse response(int status, String contentType, byte[] body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Security-Policy", CSP);
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Cache-Control", "no-store");
        headers.put("Cross-Origin-Resource-Policy", "same-origin");
        return new InspectorResponse(status, contentType, body, headers);
    }

    private static String contentType(String file) {
        if (file.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (file.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        return "text/css; charset=utf-8";
    }

    private static byte[] read(String file) {
        try (InputStream in = InspectorHandler.class.getResourceAsStream(PAGE + file)) {
            if (in == null) {
                throw new IllegalStateException("The inspector's page file " + PAGE + file + " is missing from its jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
