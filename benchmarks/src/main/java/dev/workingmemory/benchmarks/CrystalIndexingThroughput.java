package dev.workingmemory.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How fast the embedded crystal store indexes: {@value #CRYSTALS} crystals added at once to a new store and waited
 * for ({@code count} returns once they are all indexed), with real all-MiniLM-L6-v2 embeddings; time per crystal,
 * so crystals per second = 1 / time. Each crystal has its neighbours' texts as context, as a past turn has (indexed
 * for keywords; what is embedded is the text alone, {@code Crystal#textToIndex}). {@code embedAllOnly} embeds the
 * same texts in batches of 16 (the store's batch size) and nothing else: the difference is what recording and
 * indexing add.
 *
 * <p>{@code directory}: {@code false} keeps the store in memory; {@code true} writes the records and a Lucene index
 * in a temporary directory, committed on close (inside the measured time).
 *
 * <p>{@code add} is what the caller of {@code add} pays (the chat memory, when a turn leaves its window): one
 * crystal queued, with the indexer held back by an embedding model that waits until the invocation is over, so
 * that it neither drains the queue nor competes for the CPU; {@value #ADDS} adds per invocation, time per add.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CrystalIndexingThroughput {

    static final int CRYSTALS = 512;

    private EmbeddingModel miniLm;
    private final List<Crystal> crystals = new ArrayList<>();
    private final List<TextSegment> segments = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() {
        miniLm = CrystalCorpus.miniLm();
        miniLm.embed("warm up the model");
        for (int i = 0; i < CRYSTALS; i++) {
            crystals.add(CrystalCorpus.crystal("user-1", i, i));
            segments.add(TextSegment.from(crystals.get(i).textToIndex()));
        }
    }

    /** Where {@code indexCrystals} keeps its store: a new temporary directory per invocation, or memory. */
    @State(Scope.Thread)
    public static class StoreDirectory {

        @Param({"false", "true"})
        public boolean directory;

        private Path temp;

        @Setup(Level.Invocation)
        public void create() throws IOException {
            temp = directory ? Files.createTempDirectory("crystal-throughput") : null;
        }

        @TearDown(Level.Invocation)
        public void delete() throws IOException {
            if (temp != null) {
                try (Stream<Path> files = Files.walk(temp)) {
                    for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                        Files.delete(file);
                    }
                }
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(CRYSTALS)
    public int indexCrystals(StoreDirectory where) {
        try (EmbeddedCrystalStore store = EmbeddedCrystalStore.builder().embeddingModel(miniLm).directory(where.temp)
                .build()) {
            store.add(crystals);
            return store.count("user-1");
        }
    }

    static final int ADDS = 10_000;

    /** A new in-memory store per invocation whose indexer waits for the invocation to end. */
    @State(Scope.Thread)
    public static class HeldBackStore {

        private final List<Crystal> crystals = new ArrayList<>();
        private CountDownLatch release;
        private EmbeddedCrystalStore store;

        @Setup(Level.Trial)
        public void crystals() {
            for (int i = 0; i < ADDS; i++) {
                crystals.add(CrystalCorpus.crystal("user-1", i, i));
            }
        }

        @Setup(Level.Invocation)
        public void open() {
            CountDownLatch latch = new CountDownLatch(1);
            release = latch;
            EmbeddingModel waiting = new EmbeddingModel() {
                @Override
                public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                    try {
                        latch.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Response.from(segments.stream().map(segment -> Embedding.from(new float[] {1, 0})).toList());
                }

                @Override
                public int dimension() {
                    return 2;
                }
            };
            store = EmbeddedCrystalStore.builder().embeddingModel(waiting).queueCapacity(2 * ADDS).build();
        }

        @TearDown(Level.Invocation)
        public void close() {
            release.countDown();
            store.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(ADDS)
    public void add(HeldBackStore held) {
        for (Crystal crystal : held.crystals) {
            held.store.add(List.of(crystal));
        }
    }

    @Benchmark
    @OperationsPerInvocation(CRYSTALS)
    public int embedAllOnly() {
        int embedded = 0;
        for (int from = 0; from < CRYSTALS; from += 16) {
            embedded += miniLm.embedAll(segments.subList(from, Math.min(CRYSTALS, from + 16))).content().size();
        }
        return embedded;
    }
}
