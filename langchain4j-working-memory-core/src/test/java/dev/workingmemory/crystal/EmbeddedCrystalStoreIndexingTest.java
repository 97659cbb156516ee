package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.T0;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

/** How the embedded store's indexer behaves: off the caller's thread, bounded, prioritized, failure-tolerant. */
class EmbeddedCrystalStoreIndexingTest {

    private EmbeddedCrystalStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    /** The real MiniLM behind a gate that holds embedding back until opened, counting what it embedded. */
    static final class GatedModel implements EmbeddingModel {
        final CountDownLatch gate = new CountDownLatch(1);
        final AtomicInteger embedded = new AtomicInteger();
        final List<String> texts = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile Predicate<String> failing = text -> false;

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            for (TextSegment segment : segments) {
                if (failing.test(segment.text())) {
                    throw new IllegalStateException("embedding service unavailable for " + segment.text());
                }
            }
            Response<List<Embedding>> response = TestEmbeddingModels.miniLm().embedAll(segments);
            segments.forEach(segment -> texts.add(segment.text()));
            embedded.addAndGet(segments.size());
            return response;
        }

        @Override
        public int dimension() {
            return 384;
        }
    }

    private EmbeddedCrystalStore store(EmbeddingModel model, int capacity, int batchSize) {
        store = EmbeddedCrystalStore.builder().embeddingModel(model).queueCapacity(capacity).batchSize(batchSize)
                .build();
        return store;
    }

    @Test
    void should_return_from_add_without_waiting_for_the_embedding() {
        GatedModel model = new GatedModel();
        store(model, 100, 16);

        long start = System.nanoTime();
        for (int i = 0; i < 50; i++) {
            store.add(List.of(note("n" + i, "alice", "Note number " + i)));
        }
        long elapsed = System.nanoTime() - start;

        assertThat(model.embedded).hasValue(0);
        assertThat(Duration.ofNanos(elapsed)).isLessThan(Duration.ofSeconds(1));
        assertThat(store.pendingCount()).isEqualTo(50);
        model.gate.countDown();
        assertThat(store.count("alice")).isEqualTo(50);
        assertThat(store.pendingCount()).isZero();
    }

    @Test
    void should_not_make_add_wait_when_the_queue_is_full_and_lose_nothing() throws Exception {
        GatedModel model = new GatedModel();
        store(model, 2, 1);
        store.add(List.of(note("n0", "alice", "Note zero")));
        store.add(List.of(note("n1", "alice", "Note one"), note("n2", "alice", "Note two")));

        // in memory there is nowhere else to keep them: the queue goes beyond its bound, the add returns
        CompletableFuture.runAsync(() -> store.add(List.of(note("n3", "alice", "Note three"))))
                .get(30, TimeUnit.SECONDS);
        assertThat(model.embedded).hasValue(0);
        assertThat(store.pendingCount()).isEqualTo(4);
        model.gate.countDown();

        assertThat(store.count("alice")).isEqualTo(4);
    }

    @Test
    void should_index_a_searched_scope_ahead_of_a_backlog_of_other_scopes() {
        GatedModel model = new GatedModel();
        store(model, 1_000, 8);
        store.add(IntStream.range(0, 300).mapToObj(i -> note("a" + i, "alice", "Alice's note number " + i)).toList());
        store.add(List.of(note("b", "bob", "Bob keeps bees on the roof")));
        model.gate.countDown();

        assertThat(ids(store.search(new CrystalQuery("bob", "bees", 1)))).containsExactly("b");

        assertThat(model.embedded.get()).as("Alice's crystals embedded before Bob's search returned").isLessThan(300);
        assertThat(store.count("alice")).isEqualTo(300);
    }

    @Test
    void should_retry_failed_embeddings_and_index_for_keywords_what_never_embeds() {
        GatedModel model = new GatedModel();
        model.gate.countDown();
        AtomicInteger failures = new AtomicInteger();
        model.failing = text -> text.contains("poison") || (text.contains("flaky") && failures.incrementAndGet() <= 2);
        store(model, 100, 4);

        store.add(List.of(note("ok", "alice", "A healthy note about tulips"),
                note("flaky", "alice", "A flaky note about orchids"),
                note("poison", "alice", "A poison note about hemlock")));

        assertThat(store.count("alice")).isEqualTo(3);
        assertThat(ids(store.search(new CrystalQuery("alice", "orchids", 1)))).containsExactly("flaky");
        assertThat(ids(store.search(new CrystalQuery("alice", "hemlock", 1)))).containsExactly("poison");
        assertThat(model.texts).contains("A flaky note about orchids").doesNotContain("A poison note about hemlock");
    }

    @Test
    void should_never_embed_a_keywords_only_crystal() {
        GatedModel model = new GatedModel();
        model.gate.countDown();
        store(model, 100, 4);
        List<String> keywordsOnly = List.of(Crystal.KEYWORDS_ONLY);

        store.add(List.of(note("tulips", "alice", "A note about tulips"),
                new Crystal("orchids", "alice", CrystalKind.TURN, T0, 0.5, keywordsOnly, "assistant: orchids need",
                        null, "user: how do I water orchids"),
                new Crystal("ferns", "alice", CrystalKind.TURN, T0, 0.5, keywordsOnly, "assistant: ferns like shade",
                        null)));
        store.add(List.of(new Crystal("cacti", "alice", CrystalKind.TURN, T0, 0.5, keywordsOnly,
                "assistant: cacti need little water", null)));

        assertThat(ids(store.search(new CrystalQuery("alice", "orchids", 1)))).containsExactly("orchids");
        assertThat(ids(store.search(new CrystalQuery("alice", "cacti", 1)))).containsExactly("cacti");
        assertThat(store.search(new CrystalQuery("alice", "ferns", 1)).get(0).scores().vector()).isNaN();
        assertThat(model.texts).as("the tulips note and the queries").contains("A note about tulips")
                .noneMatch(text -> text.startsWith("assistant: "));
    }

    @Test
    void should_read_its_own_writes_while_other_threads_add_search_and_delete() throws Exception {
        store(TestEmbeddingModels.miniLm(), 50, 8);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                String scope = "user-" + t;
                futures.add(threads.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        store.add(List.of(note(scope + "-" + i, scope, scope + " remembers the number " + (1000 + i))));
                        assertThat(ids(store.search(new CrystalQuery(scope, "number " + (1000 + i), 3))))
                                .contains(scope + "-" + i).allMatch(id -> id.startsWith(scope + "-"));
                    }
                    assertThat(store.count(scope)).isEqualTo(15);
                    return null;
                }));
            }
            futures.add(threads.submit(() -> {
                for (int i = 0; i < 15; i++) {
                    store.add(List.of(note("temp-" + i, "temp", "Temporary note " + i)));
                    store.deleteScope("temp");
                    assertThat(store.count("temp")).isZero();
                }
                return null;
            }));
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
    }
}
