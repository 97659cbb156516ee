package dev.workingmemory.inspector;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.internal.Ensure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A web page over a running {@link WorkingMemoryProvider}: its users and threads, the block each memory last sent to
 * the model and each layer's share of it, context pressure over time, the state document and every dream (its guards,
 * notes, pointers and a diff of the state), notes, core memory, scratchpad, entities, session slots, cached tool
 * outputs, and {@code memory_search} with the scores of each hit. Served by the JDK's own HTTP server; the Spring Boot
 * starter mounts the same page on the application's server instead ({@code working-memory.inspector.enabled=true}).
 *
 * <pre>{@code
 * try (MemoryInspector inspector = MemoryInspector.builder().provider(memories).port(7070).build().start()) {
 *     System.out.println("Inspect the memory at " + inspector.url());
 *     ...
 * }
 * }</pre>
 *
 * <p><b>Safe by default.</b> Bound to 127.0.0.1 unless {@link Builder#bindAddress} says otherwise; a request whose
 * {@code Host} header names another host than the one bound (or {@code localhost}, or one {@link Builder#allowedHost
 * allowed}) is refused with 421, so a DNS-rebound name cannot reach it; a write action from a page of another origin
 * ({@code Origin} or {@code Sec-Fetch-Site}) is refused with 403. Write actions (roll back a dream, dream now, forget a
 * user) exist only with a {@link Builder#token token} and need it in the {@code X-Inspector-Token} header (see
 * {@link InspectorHandler}).
 *
 * <p>Thread-safe. Requests are served by two daemon threads named {@code working-memory-inspector}.
 */
public final class MemoryInspector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryInspector.class);
    private static final int THREADS = 2;

    private final InspectorHandler handler;
    private final InetAddress bindAddress;
    private final int configuredPort;
    private final Set<String> allowedHosts;
    private HttpServer server;
    private ExecutorService executor;
    private int port;

    private MemoryInspector(Builder builder) {
        if (builder.provider == null) {
            throw new IllegalStateException("Give the inspector the provider to inspect: builder().provider(memories)");
        }
        this.handler = InspectorHandler.create(builder.provider, builder.token);
        try {
            this.bindAddress = InetAddress.getByName(builder.bindAddress);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Cannot resolve the inspector's bind address '" + builder.bindAddress + "'",
                    e);
        }
        this.configuredPort = builder.port;
        Set<String> hosts = new LinkedHashSet<>(List.of("127.0.0.1", "localhost", "[::1]"));
        hosts.add(hostName(bindAddress));
        builder.allowedHosts.forEach(host -> hosts.add(host.toLowerCase(Locale.ROOT)));
        this.allowedHosts = Set.copyOf(hosts);
    }

    /** A builder of an inspector on 127.0.0.1, port 7070; a provider is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts serving.
     *
     * @return this inspector
     * @throws IllegalStateException when it was started before
     * @throws UncheckedIOException  when the port cannot be bound
     */
    public synchronized MemoryInspector start() {
        if (server != null) {
            throw new IllegalStateException("The inspector is started already, on port " + port);
        }
        try {
            server = HttpServer.create(new InetSocketAddress(bindAddress, configuredPort), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serve the memory inspector on " + bindAddress.getHostAddress() + ":"
                    + configuredPort, e);
        }
        executor = Executors.newFixedThreadPool(THREADS, task -> {
            Thread thread = new Thread(task, "working-memory-inspector");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::serve);
        server.start();
        port = server.getAddress().getPort();
        if (!bindAddress.isLoopbackAddress()) {
            log.warn("The memory inspector is served on {}:{}, beyond this machine; it shows what every user said",
                    bindAddress.getHostAddress(), port);
        }
        log.info("Memory inspector at {} ({})", url(), handler.writable() ? "write actions need its token"
                : "read only: no token configured");
        return this;
    }

    /** The port it serves on: the bound one once started (also for port 0), the configured one before. */
    public synchronized int port() {
        return server == null ? configuredPort : port;
    }

    /** The page's address, such as {@code http://127.0.0.1:7070/}. */
    public String url() {
        String host = bindAddress.isAnyLocalAddress() ? "127.0.0.1" : hostName(bindAddress);
        return "http://" + host + ":" + port() + "/";
    }

    /** Stops serving; requests under way get a second to finish. Does nothing when not started. */
    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(1);
            executor.shutdown();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server = null;
        }
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange; InputStream body = exchange.getRequestBody()) {
            InspectorResponse response;
            String refusal = refusal(exchange);
            if (refusal != null) {
                // answered as the handler answers, with the same policy headers
                response = handler.error(refusal.startsWith("421") ? 421 : 403, refusal.substring(4));
            } else {
                Map<String, String> headers = new HashMap<>();
                exchange.getRequestHeaders().forEach((name, values) -> {
                    if (!values.isEmpty()) {
                        headers.put(name, values.get(0));
                    }
                });
                URI uri = exchange.getRequestURI();
                byte[] bytes = body.readNBytes(64 * 1024);
                response = handler.handle(new InspectorRequest(exchange.getRequestMethod(), uri.getRawPath(),
                        uri.getRawQuery(), headers, bytes));
            }
            response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            byte[] bytes = response.body();
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(response.status(), head || bytes.length == 0 ? -1 : bytes.length);
            if (!head && bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    /** Why the request is refused before it reaches the handler, or {@code null}. */
    private String refusal(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (host == null || !allowedHosts.contains(hostWithoutPort(host))) {
            return "421 The inspector answers only requests for " + allowedHosts + " (Host was "
                    + (host == null ? "missing" : "'" + host + "'") + ")";
        }
        if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
            String site = exchange.getRequestHeaders().getFirst("Sec-Fetch-Site");
            if (site != null && !site.equals("same-origin") && !site.equals("none")) {
                return "403 Write actions come from the inspector's own page";
            }
            String origin = exchange.getRequestHeaders().getFirst("Origin");
            if (origin != null && !origin.equalsIgnoreCase("http://" + host)) {
                return "403 Write actions come from the inspector's own page (Origin was '" + origin + "')";
            }
        }
        return null;
    }

    /** {@code Host} without its port, lower case; an IPv6 literal keeps its brackets. */
    static String hostWithoutPort(String host) {
        String lower = host.strip().toLowerCase(Locale.ROOT);
        int close = lower.lastIndexOf(']');
        int colon = lower.lastIndexOf(':');
        return colon > close ? lower.substring(0, colon) : lower;
    }

    private static String hostName(InetAddress address) {
        String literal = address.getHostAddress().toLowerCase(Locale.ROOT);
        return literal.contains(":") ? "[" + literal.replaceFirst("%.*$", "") + "]" : literal;
    }

    /** Builds a {@link MemoryInspector}. Not thread-safe. */
    public static final class Builder {

        private WorkingMemoryProvider provider;
        private int port = 7070;
        private String token;
        private String bindAddress = "127.0.0.1";
        private final List<String> allowedHosts = new java.util.ArrayList<>();

        private Builder() {
        }

        /** The provider to inspect. Required. */
        public Builder provider(WorkingMemoryProvider provider) {
            this.provider = Ensure.notNull(provider, "provider");
            return this;
        }

        /** The port to serve on; default 7070, 0 for any free port ({@link MemoryInspector#port()} tells which). */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("The port must be within 0 and 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * The token that write actions (roll back a dream, dream now, forget a user) need, sent by the page in the
         * {@code X-Inspector-Token} header; at least 16 characters. Without one the inspector only reads.
         */
        public Builder token(String token) {
            this.token = Ensure.notNull(token, "token");
            WriteToken.of(token); // fails here, naming the rule
            return this;
        }

        /**
         * The address to serve on; default {@code 127.0.0.1}, this machine only. Another address shows every user's
         * memory to whoever reaches it (a WARN says so at start).
         */
        public Builder bindAddress(String address) {
            this.bindAddress = Ensure.notNull(address, "address");
            return this;
        }

        /**
         * Accepts requests whose {@code Host} header names {@code host} (without its port), besides the bound address
         * and {@code localhost}: the name the inspector is reached by when it is bound beyond this machine.
         */
        public Builder allowedHost(String host) {
            Ensure.notNull(host, "host");
            if (host.isBlank() || host.contains("/")) {
                throw new IllegalArgumentException("An allowed host is a host name or address without a port, was '"
                        + host + "'");
            }
            allowedHosts.add(hostWithoutPort(host));
            return this;
        }

        /** @throws IllegalStateException without a provider */
        public MemoryInspector build() {
            return new MemoryInspector(this);
        }
    }
}
