package dev.workingmemory.crystal;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.event.CrystalsDeferred;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.testing.CapturedLog;
import dev.workingmemory.testing.ChildJvm;
import dev.workingmemory.testing.GatedEmbeddingModel;
import dev.workingmemory.testing.HashingEmbeddingModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static dev.workingmemory.crystal.CrystalStoreContract.ids;
import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, point 5: the indexer's back-pressure never makes {@code add} wait. Beyond the queue's bound a store with a
 * directory records crystals and reads them back later, out of memory; nothing is lost, also when the process is
 * killed while thousands wait, and a search still sees every crystal of its scope added before it.
 */
class DeferredCrystalsTest {

    @TempDir
    Path directory;

    private EmbeddedCrystalStore store;
    private CapturedLog log;
    private final AtomicInteger deferred = new AtomicInteger();

    @BeforeEach
    void startLog() {
        log = CapturedLog.start();
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        log.close();
    }

    private EmbeddedCrystalStore open(EmbeddingModel model, int capacity) {
        return open(model, capacity, 16);
    }

    private EmbeddedCrystalStore open(EmbeddingModel model, int capacity, int batchSize) {
        store = EmbeddedCrystalStore.builder().directory(directory).embeddingModel(model).queueCapacity(capacity)
                .batchSize(batchSize)
                .listener(new WorkingMemoryListener() {
                    @Override
                    public void onCrystalsDeferred(CrystalsDeferred event) {
                        deferred.addAndGet(event.count());
                    }
                })
                .build();
        return store;
    }

    private void addAll(int count) throws Exception {
        // on another thread with a timeout: an add that waited for the (gated) indexer would never return
        CompletableFuture.runAsync(() -> {
            for (int i = 0; i < count; i++) {
                store.add(List.of(DeferredCrystalsChild.crystal(i)));
            }
        }).get(60, TimeUnit.SECONDS);
    }

    private void awaitRecorded(long lines) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (DeferredCrystalsChild.recordedLines(directory) < lines && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(DeferredCrystalsChild.recordedLines(directory)).isGreaterThanOrEqualTo(lines);
    }

    @Test
    void should_record_crystals_beyond_the_bound_and_index_them_later_without_making_add_wait() throws Exception {
        GatedEmbeddingModel gated = new GatedEmbeddingModel();
        open(gated, 10);

        addAll(300);

        assertThat(store.pendingCount()).isEqualTo(300);
        // the batch the indexer took (and holds, gated) no longer counts against the bound
        assertThat(deferred.get()).isBetween(300 - 10 - 16, 290);
        assertThat(log.lines("WARN")).filteredOn(line -> line.contains("crystals wait to be indexed")).singleElement()
                .asString().contains("10 crystals wait to be indexed", "recorded to " + directory.resolve("crystals"));
        awaitRecorded(300);
        gated.open();

        for (String scope : DeferredCrystalsChild.SCOPES) {
            assertThat(store.count(scope)).isEqualTo(100);
        }
        assertThat(ids(store.search(new CrystalQuery("alice", "token297x", 1)))).containsExactly("c297");
        assertThat(store.get("c298")).map(Crystal::scope).contains("bob");
        assertThat(store.pendingCount()).isZero();
        assertThat(log.lines("INFO")).anyMatch(line -> line.contains("caught up")
                && line.contains(deferred.get() + " crystal(s)"));
    }

    @Test
    void should_keep_the_later_of_two_adds_of_an_id_when_the_second_is_deferred() throws Exception {
        GatedEmbeddingModel gated = new GatedEmbeddingModel();
        open(gated, 2, 1); // the indexer holds at most the first add, so the second of x goes beyond the bound
        store.add(List.of(note("x", "alice", "The first version mentions apricots")));
        store.add(List.of(note("filler-1", "alice", "A filler note")));
        store.add(List.of(note("filler-2", "alice", "Another filler note")));
        store.add(List.of(note("x", "alice", "The second version mentions blueberries")));

        assertThat(deferred.get()).isBetween(1, 2);
        gated.open();

        assertThat(store.count("alice")).isEqualTo(3);
        assertThat(store.get("x")).map(Crystal::text).contains("The second version mentions blueberries");
        assertThat(store.search(new CrystalQuery("alice", "apricots", 5))).extracting(hit -> hit.crystal().text())
                .noneMatch(text -> text.contains("apricots"));
    }

    @Test
    void should_not_index_deferred_crystals_deleted_before_they_were_read_back() throws Exception {
        GatedEmbeddingModel gated = new GatedEmbeddingModel();
        open(gated, 3);
        addAll(60);
        awaitRecorded(60);

        store.delete("alice", List.of("c30", "c33"));
        store.deleteScope("bob");
        gated.open();

        assertThat(store.count("alice")).isEqualTo(18);
        assertThat(store.get("c30")).isEmpty();
        assertThat(store.count("bob")).isZero();
        assertThat(store.count("carol")).isEqualTo(20);
        store.close();
        open(new HashingEmbeddingModel(), 3);
        assertThat(store.count("alice")).isEqualTo(18);
        assertThat(store.count("bob")).isZero();
    }

    @Test
    void should_index_deferred_crystals_after_the_store_is_closed_and_opened_again() throws Exception {
        GatedEmbeddingModel gated = new GatedEmbeddingModel();
        open(gated, 10);
        addAll(120);
        awaitRecorded(120);
        gated.open(); // lets the indexer reach the close

        store.close();
        open(new HashingEmbeddingModel(), 10);

        for (String scope : DeferredCrystalsChild.SCOPES) {
            assertThat(store.count(scope)).isEqualTo(40);
        }
        assertThat(ids(store.search(new CrystalQuery("carol", "token119x", 1)))).containsExactly("c119");
    }

    @Test
    void should_find_every_crystal_after_the_process_is_killed_while_thousands_wait() throws Exception {
        int count = 3_000;
        try (ChildJvm child = ChildJvm.start(DeferredCrystalsChild.class, directory.toString(),
                String.valueOf(count))) {
            child.awaitLine(line -> line.startsWith("recorded"), Duration.ofSeconds(120));
            child.kill();
            assertThat(child.printed()).anyMatch(line -> line.equals("added " + count + ", waiting " + count));
        }

        open(new HashingEmbeddingModel(), 10_000);

        for (String scope : DeferredCrystalsChild.SCOPES) {
            assertThat(store.count(scope)).isEqualTo(count / 3);
        }
        List<String> sampled = new ArrayList<>();
        for (int i : IntStream.of(0, 99, 1_500, 2_998, 2_999).toArray()) {
            Crystal crystal = DeferredCrystalsChild.crystal(i);
            sampled.addAll(ids(store.search(new CrystalQuery(crystal.scope(), "token" + i + "x", 1))));
        }
        assertThat(sampled).containsExactly("c0", "c99", "c1500", "c2998", "c2999");
    }
}
