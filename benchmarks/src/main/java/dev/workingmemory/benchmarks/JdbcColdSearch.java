package dev.workingmemory.benchmarks;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.jdbc.JdbcCrystalStore;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a cold application instance (this new JVM) pays for its first search of a user with 10,000 crystals in
 * PostgreSQL: the time of that search (its user's index loaded into the cache, then the search) and the heap the
 * index then holds; then the searches after it, and the heap when every user of the corpus has been searched with a
 * cache of {@code --cache-mb} (bounded: the cache evicts).
 *
 * <p>The corpus is {@link CrystalSearchBenchmark}'s (10 users of 10,000 crystals), written by {@link JdbcCorpus} when
 * the schema lacks it. Heap figures are the used heap after a full collection ({@code System.gc()} twice), before
 * and after; they include the cache's indexes and nothing else of size (the model is loaded before the first figure).
 *
 * <p>Usage: {@code java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.JdbcColdSearch
 * --jdbc-url URL [--cache-mb N]} (default 256, the store's default).
 */
public final class JdbcColdSearch {

    private static final int SCOPES = 10;
    private static final int PER_SCOPE = 10_000;
    private static final int DISTINCT_TEXTS = 20_000;

    private JdbcColdSearch() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getProperty(BenchDatabase.URL_PROPERTY);
        long cacheMegabytes = 256;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--jdbc-url") && i + 1 < args.length) {
                url = args[++i];
            } else if (args[i].equals("--cache-mb") && i + 1 < args.length) {
                cacheMegabytes = Long.parseLong(args[++i]);
            } else {
                System.err.println("Usage: JdbcColdSearch --jdbc-url URL [--cache-mb N]   (unknown argument: "
                        + args[i] + ")");
                System.exit(2);
            }
        }
        if (url == null) {
            System.err.println("JdbcColdSearch needs --jdbc-url jdbc:postgresql://host:port/db?user=…");
            System.exit(2);
        }
        EmbeddingModel miniLm = CrystalCorpus.miniLm();
        EmbeddingModel model = JdbcCorpus.model(miniLm, DISTINCT_TEXTS);
        try (BenchDatabase database = BenchDatabase.open(url, JdbcCorpus.schema(SCOPES, PER_SCOPE, DISTINCT_TEXTS))) {
            JdbcCorpus.populate(database, SCOPES, PER_SCOPE, DISTINCT_TEXTS, model);
            model.embed("warm the model up"); // loaded and compiled before the first figure
            long baseline = usedHeap();
            try (JdbcCrystalStore store = JdbcCrystalStore.builder().dataSource(database.dataSource())
                    .embeddingModel(model).cacheSize(cacheMegabytes << 20).build()) {
                String user = "user-" + SCOPES / 2;
                long start = System.nanoTime();
                int hits = store.search(new CrystalQuery(user, CrystalCorpus.question(0), 10)).size();
                long first = System.nanoTime() - start;
                long afterFirst = usedHeap();
                start = System.nanoTime();
                store.search(new CrystalQuery(user, CrystalCorpus.question(1), 10));
                long second = System.nanoTime() - start;
                List<Long> warm = new ArrayList<>();
                for (int i = 2; i < 202; i++) {
                    start = System.nanoTime();
                    store.search(new CrystalQuery(user, CrystalCorpus.question(i), 10));
                    warm.add(System.nanoTime() - start);
                }
                System.out.printf("first search of %s (%,d crystals) in a new instance: %.0f ms, %d hits; heap held"
                        + " after it: %.1f MB more%n", user, PER_SCOPE, first / 1e6, hits, (afterFirst - baseline) / 1e6);
                System.out.printf("second search: %.1f ms; the next 200: p50 %.1f ms, p95 %.1f ms%n", second / 1e6,
                        percentile(warm, 50) / 1e6, percentile(warm, 95) / 1e6);
                List<Long> firsts = new ArrayList<>();
                for (int u = 0; u < SCOPES; u++) {
                    start = System.nanoTime();
                    store.search(new CrystalQuery("user-" + u, CrystalCorpus.question(u), 10));
                    firsts.add(System.nanoTime() - start);
                }
                System.out.printf("every user searched once (cache of %d MB): heap held %.1f MB more than before the"
                        + " first search; searches p50 %.0f ms, max %.0f ms%n", cacheMegabytes,
                        (usedHeap() - baseline) / 1e6, percentile(firsts, 50) / 1e6, percentile(firsts, 100) / 1e6);
            }
        }
    }

    private static long usedHeap() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static double percentile(List<Long> values, int percent) {
        long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)];
    }
}
