package dev.workingmemory.benchmarks;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * {@link CrystalSearchBenchmark}'s two measures (a search with its query embedding, and the query embedding alone)
 * taken in alternating short blocks, reporting the median of the blocks' ratios. On a shared machine the speed of
 * both drifts within seconds, so the two means of one JMH run, taken minutes apart, may compare different
 * machines; a pair of adjacent blocks sees about the same one, and the median of many pairs leaves out the
 * pairs a burst of load split.
 *
 * <p>Usage: {@code SearchAgainstEmbedding [--vectors lucene|inMemory|jdbc] [--limit 50] [--feedback W] [--scopes 10]
 * [--per-scope 10000] [--pairs 200] [--block 20]} ({@code --feedback}: the ranking's {@code feedbackWeight}, 0 for
 * none; the default's without it. {@code --scopes}, {@code --per-scope}: how many users and crystals each; with more
 * users than the index's 64 partitions, the user searched shares a partition with others)
 * (the store as {@code CrystalSearchBenchmark} builds and caches it; {@code --limit 50} is what {@code memory_search} of 10 hits asks
 * the store for). Prints one line:
 * {@code search/embedding: ratio=… (quartiles …-…) search_ms=… embedding_ms=… pairs=… limit=… scopes=…x…}.
 */
public final class SearchAgainstEmbedding {

    private SearchAgainstEmbedding() {
    }

    public static void main(String[] args) throws IOException, SQLException, InterruptedException {
        CrystalSearchBenchmark benchmark = new CrystalSearchBenchmark();
        benchmark.vectors = "lucene";
        benchmark.scopes = 10;
        benchmark.perScope = 10_000;
        benchmark.distinctTexts = 20_000;
        benchmark.candidates = 0;
        benchmark.limit = 50;
        benchmark.feedback = -1;
        int pairs = 200;
        int block = 20;
        try {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--vectors") && i + 1 < args.length) {
                    benchmark.vectors = args[++i];
                    if (!List.of("lucene", "inMemory", "jdbc").contains(benchmark.vectors)) {
                        usage("--vectors is lucene, inMemory or jdbc, was " + benchmark.vectors);
                    }
                } else if (args[i].equals("--limit") && i + 1 < args.length) {
                    benchmark.limit = Integer.parseInt(args[++i]);
                } else if (args[i].equals("--feedback") && i + 1 < args.length) {
                    benchmark.feedback = Double.parseDouble(args[++i]);
                } else if (args[i].equals("--scopes") && i + 1 < args.length) {
                    benchmark.scopes = Integer.parseInt(args[++i]);
                } else if (args[i].equals("--per-scope") && i + 1 < args.length) {
                    benchmark.perScope = Integer.parseInt(args[++i]);
                } else if (args[i].equals("--pairs") && i + 1 < args.length) {
                    pairs = Integer.parseInt(args[++i]);
                } else if (args[i].equals("--block") && i + 1 < args.length) {
                    block = Integer.parseInt(args[++i]);
                } else {
                    usage("unknown argument: " + args[i]);
                }
            }
        } catch (NumberFormatException e) {
            usage("not a number: " + e.getMessage());
        }
        if (pairs < 4 || block < 1 || benchmark.limit < 1 || benchmark.feedback > 1 || benchmark.scopes < 1
                || benchmark.perScope < 1) {
            usage("--pairs must be 4 or more, --block, --limit, --scopes and --per-scope 1 or more, --feedback at most"
                    + " 1");
        }
        benchmark.setUp();
        try {
            // past the JIT's warm-up: with JMH's -wi 2 -w 2s the search was still speeding up when measured
            long warm = System.nanoTime() + 15_000_000_000L;
            while (System.nanoTime() < warm) {
                benchmark.search();
                benchmark.embedQuery();
            }
            double[] ratios = new double[pairs];
            double[] searches = new double[pairs];
            double[] embeddings = new double[pairs];
            for (int p = 0; p < pairs; p++) {
                long start = System.nanoTime();
                for (int i = 0; i < block; i++) {
                    benchmark.search();
                }
                long searched = System.nanoTime();
                for (int i = 0; i < block; i++) {
                    benchmark.embedQuery();
                }
                long embedded = System.nanoTime();
                searches[p] = (searched - start) / 1e6 / block;
                embeddings[p] = (embedded - searched) / 1e6 / block;
                ratios[p] = searches[p] / embeddings[p];
            }
            Arrays.sort(ratios);
            Arrays.sort(searches);
            Arrays.sort(embeddings);
            System.out.printf("search/embedding: ratio=%.2f (quartiles %.2f-%.2f) search_ms=%.2f embedding_ms=%.2f"
                            + " pairs=%d limit=%d scopes=%dx%d%n", ratios[pairs / 2], ratios[pairs / 4],
                    ratios[3 * pairs / 4], searches[pairs / 2], embeddings[pairs / 2], pairs, benchmark.limit,
                    benchmark.scopes, benchmark.perScope);
        } finally {
            benchmark.tearDown();
        }
    }

    private static void usage(String problem) {
        System.err.println("Usage: SearchAgainstEmbedding [--vectors lucene|inMemory|jdbc] [--limit 50] [--feedback W]"
                + " [--scopes 10] [--per-scope 10000] [--pairs 200] [--block 20]   (" + problem + ")");
        System.exit(2);
    }
}
