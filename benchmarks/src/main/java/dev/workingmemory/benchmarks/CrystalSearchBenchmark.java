package dev.workingmemory.benchmarks;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.jdbc.JdbcCrystalStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What {@code memory_search} costs over a large store: a hybrid search (keyword + vector, limit 10) of one user's
 * 10,000 crystals among 100,000 (10 users), against embedding the query alone (what any vector search pays first),
 * both measured in the same run with {@link Mode#SampleTime} (read the p0.50 rows).
 *
 * <p>{@code vectors}: {@code lucene} is the embedded store's default (vectors in Lucene HNSW, the scope filter
 * inside the KNN search), kept in a directory under {@code java.io.tmpdir} and reused by later runs (building it
 * takes minutes); {@code inMemory} puts the vectors into LangChain4j's {@code InMemoryEmbeddingStore} (which tests
 * the scope filter on every entry), built in memory for each trial; {@code jdbc} is the {@code JdbcCrystalStore}
 * with nothing but a DataSource (crystals and vectors in PostgreSQL, the user's index in the instance's cache, loaded
 * before measuring), on the server of {@code -Dworkingmemory.bench.jdbcUrl=…}, in a schema reused by later runs.
 *
 * <p>Each crystal has the texts before and after it as its context (as a past turn has its neighbouring turns), so
 * the keyword query runs over text and context fields. Embedding 100,000 texts with MiniLM takes about half an hour
 * on two cores, so the corpus has {@code distinctTexts} distinct texts (default 20,000), embedded once and cached
 * in a file (a crystal gets the vector of its own text, see {@link CrystalCorpus#precomputed}); crystal {@code k}
 * of user {@code u} gets text {@code (u·10,000 + k) mod distinctTexts}: every user's 10,000 crystals are distinct,
 * and with the default each text (and vector) appears in 5 of the 10 users. The queries are embedded for real on
 * every call. Run with {@code -p distinctTexts=100000} for a fully distinct corpus.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CrystalSearchBenchmark {

    private static final int QUERIES = 256;

    @Param({"lucene", "inMemory", "jdbc"})
    public String vectors;

    @Param({"10"})
    public int scopes;

    @Param({"10000"})
    public int perScope;

    @Param({"20000"})
    public int distinctTexts;

    /** Candidates per list ({@link CrystalRanking#candidates()}); 0 for the default. */
    @Param({"0"})
    public int candidates;

    /** The weight of the best hits' words ({@link CrystalRanking#feedbackWeight()}, 0 for none); -1 for the default. */
    @Param({"-1"})
    public double feedback;

    /**
     * The hits asked of the store. 10 is a plain search's; {@code memory_search} of 10 hits asks the store for 50
     * ({@code MemorySearch}: five candidates per hit, to choose among), which also makes each list take 50.
     */
    @Param({"10"})
    public int limit;

    private EmbeddingModel miniLm;
    private CrystalStore store;
    private BenchDatabase database;
    private String scope;
    private final List<String> queries = new ArrayList<>();
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException, SQLException, InterruptedException {
        miniLm = CrystalCorpus.miniLm();
        scope = "user-" + (scopes / 2);
        for (int i = 0; i < QUERIES; i++) {
            queries.add(CrystalCorpus.question(i));
        }
        EmbeddingModel model = JdbcCorpus.model(miniLm, distinctTexts);
        CrystalRanking ranking = CrystalRanking.defaults();
        if (candidates > 0 || feedback >= 0) {
            ranking = new CrystalRanking(ranking.keywordWeight(), ranking.vectorWeight(), ranking.contextWeight(),
                    candidates > 0 ? candidates : ranking.candidates(), feedback >= 0 ? feedback
                    : ranking.feedbackWeight());
        }
        if (vectors.equals("jdbc")) {
            database = BenchDatabase.open(BenchDatabase.configuredUrl("-p vectors=jdbc"),
                    JdbcCorpus.schema(scopes, perScope, distinctTexts));
            JdbcCorpus.populate(database, scopes, perScope, distinctTexts, model);
            store = JdbcCrystalStore.builder().dataSource(database.dataSource()).embeddingModel(model).ranking(ranking)
                    .build();
            store.search(new CrystalQuery(scope, nextQuery(), 10)); // loads the user's index into the cache
            return;
        }
        Path cache = Path.of(System.getProperty("java.io.tmpdir"), "working-memory-crystal-bench");
        EmbeddedCrystalStore.Builder builder = EmbeddedCrystalStore.builder().embeddingModel(model).batchSize(512)
                .queueCapacity(20_000).ranking(ranking);
        if (vectors.equals("lucene")) {
            // named by the index format and the merge policy that laid it out: a change of either builds it anew
            builder.directory(cache.resolve("store-v7-merge16x4-" + scopes + "x" + perScope + "-" + distinctTexts));
        } else {
            builder.embeddingStore(new InMemoryEmbeddingStore<>());
        }
        store = builder.build();
        boolean built = false;
        for (int u = 0; u < scopes; u++) {
            String user = "user-" + u;
            if (store.count(user) != perScope) {
                long start = System.nanoTime();
                List<Crystal> crystals = new ArrayList<>(perScope);
                for (int k = 0; k < perScope; k++) {
                    crystals.add(CrystalCorpus.crystal(user, k, (u * perScope + k) % distinctTexts));
                }
                store.add(crystals);
                while (store.count(user) < perScope) {
                    // count waits for the user's crystals to be indexed (up to its timeout)
                }
                System.err.printf("%s: %,d crystals indexed in %d s%n", user, perScope,
                        (System.nanoTime() - start) / 1_000_000_000);
                built = true;
            }
        }
        if (built && vectors.equals("lucene")) {
            store.close(); // waits for Lucene's merges, which would otherwise run during the measurement
            store = builder.build();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
        if (database != null) {
            database.close();
        }
    }

    private String nextQuery() {
        next = (next + 1) % QUERIES;
        return queries.get(next);
    }

    @Benchmark
    public List<CrystalHit> search() {
        return store.search(new CrystalQuery(scope, nextQuery(), limit));
    }

    @Benchmark
    public float[] embedQuery() {
        return miniLm.embed(nextQuery()).content().vector();
    }
}
