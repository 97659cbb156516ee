package dev.workingmemory.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.jdbc.JdbcWorkingMemoryStore;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * What {@code ChatMemory.add} costs with 10,000 crystals waiting to be indexed, against the same {@code add} with
 * none waiting, measured in one run (issue 19, point 5: the indexer's back-pressure never blocks {@code add}). A plain
 * main, not JMH: what matters is the tail of single calls in a state (a backlog) that a JMH iteration would change.
 *
 * <p>Two providers in this JVM, each with a {@code FileWorkingMemoryStore} of its own (its crystals in
 * {@code .crystals}: the embedded store, with its default bound of 10,000) and {@code maxMessages(8)}: every turn (a
 * user message and an answer, each {@code add}ed and followed by {@code messages()}, as {@code AiServices} does)
 * pushes an exchange out of the window, which becomes a crystal in the {@code add} that evicts it. 100 users take
 * turns. The embedding model hashes words (what it costs is not the point) behind a gate that can hold the indexer
 * back. After a warm-up of 2,000 turns each, the gate of one of them closes and it takes turns (not measured) until
 * 10,000 crystals wait; then the timed turns alternate between the two, the order swapped every turn: {@code waiting}
 * (every crystal its turns make goes beyond the bound: recorded, read back later) and {@code none waiting} (the
 * benchmark waits for its indexer to be idle after each turn, outside the measurement). Every turn is followed by
 * the same 1 ms pause, so that both start their adds with the threads behind them quiet. Alternating keeps a shared
 * machine's changing load out of the ratio. Finally the backlog is drained and its time reported.
 *
 * <p>Each side reports percentiles of every {@code add} call. The last line per store:
 * {@code backlog: store=file add_p99_none=<µs> add_p99_waiting=<µs> ratio=<waiting / none> waiting=<crystals>}.
 *
 * <p>{@code --jdbc URL} (a PostgreSQL JDBC URL) runs the same with {@code JdbcWorkingMemoryStore}s on Hikari pools
 * (one schema each, {@code backlog_waiting} and {@code backlog_none}) and vectors in an {@code InMemoryEmbeddingStore}:
 * there the crystals are rows written by {@code add}, the backlog is 10,000 rows waiting for their vectors behind the
 * gated embedder, and the idle side is not waited for (the store has no count of rows without vectors; its embedder
 * keeps up). {@code --turns N} timed turns per side (default 2,000).
 */
public final class IndexBacklogLatency {

    private static final int USERS = 100;
    private static final int BACKLOG = 10_000;

    private IndexBacklogLatency() {
    }

    /** Hashed words as vectors, behind a gate that holds every caller back while closed. */
    static final class GatedModel implements EmbeddingModel {
        private final Object lock = new Object();
        private boolean open = true;

        void open(boolean open) {
            synchronized (lock) {
                this.open = open;
                lock.notifyAll();
            }
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            synchronized (lock) {
                while (!open) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
            }
            List<Embedding> embeddings = new ArrayList<>(segments.size());
            for (TextSegment segment : segments) {
                float[] vector = new float[64];
                for (String word : segment.text().toLowerCase(Locale.ROOT).split("\\W+")) {
                    vector[Math.floorMod(word.hashCode(), 64)] += 1;
                }
                vector[0] += 0.01f;
                embeddings.add(Embedding.from(vector));
            }
            return Response.from(embeddings);
        }

        @Override
        public int dimension() {
            return 64;
        }
    }

    /** Percentiles of one phase's add calls, in microseconds. */
    record Phase(String name, long[] nanos) {

        double percentile(double p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1);
            return sorted[Math.max(0, index)] / 1_000.0;
        }

        String line() {
            return String.format(Locale.ROOT, "%-20s adds=%d p50=%.1fus p90=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus",
                    name, nanos.length, percentile(50), percentile(90), percentile(99), percentile(99.9),
                    percentile(100));
        }
    }

    private static final class Conversation {
        private final ChatMemory[] chats = new ChatMemory[USERS];
        private int turn;

        Conversation(WorkingMemoryProvider memories) {
            for (int user = 0; user < USERS; user++) {
                chats[user] = memories.get("user-" + user);
            }
        }

        /** One turn; the add calls' times go into {@code into} from {@code at} when it is not null. */
        void turn(long[] into, int at) {
            int i = turn++;
            ChatMemory chat = chats[i % USERS];
            UserMessage question = UserMessage.from("Question " + i + ": how do I configure module-" + (i * 7919 % 1000)
                    + " for the staging deploy on port " + (8000 + i % 100) + "?");
            AiMessage answer = AiMessage.from("Answer " + i + ": set module-" + (i * 7919 % 1000)
                    + ".enabled=true in application.yml, then redeploy staging and check the health endpoint.");
            long start = System.nanoTime();
            chat.add(question);
            long middle = System.nanoTime();
            chat.messages();
            long second = System.nanoTime();
            chat.add(answer);
            long end = System.nanoTime();
            chat.messages();
            if (into != null) {
                into[at] = middle - start;
                into[at + 1] = end - second;
            }
        }
    }

    /** One side: a provider, its gated model, and how many crystals wait (null when the store does not say). */
    record Side(WorkingMemoryProvider memories, GatedModel model, LongSupplier pending, Conversation conversation) {

        static Side of(WorkingMemoryProvider memories, GatedModel model, boolean counted) {
            return new Side(memories, model, counted ? memories::pendingCrystals : null, new Conversation(memories));
        }
    }

    public static void main(String[] args) throws Exception {
        int turns = 2_000;
        String jdbc = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--turns" -> turns = Integer.parseInt(args[++i]);
                case "--jdbc" -> jdbc = args[++i];
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]
                        + " (--turns N, --jdbc URL)");
            }
        }
        System.out.printf(Locale.ROOT, "java %s, %d processors; timed turns per side: %d%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), turns);
        List<String> summary = new ArrayList<>();
        Path waitingRoot = Files.createTempDirectory("index-backlog-waiting");
        Path noneRoot = Files.createTempDirectory("index-backlog-none");
        try {
            GatedModel waitingModel = new GatedModel();
            GatedModel noneModel = new GatedModel();
            try (WorkingMemoryProvider waiting = file(waitingRoot, waitingModel);
                 WorkingMemoryProvider none = file(noneRoot, noneModel)) {
                summary.add(run("file", Side.of(waiting, waitingModel, true), Side.of(none, noneModel, true), turns));
            }
        } finally {
            delete(waitingRoot);
            delete(noneRoot);
        }
        if (jdbc != null) {
            try (HikariDataSource waitingPool = pool(jdbc, "backlog_waiting");
                 HikariDataSource nonePool = pool(jdbc, "backlog_none")) {
                GatedModel waitingModel = new GatedModel();
                GatedModel noneModel = new GatedModel();
                try (WorkingMemoryProvider waiting = jdbc(waitingPool, waitingModel);
                     WorkingMemoryProvider none = jdbc(nonePool, noneModel)) {
                    summary.add(run("jdbc", Side.of(waiting, waitingModel, false), Side.of(none, noneModel, false),
                            turns));
                }
            }
        }
        summary.forEach(System.out::println);
    }

    private static WorkingMemoryProvider file(Path root, GatedModel model) {
        return WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(root)).embeddingModel(model)
                .maxMessages(8).build();
    }

    private static WorkingMemoryProvider jdbc(HikariDataSource pool, GatedModel model) {
        WorkingMemoryStore store = new JdbcWorkingMemoryStore(pool);
        return WorkingMemoryProvider.builder().store(store).embeddingModel(model)
                .embeddingStore(new InMemoryEmbeddingStore<>()).maxMessages(8).build();
    }

    /** A pool whose connections use {@code schema}, emptied first (the stores create their tables). */
    private static HikariDataSource pool(String url, String schema) throws java.sql.SQLException {
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url);
             java.sql.Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            statement.execute("CREATE SCHEMA " + schema);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setSchema(schema);
        config.setMaximumPoolSize(8);
        return new HikariDataSource(config);
    }

    private static String run(String store, Side waiting, Side none, int turns) throws InterruptedException {
        System.out.println("== " + store);
        for (int i = 0; i < 2_000; i++) {
            waiting.conversation().turn(null, 0);
            none.conversation().turn(null, 0);
        }
        awaitIdle(waiting.pending(), TimeUnit.MINUTES.toNanos(10));
        awaitIdle(none.pending(), TimeUnit.MINUTES.toNanos(10));

        waiting.model().open(false);
        long backlog = 0;
        while (waiting.pending() != null ? waiting.pending().getAsLong() < BACKLOG : backlog < BACKLOG) {
            waiting.conversation().turn(null, 0);
            backlog++;
        }
        if (waiting.pending() != null) {
            backlog = waiting.pending().getAsLong();
        }
        long[] waitingNanos = new long[2 * turns];
        long[] noneNanos = new long[2 * turns];
        for (int i = 0; i < turns; i++) {
            if (i % 2 == 0) {
                waiting.conversation().turn(waitingNanos, 2 * i);
                none.conversation().turn(noneNanos, 2 * i);
            } else {
                none.conversation().turn(noneNanos, 2 * i);
                waiting.conversation().turn(waitingNanos, 2 * i);
            }
            awaitIdle(none.pending(), TimeUnit.MINUTES.toNanos(1));
            Thread.sleep(1);
        }
        Phase without = new Phase("none waiting", noneNanos);
        Phase with = new Phase(String.format(Locale.ROOT, "%,d waiting", backlog), waitingNanos);
        System.out.println(without.line());
        System.out.println(with.line() + (waiting.pending() != null
                ? " (then " + waiting.pending().getAsLong() + " waiting)" : ""));

        long drain = System.nanoTime();
        waiting.model().open(true);
        if (waiting.pending() != null) {
            awaitIdle(waiting.pending(), TimeUnit.MINUTES.toNanos(30));
            System.out.printf(Locale.ROOT, "the backlog drained in %.1f s%n", (System.nanoTime() - drain) / 1e9);
        }
        return String.format(Locale.ROOT, "backlog: store=%s add_p99_none=%.1f add_p99_waiting=%.1f ratio=%.2f"
                        + " add_p50_none=%.1f add_p50_waiting=%.1f waiting=%d", store, without.percentile(99),
                with.percentile(99), with.percentile(99) / without.percentile(99), without.percentile(50),
                with.percentile(50), backlog);
    }

    private static void awaitIdle(LongSupplier pending, long timeoutNanos) throws InterruptedException {
        if (pending == null) {
            return;
        }
        long end = System.nanoTime() + timeoutNanos;
        while (pending.getAsLong() > 0) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException(pending.getAsLong() + " crystals still wait to be indexed");
            }
            Thread.sleep(0, 200_000);
        }
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(file);
            }
        }
    }
}
